import LinkstrDomain
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrRelay
@testable import LinkstrStorage
@testable import LinkstrSync

/// The send queue's drain over a fake pool and a manual clock (issue 49): the backoff's timer, the
/// refusal that fails one item of a batch while the rest goes, and the hold on an old item.
final class EngineSendQueueTests: XCTestCase {
    private func post(_ t: EngineUnderTest, _ sid: String, _ i: Int) throws -> OutboundRumor {
        try OutboundPlanner.post(session: try t.store.session(sid), me: t.me, url: "https://example.com/\(i)", note: nil, now: t.clock.start).get()
    }

    /// A session made and three posts queued, applied at once; the drain publishes them in order, in one
    /// batch, and empties the queue.
    func testQueuedActionsAreAppliedAtOnceAndGoInOrderInOneBatch() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.gate = .offline }
        let create = t.newSession("Train")
        let sid = create.payload.conversationID
        _ = try await t.engine.enqueue([create], action: .sessionCreate, sessionID: sid, drain: false)
        var posts = [String]()
        for i in 0..<3 { posts.append(try await t.engine.enqueue([try post(t, sid, i)], action: .post, sessionID: sid, drain: false).sent[0].rumorID) }
        XCTAssertEqual(try t.store.sessionSummaries(archived: false).map(\.name), ["Train"], "applied before any relay")
        XCTAssertEqual(Set(try t.store.postPage(in: sid, limit: 10).map(\.post.id)), Set(posts))
        XCTAssertEqual(t.pool.published.count, 0)
        let queued = try t.store.sendQueueEntries().flatMap { $0.send.events.map(\.id) }

        t.pool.state.withLock { $0.gate = nil }
        await t.engine.drainSendQueue()
        XCTAssertEqual(t.pool.published.count, 1, "one batch")
        XCTAssertEqual(t.pool.published[0].map(\.id), queued, "the events built at queueing, in order")
        XCTAssertEqual(try t.store.sendQueue().count, 0)
    }

    /// A batch with one refused item goes item by item: the refused one fails with the relay's words,
    /// the others go; a refusal that may pass is tried again at 1 s, then 2 s, and holds its session.
    func testARefusalFailsItsItemOnlyAndATemporaryOneBacksOff() async throws {
        let t = try EngineUnderTest()
        let create = t.newSession("Train")
        let sid = create.payload.conversationID
        _ = try await t.engine.enqueue([create], action: .sessionCreate, sessionID: sid, drain: false)
        let bad = try await t.engine.enqueue([try post(t, sid, 1)], action: .post, sessionID: sid, drain: false)
        _ = try await t.engine.enqueue([try post(t, sid, 2)], action: .post, sessionID: sid, drain: false)
        let badWraps = Set(try t.store.queuedSend(bad.item)!.events.map(\.id))
        t.pool.state.withLock {
            $0.answer = { events in
                if events.contains(where: { badWraps.contains($0.id) }) { return .failure(.rejected("ws://a.test refused it: invalid: no")) }
                return .success(PublishReceipt(acceptedBy: Dictionary(uniqueKeysWithValues: events.map { ($0.id, ["ws://a.test"]) })))
            }
        }
        await t.engine.drainSendQueue()
        let left = try t.store.sendQueueEntries()
        XCTAssertEqual(left.map(\.item.id), [bad.item])
        XCTAssertEqual(left.first?.item.state, .failed)
        XCTAssertEqual(left.first?.lastReason, "ws://a.test refused it: invalid: no")
        XCTAssertEqual(t.pool.published.map(\.count), [3, 1, 2, 1, 1],
                       "the batch (one wrap an item: no other member); refused, item by item: the create went, so a batch of the other two; refused, the bad one alone (failed), then the last")

        // Rate-limited: tried again after 1 s, then 2 s; the item after it waits behind it.
        let slow = try await t.engine.enqueue([try post(t, sid, 3)], action: .post, sessionID: sid, drain: false)
        _ = try await t.engine.enqueue([try post(t, sid, 4)], action: .post, sessionID: sid, drain: false)
        let slowWraps = Set(try t.store.queuedSend(slow.item)!.events.map(\.id))
        let refusing = Mutex(true)
        t.pool.state.withLock {
            $0.answer = { events in
                if refusing.withLock({ $0 }), events.contains(where: { slowWraps.contains($0.id) }) {
                    return .failure(.rejected("ws://a.test refused it: rate-limited: slow down"))
                }
                return .success(PublishReceipt(acceptedBy: Dictionary(uniqueKeysWithValues: events.map { ($0.id, ["ws://a.test"]) })))
            }
        }
        let before = t.pool.published.count
        await t.engine.drainSendQueue()
        XCTAssertEqual(t.pool.published.count - before, 2, "the batch of two, then the first alone; the second waits behind it")
        XCTAssertEqual(try t.store.sendQueue().filter { $0.state == .queued }.map(\.attempts), [1, 0])
        await eventually("the backoff's timer") { t.clock.hasSleeper(until: .seconds(1)) }
        t.clock.advance(by: .seconds(1))
        await eventually("the second try (the batch, then the first alone)") { t.pool.published.count - before == 4 }
        await eventually("its timer") { t.clock.hasSleeper(until: .seconds(3)) }
        refusing.withLock { $0 = false }
        t.clock.advance(by: .seconds(2))
        await eventually("both went") { (try? t.store.sendQueue().filter { $0.state == .queued }.count) == 0 }
    }

    /// An item queued more than the hold ago waits (and its session behind it) until the user says yes.
    func testAnOldItemWaitsForAYes() async throws {
        let t = try EngineUnderTest()
        await t.engine.setQueueHold(days: 1)
        t.pool.state.withLock { $0.gate = .offline }
        let create = t.newSession("Old")
        let item = try await t.engine.enqueue([create], action: .sessionCreate, sessionID: create.payload.conversationID, drain: false).item
        t.clock.advance(by: .seconds(2 * 86_400))
        t.pool.state.withLock { $0.gate = nil }
        await t.engine.drainSendQueue()
        XCTAssertEqual(t.pool.published.count, 0, "held")
        XCTAssertEqual(try t.store.sendQueue().count, 1)
        let retried = try await t.engine.retryQueued(item)
        XCTAssertEqual(retried, 1)
        await eventually("sent after the yes") { (try? t.store.sendQueue().isEmpty) == true }
        XCTAssertEqual(t.pool.published.count, 1)
    }

    /// Nothing of a queued item is readable at rest (its events' signatures appear nowhere in the file),
    /// and a queue at its bound refuses the next send in words, applying nothing.
    func testTheQueueIsSealedAtRestAndBounded() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-queue-rest-\(UUID().uuidString)")
        defer {
            do { try FileManager.default.removeItem(at: home) } catch { XCTFail("could not remove \(home.path): \(error)") }
        }
        let key = SecretKey.generate(), pool = FakePool(), clock = ManualClock()
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let store = try local.account(key, now: clock.start)
        let engine = SyncEngine(identity: key, store: store, pool: pool.client, time: clock.time)
        pool.state.withLock { $0.gate = .offline }
        let create = try OutboundPlanner.createSession(name: "Sealed", members: [], me: key.publicKey.hex, now: clock.start, random: SystemRandom()).get()
        let sid = create.sessionID
        let queued = try await engine.enqueue([create.rumor], action: .sessionCreate, sessionID: sid, drain: false)
        let sigs = try store.queuedSend(queued.item)!.events.map(\.sig.hex)

        // Filled to the bound (rows written directly): the next send is refused and nothing is applied.
        try local.db.run("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(SendQueuePolicy.maxItems - 1))
            INSERT INTO send_queue (owner, item, session_id, state, next_at, created_at, size, item_enc)
            SELECT (SELECT number FROM accounts), 1000 + i, 'S', 'queued', 0, 0, 1, x'00' FROM n
            """)
        let post = try OutboundPlanner.post(session: try store.session(sid), me: key.publicKey.hex, url: "https://example.com/over", note: nil,
                                            now: clock.start).get()
        do {
            _ = try await engine.enqueue([post], action: .post, sessionID: sid, drain: false)
            XCTFail("a full queue must refuse")
        } catch SendQueueError.full(let items, _) {
            XCTAssertEqual(items, SendQueuePolicy.maxItems)
        }
        XCTAssertEqual(try store.postPage(in: sid, limit: 10).count, 0, "nothing applied")

        await engine.stop()
        try local.db.close()  // its write-ahead log folded into the file
        let files = try FileManager.default.contentsOfDirectory(at: DataPaths.resolve(home: home.path).home, includingPropertiesForKeys: nil)
        var everything = Data()
        for file in files where !file.hasDirectoryPath {
            let bytes = try Data(contentsOf: file)
            everything.append(bytes)
            for sig in sigs { XCTAssertNil(bytes.range(of: Data(sig.utf8)), "\(file.lastPathComponent) holds a queued event in the clear") }
        }
        XCTAssertNotNil(everything.range(of: Data(sid.utf8)), "the scan reads the rows (the session id is in the clear by design)")
    }
}
