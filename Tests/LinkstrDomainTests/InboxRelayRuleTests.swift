import LinkstrDomain
import XCTest

/// Where someone's gift wraps go: their kind 10050, else their kind 10002 read relays (the choice is
/// `DeliveryRelayChoiceTests`').
final class InboxRelayRuleTests: XCTestCase {
    func testRelaysFromBothListKinds() {
        XCTAssertEqual(InboxRelayRule.relays(kind: 10050, tags: [["relay", "wss://inbox.example"], ["relay", "WSS://Inbox.Example/"],
                                                                 ["r", "wss://not-this.example"], ["relay", "https://web.example"],
                                                                 ["relay", "javascript:alert(1)"], ["relay"], ["relay", "wss://two.example"]]),
                       ["wss://inbox.example", "wss://two.example"])
        XCTAssertEqual(InboxRelayRule.relays(kind: 10002, tags: [["r", "wss://both.example"], ["r", "wss://write.example", "write"],
                                                                 ["r", "wss://read.example", "read"], ["relay", "wss://no.example"]]),
                       ["wss://both.example", "wss://read.example"], "write-only relays are where they post, not where they read")
        let many = (0..<30).map { ["relay", "wss://r\($0).example"] }
        XCTAssertEqual(InboxRelayRule.relays(kind: 10050, tags: many).count, InboxRelayRule.maxRelaysKept)
        XCTAssertEqual(InboxRelayRule.relays(kind: 3, tags: [["relay", "wss://x.example"]]), [])
    }

    func testNewestListWinsAndNothingFromTheFuture() {
        let stored = LWWStamp(createdAt: 100, eventID: "bb")
        XCTAssertTrue(InboxRelayRule.shouldStore(createdAt: 50, eventID: "aa", current: nil, now: 100))
        XCTAssertFalse(InboxRelayRule.shouldStore(createdAt: 99, eventID: "ff", current: stored, now: 100))
        XCTAssertFalse(InboxRelayRule.shouldStore(createdAt: 100, eventID: "bb", current: stored, now: 100))
        XCTAssertTrue(InboxRelayRule.shouldStore(createdAt: 100, eventID: "cc", current: stored, now: 100))
        XCTAssertFalse(InboxRelayRule.shouldStore(createdAt: 100 + 601, eventID: "cc", current: nil, now: 100))
    }
}
