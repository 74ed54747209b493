import LinkstrDomain
import XCTest

/// Our kind 10002, edited keeping other clients' entries: ours added, only what we added taken out.
final class OwnRelayListTests: XCTestCase {
    func testAFirstListNamesOurRelays() throws {
        let next = try XCTUnwrap(OwnRelayList.next(current: nil, ours: ["wss://a.example", "WSS://B.example/"], now: 100))
        XCTAssertEqual(next.template.tags, [["r", "wss://a.example"], ["r", "wss://b.example"]])
        XCTAssertEqual(next.template.kind, 10002)
        XCTAssertEqual(next.addedByUs, ["wss://a.example", "wss://b.example"])
    }

    func testOtherEntriesAreKeptAndNothingIsPublishedWhenItIsCurrent() throws {
        let theirs = OwnRelayList.Current(tags: [["r", "wss://damus.example", "write"], ["r", "wss://a.example"], ["alt", "x"]],
                                          content: "", createdAt: 500, addedByUs: [])
        XCTAssertNil(OwnRelayList.next(current: theirs, ours: ["wss://a.example"], now: 100), "already names ours")
        let next = try XCTUnwrap(OwnRelayList.next(current: theirs, ours: ["wss://a.example", "wss://c.example"], now: 100))
        XCTAssertEqual(next.template.tags, theirs.tags + [["r", "wss://c.example"]])
        XCTAssertEqual(next.template.createdAt, 501, "dated after the list it replaces")
        XCTAssertEqual(next.addedByUs, ["wss://c.example"])
    }

    func testOnlyWhatWeAddedIsTakenOut() throws {
        let current = OwnRelayList.Current(tags: [["r", "wss://theirs.example"], ["r", "wss://c.example"]], content: "", createdAt: 10,
                                           addedByUs: ["wss://c.example"])
        let next = try XCTUnwrap(OwnRelayList.next(current: current, ours: ["wss://d.example"], now: 100))
        XCTAssertEqual(next.template.tags, [["r", "wss://theirs.example"], ["r", "wss://d.example"]])
        XCTAssertEqual(next.addedByUs, ["wss://d.example"])
    }

    func testAWriteOnlyEntryOfOursBecomesReadAndWrite() throws {
        let current = OwnRelayList.Current(tags: [["r", "wss://a.example", "write"]], content: "", createdAt: 10, addedByUs: [])
        let next = try XCTUnwrap(OwnRelayList.next(current: current, ours: ["wss://a.example"], now: 100))
        XCTAssertEqual(next.template.tags, [["r", "wss://a.example"]])
        XCTAssertEqual(OwnRelayList.readRelays(next.template.tags), ["wss://a.example"])
    }
}
