import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Restoring and exporting `.linkstrbackup` files over the real SQLite store (wire 2026 §8).
final class BackupStorageTests: StorageTestCase {
    let alice = SecretKey.generate(), bob = SecretKey.generate(), carol = SecretKey.generate()

    /// Sessions, posts (one read), a reaction, a deleted post, a staged reaction, contacts with an alias
    /// (its preference pending), an archived session (its preference published), profiles, relays.
    private func populate(_ store: AccountStore) throws {
        let m = alice.publicKey.hex, b = bob.publicKey.hex, c = carol.publicKey.hex
        let msgs = [
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .sessionCreate, sessionName: "Secret club", memberPubkeys: [m, b]), by: m, at: 10, id: "c1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .sessionMembers, sessionName: "Secret club", memberPubkeys: [m, b, c]), by: m, at: 15, id: "m1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/secret-film", note: "a very private note"), by: b, at: 20, id: "p1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/carol"), by: c, at: 21, id: "p2"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p1", kind: .reaction, emoji: "👀", reactionActive: true), by: c, at: 22, id: "r1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/gone"), by: b, at: 23, id: "p3"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p3", kind: .rootDelete), by: b, at: 24, id: "d1"),
            message(LinkstrPayload(conversationID: "S2", rootID: "", kind: .sessionCreate, sessionName: "Bob's", memberPubkeys: [b, m]), by: b, at: 11, id: "c2"),
            message(LinkstrPayload(conversationID: "S2", rootID: "", kind: .root, url: "https://example.com/bobs"), by: b, at: 30, id: "q1"),
        ]
        _ = try store.ingest(msgs, processedWraps: msgs.flatMap(\.wrapIDs), now: 40)
        XCTAssertEqual(try store.ingestFollowList(author: m, createdAt: 5, eventID: "f1", tags: [["p", b], ["p", c, "wss://hint"]], now: 40), .applied)
        try store.markRead(postID: "p1", now: 31)
        let alias = PrivatePreference.alias(pubkey: b, name: "Bobby Secret-Alias")
        try store.savePreference(alias, event: try alias.event(secretKey: alice, createdAt: 41))
        let archive = PrivatePreference.archive(sessionID: "S2", archived: true)
        XCTAssertTrue(try store.receivePreference(archive, event: try archive.event(secretKey: alice, createdAt: 42)))
        try store.applyProfile(b, .apply(name: "Bob Profile-Secret", stamp: LWWStamp(createdAt: 5, eventID: "e1")))
        try store.setOwnProfile(content: #"{"name":"Alice","about":"x"}"#, stamp: LWWStamp(createdAt: 6, eventID: "own"))
        try store.resetRelays(now: 1, to: ["ws://127.0.0.1:7001", "wss://relay.example"])
        XCTAssertTrue(try store.setRelayEnabled("wss://relay.example", false))
    }

    private func exported(_ store: AccountStore) throws -> Data {
        try BackupExport.file(try store.backupContents(secretKey: alice), now: 100).encoded()
    }

    func testAnExportRestoresIntoAnotherDeviceAsTheSameAccount() throws {
        let home = try LocalStore(paths: paths).account(alice, now: 1)
        try populate(home)
        let file = try exported(home)

        let other = DataPaths.resolve(home: tmp.appendingPathComponent("other").path)
        let restored = try LocalStore(paths: other).account(alice, now: 2)
        let outcome = try restored.restoreBackup(try BackupValidation.validate(file), now: 200)
        XCTAssertEqual(outcome.sessionsAdded, 2)
        XCTAssertEqual(outcome.postsAdded, 3)
        XCTAssertEqual(try restored.visibleState(), try home.visibleState())
        XCTAssertEqual(try restored.sessionSummaries(archived: true).map(\.id), ["S2"])
        XCTAssertEqual(try restored.contacts().first { $0.pubkey == bob.publicKey.hex }?.alias, "Bobby Secret-Alias")
        XCTAssertEqual(try restored.pendingPreferenceEvents().count, 1, "the alias no relay accepted yet is still to publish")
        XCTAssertEqual(try restored.profileNames(), try home.profileNames())
        XCTAssertEqual(try restored.ownProfile()?.stamp, LWWStamp(createdAt: 6, eventID: "own"))
        XCTAssertEqual(try restored.ownFollowList().tags, [["p", bob.publicKey.hex], ["p", carol.publicKey.hex, "wss://hint"]])
        XCTAssertEqual(try restored.relays(now: 300), [StoredRelay(url: "wss://relay.example", enabled: false), StoredRelay(url: "ws://127.0.0.1:7001", enabled: true)].sorted { $0.url < $1.url })
        XCTAssertEqual(try restored.alreadyProcessed(["wrap-p1", "wrap-p2", "wrap-c1"]), ["wrap-p1", "wrap-p2"], "the wraps of restored posts are not opened again")
        XCTAssertEqual(try restored.postView("p1")?.unread, false)
        XCTAssertEqual(try restored.postView("p2")?.unread, true)
        // Late messages meet the restored tombstone and timeline.
        _ = try restored.ingest([message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/gone"), by: bob.publicKey.hex, at: 23, id: "p3")], now: 300)
        XCTAssertNil(try restored.postView("p3"))
        // Exporting the restored account gives the same file (but when the account was first opened here).
        var again = try IOSBackupFile.decode(try exported(restored)), first = try IOSBackupFile.decode(file)
        again.account?.createdAt = Date(unixSeconds: 0)
        first.account?.createdAt = Date(unixSeconds: 0)
        XCTAssertEqual(again, first)
    }

    func testAConflictOrAFailedWriteLeavesTheStoreAsItWas() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        try populate(store)
        var file = try BackupValidation.validate(try exported(store)).file
        file.posts[0].note = "another note"
        let before = try store.visibleState()
        let counts = try local.db.scalar("SELECT (SELECT count(*) FROM snapshots) || '/' || (SELECT count(*) FROM relays) || '/' || (SELECT count(*) FROM processed_wraps)").text
        XCTAssertThrowsError(try store.restoreBackup(try BackupValidation.validate(file), now: 200)) { e in
            guard case .conflict = e as? BackupError else { return XCTFail("\(e)") }
        }
        XCTAssertEqual(try store.visibleState(), before)
        XCTAssertEqual(try local.db.scalar("SELECT (SELECT count(*) FROM snapshots) || '/' || (SELECT count(*) FROM relays) || '/' || (SELECT count(*) FROM processed_wraps)").text, counts)
        // Another account's backup is refused before anything is read.
        let other = try local.account(bob, now: 1)
        XCTAssertThrowsError(try other.restoreBackup(try BackupValidation.validate(try exported(store)), now: 200)) {
            XCTAssertEqual($0 as? BackupError, .conflict("the backup belongs to another account."))
        }
    }

    func testRestoredContentIsSealedAtRest() throws {
        // The local store first: a directory is adopted only while it is empty or already linkstr's.
        let local = try LocalStore(paths: paths)
        let source = try LocalStore(paths: DataPaths.resolve(home: tmp.appendingPathComponent("src").path)).account(alice, now: 1)
        try populate(source)
        _ = try local.account(alice, now: 1).restoreBackup(try BackupValidation.validate(try exported(source)), now: 200)
        try local.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = try Data(contentsOf: paths.database)
        for needle in ["secret-film", "a very private note", "Secret club", "Bobby Secret-Alias", "Bob Profile-Secret", bob.publicKey.hex] {
            XCTAssertNil(bytes.range(of: Data(needle.utf8)), "\(needle) in plaintext")
        }
    }
}
