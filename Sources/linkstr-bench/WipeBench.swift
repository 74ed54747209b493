import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The emergency wipe with a large history: `posts` posts in 1,000 sessions, two identities.
enum WipeBench {
    static func run(posts: Int) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-wipe-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let paths = DataPaths.resolve(home: home.path)
        let me = SecretKey.generate(using: SeededRandom(seed: 45))
        try IdentityVault(paths: paths).store(me, passphrase: "benchmark passphrase")
        try IdentityVault(paths: paths).store(SecretKey.generate(), passphrase: "benchmark passphrase")
        let fill = try LargeHistory.fill(try LocalStore(paths: paths).account(me, now: 1), me: me.publicKey.hex, sessions: 1_000, postsPerSession: max(1, posts / 1_000))
        let bytes = ["", "-wal"].reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: paths.database.path + $1)[.size] as? Int) ?? 0) }
        var report: Wipe.Report?
        let seconds = try Timing.seconds { report = try Wipe.run(paths) }
        print("wipe: \(fill.messages) messages stored, database \(bytes / 1_048_576) MiB")
        Timing.report("wipe (crypto-erase, then remove)", String(format: "%.0f ms (%d identities, %d files and directories)", seconds * 1000,
                                                                  report?.identities ?? 0, report?.files ?? 0))
        XCheck(!FileManager.default.fileExists(atPath: home.path), "nothing left")
    }
}
