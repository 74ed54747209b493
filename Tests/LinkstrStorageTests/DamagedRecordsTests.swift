import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

/// Issue 32 (9): one damaged sealed field made its whole session unreadable. Now the row is left out
/// and counted, the rest reads, `repairDamagedRows` drops it and lets the next sync bring it back, and a
/// damaged data key is said in words.
final class DamagedRecordsTests: StorageTestCase {
    let alice = SecretKey.generate(), bob = SecretKey.generate()

    /// A session of alice and bob with three posts by bob and a reaction by alice; bob is a contact.
    private func populate(_ store: AccountStore) throws -> [InboundMessage] {
        let a = alice.publicKey.hex, b = bob.publicKey.hex
        let msgs = [
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .sessionCreate, sessionName: "Films", memberPubkeys: [a, b]), by: a, at: 10, id: "c1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/one", note: "first"), by: b, at: 20, id: "p1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/two", note: "second"), by: b, at: 21, id: "p2"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/three", note: "third"), by: b, at: 22, id: "p3"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p3", kind: .reaction, emoji: "🔥", reactionActive: true), by: a, at: 23, id: "r1"),
        ]
        _ = try store.ingest(msgs, processedWraps: msgs.flatMap(\.wrapIDs), now: 30)
        XCTAssertEqual(try store.ingestFollowList(author: a, createdAt: 5, eventID: "f1", tags: [["p", b]], now: 30), .applied)
        return msgs
    }

    /// Overwrites one sealed value with random bytes of the same length, as a bad sector would.
    private func damage(_ local: LocalStore, _ table: String, _ column: String, where condition: String) throws {
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM \(table) WHERE \(condition) AND \(column) IS NOT NULL").int, 1)
        try local.db.run("UPDATE \(table) SET \(column) = randomblob(length(\(column))) WHERE \(condition)")
    }

    private func processedWrapIDs(_ local: LocalStore) throws -> Set<String> {
        Set(try local.db.query("SELECT wrap_id FROM processed_wraps").compactMap { $0["wrap_id"].text })
    }

    func testADamagedPostIsLeftOutTheRestReadsAndARepairLetsItComeBack() throws {
        let local = try LocalStore(paths: paths)
        let msgs = try populate(try local.account(alice, now: 1))
        try damage(local, "posts", "note_enc", where: "post_id = 'p2'")

        let store = try LocalStore(paths: paths).account(alice, now: 2)
        XCTAssertEqual(try store.postPage(in: "S1").map(\.id), ["p3", "p1"], "the other posts read")
        XCTAssertEqual(try store.sessionSummaries().map(\.id), ["S1"])
        XCTAssertEqual(try store.searchDocuments().map(\.postID).sorted(), ["p1", "p3"])
        XCTAssertNil(try store.postView("p2"))
        XCTAssertEqual(try store.postViews(["p1", "p2"]).keys.sorted(), ["p1"])
        XCTAssertEqual(store.damagedRowsSeen, 1, "one row, counted once however often it is read")
        XCTAssertEqual(try store.findDamagedRows().rows, ["posts": 1])

        let report = try store.repairDamagedRows()
        XCTAssertEqual(report.rows, ["posts": 1])
        XCTAssertFalse(report.historyReread, "the post's own wraps are enough")
        XCTAssertFalse(try processedWrapIDs(local).contains("wrap-p2"), "its wrap is read again by the next sync")
        XCTAssertTrue(try processedWrapIDs(local).contains("wrap-p1"))
        XCTAssertEqual(try store.findDamagedRows().total, 0)

        // The next sync brings the same wrap: the post is back, whole.
        _ = try store.ingest(msgs.filter { $0.rumorID == "p2" }, processedWraps: ["wrap-p2"], now: 40)
        XCTAssertEqual(try store.postPage(in: "S1").map(\.id), ["p3", "p2", "p1"])
        XCTAssertEqual(try store.postView("p2")?.post.note, "second")
    }

    func testADamagedPostIsOverwrittenWhenItArrivesAgain() throws {
        let local = try LocalStore(paths: paths)
        let msgs = try populate(try local.account(alice, now: 1))
        try damage(local, "posts", "url_enc", where: "post_id = 'p1'")
        let store = try LocalStore(paths: paths).account(alice, now: 2)
        // A device that receives the post again (another relay, a restore) heals the row without a repair.
        _ = try store.ingest(msgs.filter { $0.rumorID == "p1" }, processedWraps: ["wrap-p1"], now: 40)
        XCTAssertEqual(try store.postView("p1")?.post.url, "https://example.com/one")
        XCTAssertEqual(try store.findDamagedRows().total, 0)
    }

    func testADamagedReactionSnapshotOrContactCostsOnlyItself() throws {
        let local = try LocalStore(paths: paths)
        let original = try local.account(alice, now: 1)
        _ = try populate(original)
        try original.setRequestDecision("S1", .declined)
        try damage(local, "reactions", "emoji_enc", where: "rumor_id = 'r1'")
        try damage(local, "contacts", "pubkey_enc", where: "1")
        try damage(local, "sessions", "name_enc", where: "session_id = 'S1'")

        let store = try LocalStore(paths: paths).account(alice, now: 2)
        XCTAssertEqual(try store.postPage(in: "S1").map(\.id), ["p3", "p2", "p1"], "posts of a session whose row is damaged still read")
        XCTAssertEqual(try store.postView("p3")?.reactions, [], "the reaction is left out, its post is not")
        XCTAssertEqual(try store.contacts(), [])
        XCTAssertEqual(try store.sessionSummaries(), [], "the damaged list row is left out")
        XCTAssertEqual(store.damagedRowsSeen, 3)

        let report = try store.repairDamagedRows()
        XCTAssertEqual(report.rows, ["reactions": 1, "contacts": 1, "sessions": 1])
        XCTAssertTrue(report.historyReread, "a reaction carries no wrap id: the history is read again")
        XCTAssertEqual(try processedWrapIDs(local), [])
        XCTAssertEqual(try store.sessionSummaries().map(\.name), ["Films"], "the list row is rewritten from its snapshots")
        XCTAssertEqual(try store.sessionSummaries().first?.decision, .declined, "with the user's decision kept")
        XCTAssertEqual(try local.db.scalar("SELECT follow_watermark_at FROM account_state"), .null,
                       "the follow list is taken from relays again, not republished short")
        XCTAssertEqual(try store.findDamagedRows().total, 0)
    }

    func testADamagedSnapshotLeavesTheSessionOutUntilRepaired() throws {
        let local = try LocalStore(paths: paths)
        let msgs = try populate(try local.account(alice, now: 1))
        try damage(local, "snapshots", "members_enc", where: "rumor_id = 'c1'")
        let store = try LocalStore(paths: paths).account(alice, now: 2)
        XCTAssertNil(try store.session("S1"))
        XCTAssertEqual(try store.findDamagedRows().rows, ["snapshots": 1])
        XCTAssertTrue(try store.repairDamagedRows().historyReread)
        // History read again: everything comes back.
        _ = try store.ingest(msgs, processedWraps: msgs.flatMap(\.wrapIDs), now: 50)
        XCTAssertEqual(try store.session("S1")?.derived.name, "Films")
        XCTAssertEqual(try store.postPage(in: "S1").count, 3)
    }

    func testADamagedDataKeyIsSaidInWordsAndTheAccountCanStartAfresh() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        _ = try populate(store)
        XCTAssertEqual(try store.addRelay("ws://127.0.0.1:7777", now: 1), .success("ws://127.0.0.1:7777"))
        for url in try store.relays(now: 1).map(\.url) where url.hasPrefix("wss://") { XCTAssertTrue(try store.removeRelay(url)) }
        let relays = try store.relays(now: 1).map(\.url)
        XCTAssertEqual(relays, ["ws://127.0.0.1:7777"])
        for damaged in ["randomblob(length(wrapped_data_key))", "'text, not a key'", "x''"] {
            try local.db.run("UPDATE accounts SET wrapped_data_key = \(damaged)")
            XCTAssertThrowsError(try LocalStore(paths: paths).account(alice, now: 2)) { error in
                let words = String(describing: error)
                XCTAssertTrue(words.contains("data key on this device is damaged") && words.contains("linkstr repair --rebuild"), words)
                XCTAssertFalse(words.contains("UNIQUE"), words)
            }
            XCTAssertFalse(try local.dataKeyOpens(alice))
        }
        let fresh = try local.rebuildAccount(alice, now: 3)
        XCTAssertTrue(try local.dataKeyOpens(alice))
        XCTAssertEqual(try fresh.sessionSummaries(), [])
        XCTAssertEqual(try fresh.relays(now: 3).map(\.url), relays, "the relay list is kept")
        XCTAssertEqual(try LocalStore(paths: paths).account(alice, now: 4).processedWrapCount(), 0)
        XCTAssertThrowsError(try local.rebuildAccount(alice, now: 5), "a key that opens is never thrown away")
    }
}
