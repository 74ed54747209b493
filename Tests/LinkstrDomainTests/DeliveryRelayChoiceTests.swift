import LinkstrDomain
import XCTest

/// The relay choice for a send (issue 30) as a pure function: set cover, caps per member and per send,
/// blocked relays, our own relays, stale and missing lists.
final class DeliveryRelayChoiceTests: XCTestCase {
    func r(_ n: Int) -> String { RelayURL.normalized("wss://r\(n).example")! }

    func testTheRelayReachingTheMostMembersIsChosenFirstAndTiesAreStable() {
        let members = [
            DeliveryRelayChoice.Recipient(pubkey: "a", inbox: [r(1), r(2)], listedAt: 100),
            .init(pubkey: "b", inbox: [r(2), r(3)], listedAt: 100),
            .init(pubkey: "c", inbox: [r(2)], listedAt: 100),
            .init(pubkey: "d", inbox: [r(4)], listedAt: 100),
            .init(pubkey: "e", readRelays: [r(5), r(4)], listedAt: 100),
        ]
        let plan = DeliveryRelayChoice.plan(members, ours: [], blocked: [], now: 200)
        XCTAssertEqual(plan.extra.map(\.relay), [r(2), r(4)], "r2 reaches three, then r4 two")
        XCTAssertEqual(plan.extra.map(\.members), [["a", "b", "c"], ["d", "e"]])
        XCTAssertEqual(plan.deliveries, ["a": r(2), "b": r(2), "c": r(2), "d": r(4), "e": r(4)])
        XCTAssertEqual(plan.source["e"], .readRelays)
        XCTAssertEqual(plan.source["a"], .inbox)
        XCTAssertTrue(plan.unreached.isEmpty)
        // The same lists in another order give the same plan.
        XCTAssertEqual(DeliveryRelayChoice.plan(members.reversed(), ours: [], blocked: [], now: 200), plan)
        // Two relays reaching as many: the lower URL.
        let tie = DeliveryRelayChoice.plan([.init(pubkey: "x", inbox: [r(9), r(8)])], ours: [], blocked: [], now: 1)
        XCTAssertEqual(tie.extra.map(\.relay), [r(8)])
    }

    func testCapsPerMemberAndPerSend() {
        // A hostile list of thirty relays: only its first three count.
        let hostile = DeliveryRelayChoice.Recipient(pubkey: "h", inbox: (10..<40).map(r))
        let other = DeliveryRelayChoice.Recipient(pubkey: "o", inbox: [r(20)])
        let plan = DeliveryRelayChoice.plan([hostile, other], ours: [], blocked: [], now: 1)
        XCTAssertEqual(plan.extra.count, 2, "r20 is past h's third relay, so it cannot serve both")
        XCTAssertEqual(Set(plan.deliveries.keys), ["h", "o"])
        XCTAssertTrue([r(10), r(11), r(12)].contains(plan.deliveries["h"]!))

        // Ten members on ten different relays, four connections allowed: six are over budget, said so.
        let ten = (0..<10).map { DeliveryRelayChoice.Recipient(pubkey: "m\($0)", inbox: [r(100 + $0)]) }
        let bounded = DeliveryRelayChoice.plan(ten, ours: [], blocked: [], budget: .init(extraConnections: 4), now: 1)
        XCTAssertEqual(bounded.extra.count, 4)
        XCTAssertEqual(bounded.unreached.values.filter { $0 == .overBudget }.count, 6)
    }

    func testBlockedRelaysAreNeverChosenAndOurOwnReachWithoutAConnection() {
        let members = [
            DeliveryRelayChoice.Recipient(pubkey: "a", inbox: [r(1), r(2)]),
            .init(pubkey: "b", inbox: [r(1)]),
            .init(pubkey: "c", inbox: [r(3), r(7)]),
            .init(pubkey: "d"),
            .init(pubkey: "e", inbox: [], readRelays: []),
        ]
        let plan = DeliveryRelayChoice.plan(members, ours: [r(7)], blocked: [r(1)], now: 1)
        XCTAssertFalse(plan.extra.contains { $0.relay == r(1) }, "a blocked relay is never dialled")
        XCTAssertEqual(plan.deliveries["a"], r(2))
        XCTAssertEqual(plan.unreached["b"], .allBlocked)
        XCTAssertEqual(plan.onOurs["c"], r(7), "reached where we publish anyway: no extra connection")
        XCTAssertNil(plan.deliveries["c"])
        XCTAssertEqual(plan.unreached["d"], .noList)
        XCTAssertEqual(plan.unreached["e"], .noList)
        XCTAssertEqual(plan.extra.map(\.relay), [r(2)])
    }

    func testAStaleListIsUsedAndFlaggedAndJunkURLsAreSkipped() {
        let members = [
            DeliveryRelayChoice.Recipient(pubkey: "old", inbox: ["not a url", "http://r.example", r(1)], listedAt: 0),
            .init(pubkey: "new", inbox: [r(1)], listedAt: 8 * 86_400),
        ]
        let plan = DeliveryRelayChoice.plan(members, ours: [], blocked: [], now: 8 * 86_400 + 1)
        XCTAssertEqual(plan.stale, ["old"])
        XCTAssertEqual(plan.deliveries, ["old": r(1), "new": r(1)])
        // An inbox list wins over read relays even when both exist.
        let both = DeliveryRelayChoice.plan([.init(pubkey: "p", inbox: [r(2)], readRelays: [r(3)])], ours: [], blocked: [], now: 1)
        XCTAssertEqual(both.deliveries["p"], r(2))
    }
}

/// What a member's delivery is called and how it is stored.
final class MemberDeliveryTests: XCTestCase {
    func testEveryOutcomeIsStoredAndReadBack() {
        for outcome in [MemberDelivery.pending, .inbox(relay: "wss://a.example"), .sharedOnly, .notDelivered(why: "wss://b: refused: no")] {
            XCTAssertEqual(MemberDelivery(stored: outcome.stored), outcome)
        }
        XCTAssertNil(MemberDelivery(stored: "inbox"), "a damaged record is not an outcome")
        XCTAssertNil(MemberDelivery(stored: "delivered\nwss://x"))
        XCTAssertTrue(MemberDelivery.inbox(relay: "wss://a").isDelivered)
        XCTAssertFalse(MemberDelivery.sharedOnly.isDelivered, "on shared relays only is never counted as delivered")
        XCTAssertEqual(MemberDelivery.notDelivered(why: "x").state, "not_delivered")
    }

    func testAdviceSaysWhatToDo() {
        func advice(_ source: DeliveryRelayChoice.Source?, relays: [String] = [], blocked: [String] = [], answering: [String] = [],
                    overlap: [String] = [], last: MemberDelivery? = nil) -> String {
            DeliveryAdvice.words(.init(source: source, relays: relays, blocked: blocked, answering: answering, overlap: overlap, lastDelivery: last))
        }
        XCTAssertTrue(advice(nil).contains("publish no inbox relays"))
        XCTAssertTrue(advice(.inbox, relays: ["wss://a"], blocked: ["wss://a"]).contains("unblock"))
        XCTAssertTrue(advice(.inbox, relays: ["wss://a"]).contains("None of their inbox relays answers"))
        XCTAssertTrue(advice(.inbox, relays: ["wss://a"], answering: ["wss://a"], last: .notDelivered(why: "too large")).contains("did not reach"))
        XCTAssertEqual(advice(.inbox, relays: ["wss://a"], answering: ["wss://a"]), "Nothing to do: their inbox relays answer.")
        XCTAssertTrue(advice(.readRelays, relays: ["wss://a"], answering: ["wss://a"]).contains("kind 10050"))
    }
}
