import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// Our own follow list (wire 2026 §7.1): NIP-01 ordering, tags kept verbatim, dated after the last.
final class FollowListRuleTests: XCTestCase {
    typealias F = MessageFactory
    let hint = "wss://relay.example.com"

    func testNIP01OrderingTheNewerSecondThenTheLowerIdAndTheCurrentEventAppliesAgain() {
        let current = LWWStamp(createdAt: 100, eventID: "5")
        XCTAssertTrue(FollowListRule.shouldApply(LWWStamp(createdAt: 101, eventID: "9"), over: current))
        XCTAssertFalse(FollowListRule.shouldApply(LWWStamp(createdAt: 99, eventID: "0"), over: current))
        XCTAssertTrue(FollowListRule.shouldApply(LWWStamp(createdAt: 100, eventID: "4"), over: current), "a tie keeps the lowest id")
        XCTAssertFalse(FollowListRule.shouldApply(LWWStamp(createdAt: 100, eventID: "6"), over: current))
        XCTAssertTrue(FollowListRule.shouldApply(current, over: current), "the exact current list restores its tags")
        XCTAssertTrue(FollowListRule.shouldApply(current, over: nil))
    }

    func testAnEditKeepsOtherTagsRelayHintsAndPetnamesAndAppendsNewKeysInOrder() {
        let base: [[String]] = [["p", F.bob, hint, "bobby"], ["t", "friends"], ["p", F.carol], ["p", F.alice, "", "al"], ["p", F.bob],
                                ["p", "not-a-key"]]
        let tags = FollowListRule.tags(base: base, keeping: [F.bob, F.alice, F.mallory, F.me])
        XCTAssertEqual(tags, [["p", F.bob, hint, "bobby"], ["t", "friends"], ["p", F.alice, "", "al"]] + [F.mallory, F.me].sorted().map { ["p", $0] },
                       "carol removed, bob's repeat dropped, a broken p tag dropped, new keys ascending")
        XCTAssertEqual(FollowListRule.keys(tags), [F.bob, F.alice] + [F.mallory, F.me].sorted())
        XCTAssertEqual(FollowListRule.tags(base: [["p", F.bob.uppercased(), hint]], keeping: [F.bob]), [["p", F.bob.uppercased(), hint]],
                       "a key written another way is the same key: its tag stays as it was")
    }

    func testANewListIsDatedStrictlyAfterTheOneItReplaces() {
        XCTAssertEqual(FollowListRule.publicationTime(now: 500, after: LWWStamp(createdAt: 100, eventID: "a")), 500)
        XCTAssertEqual(FollowListRule.publicationTime(now: 500, after: LWWStamp(createdAt: 500, eventID: "a")), 501)
        XCTAssertEqual(FollowListRule.publicationTime(now: 500, after: LWWStamp(createdAt: 900, eventID: "a")), 901, "a clock behind another device's")
        XCTAssertEqual(FollowListRule.publicationTime(now: 500, after: nil), 500)
    }

    func testTheReferenceAppliesOwnListsInNIP01Order() throws {
        var state = AccountState(me: F.me)
        XCTAssertEqual(try state.ingestFollowList(author: F.me, createdAt: 10, eventID: "b", tags: [["p", F.bob]]), .applied)
        XCTAssertEqual(try state.ingestFollowList(author: F.me, createdAt: 10, eventID: "c", tags: [["p", F.carol]]), .stale)
        XCTAssertEqual(try state.ingestFollowList(author: F.me, createdAt: 10, eventID: "a", tags: [["p", F.alice]]), .applied)
        XCTAssertEqual(state.contacts().map(\.pubkey), [F.alice])
        XCTAssertEqual(try state.ingestFollowList(author: F.bob, createdAt: 99, eventID: "0", tags: []), .notFromSelf)
    }
}
