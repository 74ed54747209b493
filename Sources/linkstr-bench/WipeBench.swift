import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The emergency wipe with a large history: `posts` posts in 1,000 sessions, two identities.
enum WipeBench {
    static func run(posts: Int) throws {
        let bench = try BenchHome("wipe", me: SecretKey.generate(using: SeededRandom(seed: 45)))
        let (home, paths, me) = (bench.home, bench.paths, bench.me)
        defer { if FileManager.default.fileExists(atPath: home.path) { bench.remove() } }  // the wipe removes it when it works
        try IdentityVault(paths: paths).store(SecretKey.generate(), passphrase: BenchHome.passphrase)
        let fill = try LargeHistory.fill(try LocalStore(paths: paths).account(me, now: 1), me: me.publicKey.hex, sessions: 1_000, postsPerSession: max(1, posts / 1_000))
        let bytes = ["", "-wal"].reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: paths.database.path + $1)[.size] as? Int) ?? 0) }
        var report: Wipe.Report?
        let seconds = try Timing.seconds { report = try Wipe.run(paths) }
        print("wipe: \(fill.messages) messages stored, database \(bytes / 1_048_576) MiB")
        Timing.report("wipe (crypto-erase, then remove)", String(format: "%.0f ms (%d identities, %d files and directories)", seconds * 1000,
                                                                  report?.identities ?? 0, report?.files ?? 0))
        benchCheck(!FileManager.default.fileExists(atPath: home.path), "nothing left")
    }
}
