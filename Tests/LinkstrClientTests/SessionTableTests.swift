import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrClient

/// News pushes the rows it touched: the list made from the table in memory is the list a full read
/// makes, after posts, a new session, a session deleted and a stranger's request, with one full read.
final class SessionTableTests: XCTestCase {
    let key = SecretKey.generate()
    let friend = SecretKey.generate().publicKey.hex, stranger = SecretKey.generate().publicKey.hex

    func testTouchedRowsMergeIntoTheListAFullReadWouldMake() throws {
        let account = try AccountSession(key, in: try LocalStore(), relayOverrides: [])
        let store = account.store, me = key.publicKey.hex, policy = SessionRequestPolicy()
        try store.replaceContacts([friend], stamp: LWWStamp(createdAt: 2, eventID: "c1"))
        _ = try store.ingest([MessageFactory.create("a", by: me, members: [me, friend], at: 10, name: "Ours")], now: 10)
        _ = try store.ingest([MessageFactory.create("b", by: friend, members: [friend, me], at: 11, name: "Friend's")], now: 11)
        let actions = account.actions(requests: policy)
        XCTAssertNil(try account.sessions.refresh(["a"], .active, policy: policy), "nothing to merge into before the first read")
        XCTAssertEqual(try account.sessions.reload(.active, policy: policy), try actions.sessionListing(.active))

        func news(_ messages: [InboundMessage], at now: Int64, list: SessionList = .active) throws {
            let touched = try store.ingest(messages, now: now).reduce(into: Set<String>()) { $0.formUnion($1.touchedSessions) }
            XCTAssertFalse(touched.isEmpty)
            let pushed = try XCTUnwrap(try account.sessions.refresh(touched, list, policy: policy))
            XCTAssertEqual(pushed, try actions.sessionListing(list), "after \(touched.sorted())")
        }
        // A post moves "a" to the top, unread.
        try news([MessageFactory.root("a", by: friend, at: 20, id: "p1", source: .live)], at: 20)
        // A new session, and a stranger's request (counted, in the requests list).
        try news([MessageFactory.create("c", by: friend, members: [friend, me], at: 21, name: "New")], at: 21)
        try news([MessageFactory.create("s", by: stranger, members: [stranger, me], at: 22, name: "Free coins")], at: 22, list: .requests)
        // The creator deletes "b": it leaves the list.
        try news([MessageFactory.sessionDelete("b", by: friend, at: 23)], at: 23)
        XCTAssertFalse(try account.sessions.refresh([], .active, policy: policy)!.rows.contains { $0.id == "b" })
        XCTAssertEqual(account.sessions.reads.full, 1, "news never read every session")
        XCTAssertEqual(account.sessions.reads.partial, 5)
    }
}
