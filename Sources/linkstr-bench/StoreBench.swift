import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The encrypted store: ingest rate of decoded messages, and the queries a screen needs with a large history.
enum StoreBench {
    static func run(posts: Int) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let me = SecretKey.generate(using: SeededRandom(seed: 42))
        print("store: SQLite \(home.path)")

        // 1. 10,000 decoded messages (random scenarios: snapshots, roots, reactions, deletes) into an empty store.
        let stream = ScenarioGenerator.stream(count: 10_000, seed: 42, me: me.publicKey.hex)
        let small = try LocalStore(paths: DataPaths.resolve(home: home.appendingPathComponent("ingest").path)).account(me, now: 1)
        let ingestSeconds = try Timing.seconds {
            for start in stride(from: 0, to: stream.count, by: 200) {
                let batch = Array(stream[start..<min(start + 200, stream.count)])
                _ = try small.ingest(batch, processedWraps: batch.flatMap(\.wrapIDs), now: 1)
            }
        }
        Timing.report("ingest 10,000 messages (batches of 200)", String(format: "%.0f messages/s (%.2f s)", 10_000 / ingestSeconds, ingestSeconds))

        // 2. A large history: `posts` roots spread over 1,000 sessions (two members each), with reactions.
        let sessions = 1_000, perSession = max(1, posts / sessions)
        let big = try LocalStore(paths: DataPaths.resolve(home: home.appendingPathComponent("large").path)).account(me, now: 1)
        let fill = try LargeHistory.fill(big, me: me.publicKey.hex, sessions: sessions, postsPerSession: perSession)
        Timing.report("fill \(sessions * perSession) posts in \(sessions) sessions",
                      String(format: "%.1f s (%.0f messages/s)", fill.seconds, Double(fill.messages) / fill.seconds))

        // Fresh process view: a new connection, nothing cached.
        let reader = try LocalStore(paths: DataPaths.resolve(home: home.appendingPathComponent("large").path)).account(me, now: 1)
        let coldList = try Timing.seconds { _ = try reader.sessionSummaries() }
        Timing.report("session list, cold (1,000 rows)", String(format: "%.1f ms", coldList * 1000))
        let list = try Timing.distribution(runs: 50) { _ in _ = try reader.sessionSummaries() }
        Timing.report("session list, warm", String(format: "median %.1f ms, p99 %.1f ms", list.median, list.p99))
        let ids = try reader.sessionSummaries().map(\.id)
        // What opening a feed and checking a notification read: one session's row.
        let row = try Timing.distribution(runs: 200) { i in
            let found = try reader.sessionSummary(ids[(i * 37) % ids.count])
            precondition(found != nil)
        }
        Timing.report("one session's row", String(format: "median %.3f ms, p99 %.3f ms", row.median, row.p99))
        let page = try Timing.distribution(runs: 200) { i in
            let p = try reader.postPage(in: ids[(i * 37) % ids.count], limit: 50)
            precondition(p.count == min(50, perSession))
        }
        Timing.report("50-post page (with reactions)", String(format: "median %.2f ms, p99 %.2f ms", page.median, page.p99))
        let firstPage = try reader.postPage(in: ids[0], limit: 50)
        let next = try Timing.distribution(runs: 200) { i in
            _ = try reader.postPage(in: ids[(i * 13) % ids.count], limit: 50, before: (firstPage.last!.post.createdAt, firstPage.last!.id))
        }
        Timing.report("next 50-post page (keyset)", String(format: "median %.2f ms, p99 %.2f ms", next.median, next.p99))
        // The sync engine's dedup before decrypting: one batch of 256 wrap ids (half already opened, half new).
        let knownWraps = try reader.processedWrapCount()
        let sampleIDs = (0..<128).map { MessageFactory.id("wrap-bench-new-\($0)") }
        let storedIDs = try reader.postPage(in: ids[1], limit: 128).flatMap(\.post.wrapIDs)
        let dedup = try Timing.distribution(runs: 200) { _ in
            let found = try reader.alreadyProcessed(storedIDs + sampleIDs)
            precondition(found.count == storedIDs.count)
        }
        Timing.report("dedup check, \(storedIDs.count + sampleIDs.count) wrap ids of \(knownWraps) stored",
                      String(format: "median %.2f ms, p99 %.2f ms", dedup.median, dedup.p99))
        let attrs = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("large/linkstr.sqlite3").path)
        Timing.report("database size", String(format: "%.1f MiB", Double((attrs[.size] as? NSNumber)?.intValue ?? 0) / 1_048_576))
    }
}
