import NostrProtocol
import XCTest
@testable import LinkstrRelay

/// A short exchange with a relay outside the pool, as a pure machine: publish with OKs, a question until
/// EOSE, NIP-42 answered and what it refused tried once more, also with relays that never OK an AUTH.
final class OneShotExchangeTests: XCTestCase {
    let me = SecretKey.generate()
    lazy var sign: OneShotExchange.Sign = { [me] challenge in
        UnsignedEvent(pubkey: me.publicKey, createdAt: 1, kind: 22242, tags: [["challenge", challenge]], content: "").signed(with: me)
    }

    func event(_ n: Int) -> NostrEvent {
        UnsignedEvent(pubkey: me.publicKey, createdAt: Int64(n), kind: 1059, tags: [], content: "\(n)").signed(with: me)
    }

    func sends(_ actions: [OneShotExchange.Action]) -> [String] {
        actions.compactMap { if case .send(let text) = $0 { return text } else { return nil } }
    }

    func testAPublishFinishesWhenEveryEventIsAnswered() {
        let a = event(1), b = event(2)
        var x = OneShotExchange(.publish([a, b]), sign: nil)
        XCTAssertEqual(sends(x.start()).count, 2)
        XCTAssertEqual(x.received(.ok(eventID: a.id, accepted: true, message: RelayStatusMessage(""))), [])
        XCTAssertEqual(x.received(.ok(eventID: b.id, accepted: false, message: RelayStatusMessage("blocked: no"))), [.finished])
        XCTAssertEqual(x.answers[a.id]?.accepted, true)
        XCTAssertEqual(x.answers[b.id]?.message, "blocked: no")
    }

    func testAnEventRefusedForAuthIsSentAgainOnceAfterOurAuth() {
        let a = event(1)
        var x = OneShotExchange(.publish([a]), sign: sign)
        _ = x.start()
        XCTAssertEqual(x.received(.ok(eventID: a.id, accepted: false, message: RelayStatusMessage("auth-required: who are you"))), [],
                       "no challenge yet: it waits for one")
        let answer = sends(x.received(.auth(challenge: "c1")))
        XCTAssertEqual(answer.count, 2, "our AUTH, then the event again at once")
        XCTAssertTrue(answer[0].hasPrefix("[\"AUTH\""))
        XCTAssertTrue(answer[1].hasPrefix("[\"EVENT\""))
        XCTAssertEqual(x.received(.ok(eventID: a.id, accepted: false, message: RelayStatusMessage("auth-required: still no"))), [.finished],
                       "tried once more only")
        XCTAssertEqual(x.answers[a.id]?.accepted, false)
    }

    func testWithoutASignerAnAuthRefusalIsFinal() {
        let a = event(1)
        var x = OneShotExchange(.publish([a]), sign: nil)
        _ = x.start()
        XCTAssertEqual(x.received(.auth(challenge: "c")), [])
        XCTAssertEqual(x.received(.ok(eventID: a.id, accepted: false, message: RelayStatusMessage("auth-required: no"))), [.finished])
    }

    func testAQuestionRefusedByNoticeIsAskedAgainAfterAuthWithoutWaitingForAnOK() {
        var x = OneShotExchange(.query(subscription: "q", filters: [Filter(kinds: [1059])], maxEvents: 10), sign: sign)
        XCTAssertEqual(sends(x.start()).count, 1)
        XCTAssertEqual(sends(x.received(.auth(challenge: "c"))).count, 1, "AUTH answered")
        // nostr-relay: a NOTICE for the REQ sent before AUTH, and never an OK for the AUTH.
        let again = sends(x.received(.notice("restricted: permission denied")))
        XCTAssertEqual(again.count, 1)
        XCTAssertTrue(again[0].hasPrefix("[\"REQ\""))
        XCTAssertEqual(x.received(.event(subscriptionID: "q", event: event(5))), [])
        XCTAssertEqual(x.received(.eose(subscriptionID: "q")), [.finished])
        XCTAssertEqual(x.received.count, 1)
        XCTAssertNil(x.closedWith)
    }

    func testARefusalAfterTheRetryEndsTheQuestionWithTheRelaysWords() {
        var x = OneShotExchange(.query(subscription: "q", filters: [], maxEvents: 10), sign: sign)
        _ = x.start()
        _ = x.received(.auth(challenge: "c"))
        _ = x.received(.closed(subscriptionID: "q", message: RelayStatusMessage("auth-required: readers only")))
        XCTAssertEqual(x.received(.closed(subscriptionID: "q", message: RelayStatusMessage("restricted: readers only"))), [.finished])
        XCTAssertEqual(x.closedWith, "restricted: readers only")
    }

    func testAFloodingRelayIsCutAtMaxEvents() {
        var x = OneShotExchange(.query(subscription: "q", filters: [], maxEvents: 3), sign: nil)
        _ = x.start()
        XCTAssertEqual(x.received(.event(subscriptionID: "q", event: event(1))), [])
        XCTAssertEqual(x.received(.event(subscriptionID: "other", event: event(9))), [], "another subscription's events are not ours")
        XCTAssertEqual(x.received(.event(subscriptionID: "q", event: event(2))), [])
        XCTAssertEqual(x.received(.event(subscriptionID: "q", event: event(3))), [.finished])
        XCTAssertEqual(x.received(.event(subscriptionID: "q", event: event(4))), [], "nothing after the end")
    }
}
