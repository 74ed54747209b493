import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// One-shot queries and "added you" over a fake pool: each relay's end is kept, a silent relay's part
/// ends at the deadline on the injected clock, and "added you" follows the newest lists, live while shown.
final class EngineQueryTests: XCTestCase {
    let a = "ws://a.test", b = "ws://b.test"

    func note(_ key: SecretKey, _ text: String, at: Int64) -> NostrEvent {
        UnsignedEvent(pubkey: key.publicKey, createdAt: at, kind: 1, tags: [], content: text).signed(with: key)
    }

    func testAQueryAnswersWhenEveryRelayEndedItWithWhoSentWhat() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.relays = [a, b] }
        let e = note(.generate(), "hello", at: 5)
        let answer = Task { await t.engine.queryEach([Filter(kinds: [1])]) }
        await eventually("the request") { !t.pool.requests(.query(1)).isEmpty }
        XCTAssertEqual(t.pool.requests(.query(1)).first?.relays, [a, b])
        await t.engine.handle(.event(relay: a, subscription: "linkstr-query-1", e))
        await t.engine.handle(.event(relay: b, subscription: "linkstr-query-1", e))
        await t.engine.handle(.eose(relay: a, subscription: "linkstr-query-1"))
        await t.engine.handle(.closed(relay: b, subscription: "linkstr-query-1", RelayStatusMessage("restricted: no")))
        let gotAnswer = await answer.value
        let got = try XCTUnwrap(gotAnswer)
        XCTAssertEqual(got.events.map(\.id), [e.id], "each event once")
        XCTAssertEqual(got.sources, [a: [e.id.hex], b: [e.id.hex]])
        XCTAssertEqual(got.ends[a], .eose)
        XCTAssertEqual(got.ends[b], .closed("restricted: no"))
        XCTAssertTrue(t.pool.closed.contains("linkstr-query-1"))
    }

    func testASilentRelaysPartEndsAtTheDeadlineAndAnOfflinePoolAnswersNil() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.relays = [a, b] }
        let answer = Task { await t.engine.queryEach([Filter(kinds: [1])], timeout: .seconds(10)) }
        await eventually("the request") { !t.pool.requests(.query(1)).isEmpty }
        await t.engine.handle(.eose(relay: a, subscription: "linkstr-query-1"))
        await eventually("the deadline's timer") { t.clock.sleepers > 0 }
        t.clock.advance(by: .seconds(10))
        let gotAnswer = await answer.value
        let got = try XCTUnwrap(gotAnswer)
        XCTAssertEqual(got.ends, [a: .eose], "b never ended it")
        t.pool.state.withLock { $0.gate = .offline }
        let offline = await t.engine.query([Filter(kinds: [1])])
        XCTAssertNil(offline)
    }

    func testAddedYouFollowsTheNewestListsAndWatchesNewOnes() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate(), carol = SecretKey.generate()
        func list(_ key: SecretKey, naming: [Pubkey], at: Int64) -> NostrEvent {
            UnsignedEvent(pubkey: key.publicKey, createdAt: at, kind: 3, tags: naming.map { ["p", $0] }, content: "").signed(with: key)
        }
        // A relay holding Bob's two lists naming us: the pages find him, and his newest list counts.
        t.pool.state.withLock { $0.serving = ["ws://a.test": [list(bob, naming: [t.me], at: 10), list(bob, naming: [t.me, carol.publicKey.hex], at: 20)]] }
        let found = await t.engine.addedYou()
        let answer = try XCTUnwrap(found)
        XCTAssertEqual(answer.followers, [bob.publicKey.hex])
        XCTAssertTrue(answer.complete)
        let newest = t.pool.requests.filter { $0.filters.first?.authors != nil && $0.id.hasPrefix("linkstr-query-") }
        XCTAssertEqual(newest.first?.filters.first?.authors, [bob.publicKey.hex], "the newest lists of who was found")
        // Watched: Carol adds us, then Bob's newest list drops us.
        var updates = t.engine.updates.makeAsyncIterator()
        await t.engine.watchAddedYou(true)
        XCTAssertEqual(t.pool.requests(.addedYouNew).count, 1)
        XCTAssertEqual(t.pool.requests(.addedYouRows).last?.filters.first?.authors, [bob.publicKey.hex])
        await t.engine.handle(.event(relay: "ws://a.test", subscription: SyncSubscription.addedYouNew.id, list(carol, naming: [t.me], at: 30)))
        await t.engine.handle(.event(relay: "ws://a.test", subscription: SyncSubscription.addedYouRows.id, list(bob, naming: [], at: 40)))
        let said = await t.said(&updates, 2) { update -> Set<Pubkey>? in
            if case .addedYouChanged(let followers) = update { return Set(followers) } else { return nil }
        }
        XCTAssertEqual(said, [[bob.publicKey.hex, carol.publicKey.hex], [carol.publicKey.hex]])
        await t.engine.watchAddedYou(false)
        XCTAssertTrue(t.pool.closed.contains(SyncSubscription.addedYouNew.id))
    }
}
