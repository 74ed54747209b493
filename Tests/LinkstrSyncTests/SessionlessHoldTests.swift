import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import XCTest

@testable import LinkstrSync

/// Posts of sessions not met yet wait in memory for their session while a history is read, with their
/// wraps (so nothing is recorded as processed before it is written), and leave with it or at the end.
final class SessionlessHoldTests: XCTestCase {
    typealias F = MessageFactory
    let me = F.me, alice = F.alice

    func wraps(_ messages: [InboundMessage]) -> [ProcessedWrap] {
        messages.flatMap { m in m.wrapIDs.map { ProcessedWrap(id: $0, createdAt: m.createdAt) } }
    }

    func testPostsWaitForTheirSessionAndLeaveWithItsCreate() {
        var hold = SessionlessHold()
        let post1 = F.root("s1", by: alice, at: 10, url: "https://example.com/1")
        let post2 = F.root("s1", by: alice, at: 11, url: "https://example.com/2")
        let other = F.root("s2", by: alice, at: 12, url: "https://example.com/3")
        let junkWrap = ProcessedWrap(id: "not-linkstr", createdAt: 5)  // opened, but no message of ours
        var asked = [String]()
        let first = hold.route([post1, other], wraps: wraps([post1, other]) + [junkWrap], holding: true) { sid in
            asked.append(sid)
            return sid == "s2"
        }
        XCTAssertEqual(first.messages, [other], "a post of a session the store has passes")
        XCTAssertEqual(first.wraps.map(\.id), (wraps([other]) + [junkWrap]).map(\.id), "the held post's wrap is kept back with it")
        XCTAssertEqual(hold.count, 1)
        XCTAssertEqual(Set(asked), ["s1", "s2"])

        let second = hold.route([post2], wraps: wraps([post2]), holding: true) { _ in false }
        XCTAssertTrue(second.messages.isEmpty)
        XCTAssertTrue(second.wraps.isEmpty)
        XCTAssertEqual(hold.count, 2)

        let create = F.create("s1", by: alice, members: [alice, me], at: 1)
        let third = hold.route([create], wraps: wraps([create]), holding: true) { _ in XCTFail("a create says it itself"); return false }
        XCTAssertEqual(third.messages.map(\.rumorID), [create, post1, post2].map(\.rumorID), "the create first, then what waited for it")
        XCTAssertEqual(Set(third.wraps.map(\.id)), Set(wraps([create, post1, post2]).map(\.id)))
        XCTAssertEqual(third.wraps.first { $0.id == post1.wrapIDs[0] }?.createdAt, 10, "each wrap keeps its date (NIP-77's local set)")
        XCTAssertTrue(hold.isEmpty)

        // The session is known now: its later posts pass without asking the store.
        let post3 = F.root("s1", by: alice, at: 13, url: "https://example.com/4")
        XCTAssertEqual(hold.route([post3], wraps: wraps([post3]), holding: true) { _ in XCTFail("known"); return false }.messages, [post3])
    }

    func testAPostAndItsSessionInOneBatchPassTogether() {
        var hold = SessionlessHold()
        let create = F.create("s1", by: alice, members: [alice, me], at: 1)
        let post = F.root("s1", by: alice, at: 10)
        let out = hold.route([post, create], wraps: wraps([post, create]), holding: true) { _ in false }
        XCTAssertEqual(Set(out.messages.map(\.rumorID)), [post.rumorID, create.rumorID])
        XCTAssertEqual(out.wraps.count, 2)
        XCTAssertTrue(hold.isEmpty)
    }

    func testNothingIsHeldOnceTheHistoryIsSettledOrTheHoldIsFull() {
        var hold = SessionlessHold(capacity: 2)
        let posts = (0..<4).map { F.root("s1", by: alice, at: Int64(10 + $0), url: "https://example.com/\($0)") }
        let settled = hold.route([posts[0]], wraps: wraps([posts[0]]), holding: false) { _ in false }
        XCTAssertEqual(settled.messages, [posts[0]], "after the history: staged in the store, as before")
        let full = hold.route(Array(posts[1...]), wraps: wraps(Array(posts[1...])), holding: true) { _ in false }
        XCTAssertEqual(full.messages, [posts[3]], "past the capacity the store stages them")
        XCTAssertEqual(full.wraps.map(\.id), posts[3].wrapIDs)
        XCTAssertEqual(hold.count, 2)

        let all = hold.releaseAll()
        XCTAssertEqual(all.messages, [posts[1], posts[2]])
        XCTAssertEqual(all.wraps.map(\.id), wraps([posts[1], posts[2]]).map(\.id))
        XCTAssertTrue(hold.isEmpty)
        XCTAssertTrue(hold.releaseAll().messages.isEmpty)
    }

    func testMadeUpSessionsDoNotGrowWhatIsRemembered() {
        var hold = SessionlessHold()
        let many = (0...SessionlessHold.knownLimit).map { F.create("made-up-\($0)", by: alice, members: [alice], at: 1) }
        _ = hold.route(many, wraps: [], holding: true) { _ in false }
        // Past the limit the cache is emptied: the store is asked again, and answers.
        var asked = 0
        let post = F.root("made-up-0", by: alice, at: 10)
        XCTAssertEqual(hold.route([post], wraps: wraps([post]), holding: true) { _ in asked += 1; return true }.messages, [post])
        XCTAssertEqual(asked, 1)
    }

    func testTheSameWrapFromASecondRelayIsHeldOnce() {
        var hold = SessionlessHold()
        let post = F.root("s1", by: alice, at: 10)
        _ = hold.route([post], wraps: wraps([post]), holding: true) { _ in false }
        let again = hold.route([post], wraps: wraps([post]), holding: true) { _ in false }
        XCTAssertTrue(again.messages.isEmpty)
        XCTAssertTrue(again.wraps.isEmpty, "its wrap is recorded once, with the held copy")
        XCTAssertEqual(hold.count, 1)
        XCTAssertTrue(hold.isHolding(wrap: post.wrapIDs[0]), "the engine opens it no second time")
        let out = hold.route([F.members("s1", by: alice, members: [alice, me], at: 2)], wraps: [], holding: true) { _ in false }
        XCTAssertEqual(out.messages.count, 2, "a members snapshot also says the session exists")
        XCTAssertEqual(out.wraps.map(\.id), post.wrapIDs)
        XCTAssertFalse(hold.isHolding(wrap: post.wrapIDs[0]))
    }
}
