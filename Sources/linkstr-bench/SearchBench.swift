import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// Post search over a large history (`posts` posts in 1,000 sessions, some with page titles): the index
/// built at unlock (every post opened from the sealed store into memory), then queries across all
/// sessions and in one, common and rare, median and p99; and what the app adds for a results list.
enum SearchBench {
    static func run(posts: Int) throws {
        let me = SecretKey.generate(using: SeededRandom(seed: 47))
        let home = try BenchHome("search", me: me)
        defer { home.remove() }
        let store = try LocalStore(paths: home.paths).account(me, now: 1)
        let fill = try LargeHistory.fill(store, me: me.publicKey.hex, sessions: 1_000, postsPerSession: max(1, posts / 1_000))
        let sessions = try store.sessionSummaries()
        for s in 0..<min(1_000, sessions.count) {
            for p in stride(from: 0, to: 10, by: 1) {
                try store.storeLinkMetadata(.init(title: "Weekly digest \(s)-\(p): the Quokka report", fetchedAt: 1),
                                            for: "https://example.com/\(s)/\(p)")
            }
        }
        print("search: \(fill.messages) messages stored, \(min(1_000, sessions.count) * 10) page titles")

        var indexed = 0
        let search = PostSearch(store: store)
        let before = SpeedBench.residentMiB()
        let build = try Timing.seconds { indexed = try search.build() }
        Timing.report("index build, on the first / (\(indexed) posts)", String(format: "%.0f ms", build * 1000))
        Timing.report("resident memory it adds", String(format: "%.0f MiB (%.0f → %.0f MiB, whole process)", SpeedBench.residentMiB() - before, before, SpeedBench.residentMiB()))

        let sid = sessions[sessions.count / 2].id
        let queries: [(String, String, String?)] = [
            ("rare word, all sessions", "session 517", nil),
            ("title word, all sessions", "quokka", nil),
            ("every post matches (capped)", "example.com", nil),
            ("no match", "zzzz-nothing", nil),
            ("non-ASCII, no match", "Ωμέγα", nil),
            ("one session", "note", sid),
        ]
        for (label, query, session) in queries {
            var hits = 0
            let d = try Timing.distribution(runs: 60) { _ in hits = try search.search(query, in: session).result.hits.count }
            Timing.report("query: \(label)", String(format: "median %.2f ms, p99 %.2f ms (%d hits)", d.median, d.p99, hits))
        }
        // What the app does per query besides: the first 200 hits opened for the results list.
        let d = try Timing.distribution(runs: 30) { _ in
            let answer = try search.search("quokka")
            _ = try store.postViews(answer.result.hits.prefix(200).map(\.postID))
        }
        Timing.report("query + 200 previews for the list", String(format: "median %.2f ms, p99 %.2f ms", d.median, d.p99))
        // A session whose posts changed is read again before the next query.
        let stale = try Timing.distribution(runs: 30) { _ in
            search.invalidate([sid])
            _ = try search.search("note")
        }
        Timing.report("query after one session changed", String(format: "median %.2f ms, p99 %.2f ms", stale.median, stale.p99))
    }
}
