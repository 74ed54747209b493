import LinkstrDomain
import XCTest

/// Kind 10006 read and edited (issue 30): other tags and the private content kept, each relay once,
/// removal whatever its spelling, the new list dated after the old.
final class BlockedRelayListTests: XCTestCase {
    func testReadingEditingAndAllowing() {
        let a = RelayURL.normalized("wss://spam.example")!, b = RelayURL.normalized("wss://other.example")!
        let tags = [["relay", "wss://spam.example"], ["relay", "not a relay"], ["t", "mine"], ["relay", a], ["relay", "wss://other.example"]]
        XCTAssertEqual(BlockedRelayList.relays(tags: tags), [a, b])

        let added = BlockedRelayList.edit(current: (tags, "c2VjcmV0", 50), block: "wss://new.example", now: 40)
        XCTAssertEqual(added.kind, 10006)
        XCTAssertEqual(added.createdAt, 51, "after the list it replaces, even with a slow clock")
        XCTAssertEqual(added.content, "c2VjcmV0")
        XCTAssertEqual(added.tags.prefix(tags.count).map { $0 }, tags, "everything there stays as it was")
        XCTAssertEqual(added.tags.last, ["relay", RelayURL.normalized("wss://new.example")!])
        XCTAssertEqual(BlockedRelayList.edit(current: (tags, "", 1), block: "wss://spam.example", now: 9).tags, tags, "blocked once")

        let removed = BlockedRelayList.edit(current: (tags, "", 1), unblock: "WSS://SPAM.example/", now: 9)
        XCTAssertEqual(BlockedRelayList.relays(tags: removed.tags), [b])
        XCTAssertTrue(removed.tags.contains(["t", "mine"]))

        XCTAssertFalse(BlockedRelayList.allows("wss://spam.example/", blocked: [a]))
        XCTAssertTrue(BlockedRelayList.allows("wss://fine.example", blocked: [a]))
        XCTAssertFalse(BlockedRelayList.allows("http://spam.example", blocked: []), "not a relay URL: never dialled")
        let many = (0..<2_000).map { ["relay", "wss://r\($0).example"] }
        XCTAssertEqual(BlockedRelayList.relays(tags: many).count, BlockedRelayList.maxRelays)
    }
}
