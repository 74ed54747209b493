import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// `linkstr export` of one large session (issue 51's goal: 10 000 posts in ≤ 2 s and ≤ 100 MB): the
/// store read (posts, titles, names) and each form written, timed apart; the process's peak memory.
enum ExportBench {
    static func run(posts: Int) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-bench-export-\(UUID().uuidString)")
        defer {
            // A benchmark's scratch directory: a failure to remove it is said, not hidden.
            do { try FileManager.default.removeItem(at: home) } catch { print("could not remove \(home.path): \(error)") }
        }
        let me = SecretKey.generate(using: SeededRandom(seed: 42))
        let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(me, now: 1)
        let fill = try LargeHistory.fill(store, me: me.publicKey.hex, sessions: 1, postsPerSession: posts)
        Timing.report("fill \(posts) posts in one session", String(format: "%.2f s", fill.seconds))
        guard let sid = try store.sessionSummaries(archived: nil).first?.id else { throw CLIFailure("no session was made") }
        var exported: ExportedSession?
        let read = try Timing.seconds { exported = try SessionExportReader.read(store, me: me.publicKey.hex, sessionID: sid, now: 2) }
        guard let exported else { throw CLIFailure("the session did not read") }
        Timing.report("read \(exported.posts.count) posts (names, titles, reactions)", String(format: "%.3f s", read))
        for format in ExportFormat.allCases {
            var bytes = 0
            let seconds = Timing.seconds { bytes = SessionExport.write(exported, as: format).utf8.count }
            Timing.report("  write \(format.rawValue)", String(format: "%.3f s, %.1f MB; with the read %.2f s (goal ≤ 2 s)",
                                                               seconds, Double(bytes) / 1e6, read + seconds))
        }
        Timing.report("peak resident memory", String(format: "%.0f MiB (goal ≤ 100 MB)", SpeedBench.peakMiB()))
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
