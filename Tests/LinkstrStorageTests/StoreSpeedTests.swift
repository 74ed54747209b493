import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// The store's faster paths (issue 31) keep its answers: the unread index of migration 13 on a
/// database the previous schema wrote, and what a batch knows to be absent when one batch holds a
/// post with its session, reactions and delete notice in every order.
final class StoreSpeedTests: StorageTestCase {
    private let me = SecretKey.generate()
    private let friend = SecretKey.generate().publicKey.hex

    private func unread(_ local: LocalStore, _ sid: String) throws -> Int64? {
        try local.db.scalar("SELECT unread FROM sessions WHERE session_id = ?", [.text(sid)]).int
    }

    func testMigrationThirteenKeepsUnreadCountsAndCountsByTheUnreadIndex() throws {
        let sid = LinkstrID.make(SystemRandom())
        do {
            let local = try LocalStore(paths: paths)
            let account = try local.account(me, now: 1)
            var batch = [MessageFactory.create(sid, by: friend, members: [friend, me.publicKey.hex], at: 10)]
            for i in 0..<40 {
                batch.append(MessageFactory.root(sid, by: i % 4 == 0 ? me.publicKey.hex : friend, at: 100 + Int64(i), url: "https://example.com/\(i)"))
            }
            _ = try account.ingest(batch, now: 1)
            for m in batch[1...5] where m.sender == friend { try account.markRead(postID: m.rumorID, now: 2) }
            XCTAssertEqual(try unread(local, sid), 27, "30 inbound, 3 read")
            // Back to schema 12, as the previous release left it.
            try local.db.execute("""
                DROP INDEX posts_unread; CREATE INDEX posts_by_session ON posts(owner, session_id, created_at);
                PRAGMA user_version = 12; DELETE FROM grdb_migrations WHERE identifier = '13';
                """)
        }
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, 13)
        let indexes = try local.db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'posts'").compactMap { $0["name"].text }
        XCTAssertTrue(indexes.contains("posts_unread"))
        XCTAssertFalse(indexes.contains("posts_by_session"))
        let plan = try local.db.query("EXPLAIN QUERY PLAN SELECT count(*) FROM posts WHERE owner = ? AND session_id = ? AND inbound = 1 AND read_at IS NULL",
                                      [.text(me.publicKey.hex), .text(sid)]).compactMap { $0["detail"].text }.joined(separator: "; ")
        XCTAssertTrue(plan.contains("posts_unread"), plan)
        let account = try local.account(me, now: 3)
        XCTAssertEqual(try unread(local, sid), 27, "30 inbound, 3 read")
        _ = try account.ingest((0..<3).map { MessageFactory.root(sid, by: friend, at: 200 + Int64($0), url: "https://example.com/new/\($0)") }, now: 3)
        XCTAssertEqual(try unread(local, sid), 30)
        XCTAssertEqual(try account.sessionSummaries().first?.lastActivityAt, 202)
        try account.markSessionRead(sid, now: 4)
        XCTAssertEqual(try unread(local, sid), 0)
    }

    /// Every order of one session's create, a post, a reaction to it and its author's delete notice
    /// (and the same without the delete), each order in one batch, then all of it again: the store
    /// agrees with the in-memory reference.
    func testOneBatchInAnyOrderAgreesWithTheReference() throws {
        let local = try LocalStore(paths: paths)
        let sid = LinkstrID.make(SystemRandom())
        let create = MessageFactory.create(sid, by: friend, members: [friend, me.publicKey.hex], at: 10)
        let root = MessageFactory.root(sid, by: friend, at: 20, url: "https://example.com/a")
        let reaction = MessageFactory.reaction(sid, post: root.rumorID, by: me.publicKey.hex, emoji: "👍", at: 30)
        let delete = MessageFactory.delete(sid, post: root.rumorID, by: friend, at: 40)
        for withDelete in [false, true] {
            let messages = withDelete ? [create, root, reaction, delete] : [create, root, reaction]
            for order in permutations(messages) {
                let owner = SecretKey.generate()
                let swap = { (m: InboundMessage) in m.replacingKey(self.me.publicKey.hex, with: owner.publicKey.hex) }
                var memory = AccountState(me: owner.publicKey.hex)
                for m in order { _ = try memory.ingest(swap(m)) }
                let account = try local.account(owner, now: 1)
                _ = try account.ingest(order.map(swap), now: 1)
                let names = order.map { $0.payload.kind.rawValue }.joined(separator: ", ")
                if let diff = try account.visibleState().difference(from: memory.visibleState) { return XCTFail("\(names): \(diff)") }
                XCTAssertEqual(try account.postCount(in: sid), withDelete ? 0 : 1, names)
                _ = try account.ingest(order.map(swap), now: 2)
                if let diff = try account.visibleState().difference(from: memory.visibleState) { return XCTFail("again, \(names): \(diff)") }
            }
        }
    }

    /// A session's create (or members snapshot) releasing posts staged in earlier batches, which the
    /// store reads ahead in one query (`PrimedStagedRoots`), with staged reactions to some of them, a
    /// delete notice, a member who leaves, and a post that comes again in a later batch: however the
    /// messages are ordered and split into batches, the store agrees with the in-memory reference.
    func testStagedPostsReleasedTogetherAgreeWithTheReference() throws {
        let local = try LocalStore(paths: paths)
        let other = SecretKey.generate().publicKey.hex
        var rng = SplitMix(seed: 31)
        for trial in 0..<8 {
            let owner = SecretKey.generate()
            let mine = owner.publicKey.hex
            let sid = LinkstrID.make(SystemRandom())
            let create = MessageFactory.create(sid, by: friend, members: [friend, other, mine], at: 10)
            // `other` leaves at 40: their posts after that wait (membership), the earlier ones show.
            let leave = MessageFactory.members(sid, by: friend, members: [friend, mine], at: 40)
            let posts = (0..<24).map { MessageFactory.root(sid, by: $0 % 3 == 0 ? other : friend, at: 20 + Int64($0) * 2, url: "https://example.com/\(trial)/\($0)") }
            let reactions = [MessageFactory.reaction(sid, post: posts[0].rumorID, by: mine, at: 70),
                             MessageFactory.reaction(sid, post: posts[4].rumorID, by: friend, emoji: "🔥", at: 71)]
            let delete = MessageFactory.delete(sid, post: posts[7].rumorID, by: posts[7].sender, at: 80)
            let all = ([create, leave, delete] + posts + reactions).shuffled(using: &rng)
            var cuts = Set((0..<3).map { _ in Int.random(in: 1..<all.count, using: &rng) })
            cuts.insert(all.count)
            var batches = [[InboundMessage]](), start = 0
            for cut in cuts.sorted() { batches.append(Array(all[start..<cut])); start = cut }
            batches[batches.count - 1].append(posts[trial % posts.count])  // one post again, maybe in the same batch
            var memory = AccountState(me: mine)
            for m in batches.joined() { _ = try memory.ingest(m) }
            let account = try local.account(owner, now: 1)
            for batch in batches { _ = try account.ingest(batch, now: 1) }
            let order = batches.map { $0.map { $0.payload.kind.rawValue.prefix(4) }.joined(separator: " ") }.joined(separator: " | ")
            if let diff = try account.visibleState().difference(from: memory.visibleState) { return XCTFail("trial \(trial), \(order): \(diff)") }
            XCTAssertEqual(try account.postCount(in: sid), memory.visibleState.posts[sid]?.count ?? 0, order)
            _ = try account.ingest(all, now: 2)
            if let diff = try account.visibleState().difference(from: memory.visibleState) { return XCTFail("again, trial \(trial): \(diff)") }
        }
    }

    /// Processed wraps go in 64 rows a statement: counts around and beyond that, repeats within one call.
    func testProcessedWrapsInStatementsOfManyRows() throws {
        let local = try LocalStore(paths: paths)
        let account = try local.account(me, now: 1)
        var total = Set<String>()
        for count in [1, 63, 64, 65, 130] {
            let ids = (0..<count).map { MessageFactory.id("wrap-\(count)-\($0)") }
            try account.markProcessed(ids + ids.prefix(5), now: 1)
            total.formUnion(ids)
            XCTAssertEqual(try account.processedWrapCount(), total.count)
            XCTAssertEqual(try account.alreadyProcessed(ids), Set(ids))
        }
        _ = try account.ingest([], wraps: [ProcessedWrap(id: MessageFactory.id("timed"), createdAt: 77)], now: 2)
        XCTAssertEqual(try account.negentropySet().items.map(\.timestamp), [77])
    }

    /// Every distinct statement stays prepared in its connection for the connection's life: lists of ids
    /// of any length and processed wraps in any count prepare a few statements, not one per length,
    /// and the NULLs that fill an `IN (…)` match nothing.
    func testListsOfAnyLengthPrepareAFewStatements() throws {
        let local = try LocalStore(paths: paths)
        let account = try local.account(me, now: 1)
        let stored = (0..<150).map { MessageFactory.id("stored-\($0)") }
        for count in [1...20, 150...150].joined() { try account.markProcessed(Array(stored.prefix(count)), now: 1) }
        let absent = (0..<300).map { MessageFactory.id("absent-\($0)") }
        try local.db.serialized { c in
            func prepared() throws -> Int64 { try c.scalar("SELECT count(*) FROM sqlite_stmt WHERE sql LIKE '%processed_wraps%'").int ?? -1 }
            // Processed wraps of 1…20 and 150: parts of 64, 32, … 1 rows.
            XCTAssertLessThanOrEqual(try prepared(), 7)
            for count in 1...300 {
                let ids = Array(absent.prefix(count)) + stored.prefix(count % 7)
                let found = Set(try c.query(in: ids, "SELECT wrap_id FROM processed_wraps WHERE wrap_id IN (%@)").compactMap { $0["wrap_id"].text })
                XCTAssertEqual(found, Set(stored.prefix(count % 7)), "\(count) ids")
            }
            // Those plus one per list length class (8, 16, … 256, then 400 at most).
            XCTAssertLessThanOrEqual(try prepared(), 7 + 7)
        }
    }

    private func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i -> [[T]] in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
