import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

final class AccountStoreTests: StorageTestCase {
    let alice = SecretKey.generate(), bob = SecretKey.generate()

    /// A session with posts (visible and staged), reactions, a delete and contacts, persisted and reloaded.
    private func populate(_ store: AccountStore, me: SecretKey, secretURL: String = "https://example.com/secret-film",
                          note: String = "a very private note", name: String = "Confidential club") throws -> AccountState {
        var state = try store.loadState()
        let m = me.publicKey.hex, b = bob.publicKey.hex
        let msgs = [
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .sessionCreate, sessionName: name, memberPubkeys: [m, b]), by: m, at: 10, id: "c1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: secretURL, note: note), by: b, at: 20, id: "p1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p1", kind: .reaction, emoji: "👀", reactionActive: true), by: m, at: 21, id: "r1"),
            message(LinkstrPayload(conversationID: "S1", rootID: "", kind: .root, url: "https://example.com/other"), by: b, at: 22, id: "p2"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p2", kind: .rootDelete), by: b, at: 23, id: "d1"),
            message(LinkstrPayload(conversationID: "S2", rootID: "", kind: .root, url: "https://example.com/staged"), by: b, at: 24, id: "p3"),
            message(LinkstrPayload(conversationID: "S1", rootID: "p9", kind: .reaction, emoji: "👍", reactionActive: true), by: b, at: 25, id: "r2"),
        ]
        var changes = [StoreChange]()
        for msg in msgs { changes += state.ingest(msg).changes }
        let (_, followChanges) = state.ingestFollowList(author: m, createdAt: 5, eventID: "f1", tags: [["p", b]])
        changes += followChanges
        changes += state.setAlias(b, "Bobby Secret-Alias")
        changes += state.markRead(postID: "p1", at: 30)
        changes += state.setArchived("S1", true)
        try store.apply(changes, processedWraps: msgs.flatMap(\.wrapIDs), now: 40)
        return state
    }

    func testEverythingSurvivesAReload() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        let state = try populate(store, me: alice)
        XCTAssertEqual(state.posts["p3"]?.status, .pending(.sessionUnknown))
        XCTAssertEqual(state.reactions["r2"]?.status, .pending(.rootMissing))

        // A second process opening the same file.
        let reopened = try LocalStore(paths: paths).account(alice, now: 2)
        let loaded = try reopened.loadState()
        XCTAssertEqual(loaded.visibleState, state.visibleState)
        XCTAssertEqual(loaded.posts["p3"]?.status, .pending(.sessionUnknown), "staged posts come back staged")
        XCTAssertEqual(loaded.reactions["r2"]?.status, .pending(.rootMissing))
        XCTAssertTrue(loaded.deletedPostIDs.contains("p2"), "tombstones persist")
        XCTAssertEqual(loaded.contacts[bob.publicKey.hex]?.alias, "Bobby Secret-Alias")
        XCTAssertEqual(loaded.followWatermark, LWWStamp(createdAt: 5, eventID: "f1"))
        XCTAssertEqual(loaded.sessionSummaries(archived: true).first?.unread, false)
        XCTAssertEqual(try reopened.processedWrapIDs().count, 7)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM staged_messages").int, 2)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM membership_intervals").int, 2)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM session_members WHERE active = 1").int, 2)
    }

    func testAccountsAreIsolated() throws {
        let local = try LocalStore(paths: paths)
        let a = try local.account(alice, now: 1)
        _ = try populate(a, me: alice)
        let b = try local.account(bob, now: 1)
        let bState = try b.loadState()
        XCTAssertTrue(bState.sessionSummaries(archived: nil).isEmpty)
        XCTAssertTrue(bState.posts.isEmpty)
        XCTAssertTrue(bState.contacts.isEmpty)
        XCTAssertEqual(try b.processedWrapIDs().count, 0)
        XCTAssertEqual(try b.relays(now: 1).count, 5)
        _ = try b.addRelay("ws://127.0.0.1:9999", now: 2)
        XCTAssertFalse(try a.relays(now: 2).map(\.url).contains("ws://127.0.0.1:9999"))
        // Clearing bob leaves alice untouched.
        try local.clearAccount(b)
        XCTAssertEqual(try a.loadState().posts.count, 2)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM accounts").int, 1)
    }

    func testAnotherIdentityCannotOpenTheData() throws {
        let local = try LocalStore(paths: paths)
        _ = try populate(try local.account(alice, now: 1), me: alice)
        // Give bob's account alice's wrapped data key: it must not open with bob's identity.
        try local.db.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) SELECT ?, wrapped_data_key, 1 FROM accounts WHERE pubkey = ?",
                         [.text(bob.publicKey.hex), .text(alice.publicKey.hex)])
        XCTAssertThrowsError(try local.account(bob, now: 2)) { XCTAssertEqual($0 as? StorageError, .cannotDecrypt("this account's data key does not open with this identity")) }
    }

    func testTamperedSealedValuesAreDetected() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        _ = try populate(store, me: alice)
        // Move a sealed value to another row: its AAD names the row, so it must not open there.
        let p1 = try local.db.scalar("SELECT url_enc FROM posts WHERE post_id = 'p1'")
        try local.db.run("UPDATE snapshots SET name_enc = ? WHERE rumor_id = 'c1'", [p1])
        XCTAssertThrowsError(try store.loadState()) { XCTAssertEqual($0 as? StorageError, .cannotDecrypt("snapshots.name|\(alice.publicKey.hex)|c1")) }
    }

    func testSensitiveValuesNeverReachTheFileInPlaintext() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        let secrets = ["https://example.com/secret-film", "a very private note", "Confidential club", "Bobby Secret-Alias", "👀"]
        _ = try populate(store, me: alice, secretURL: secrets[0], note: secrets[1], name: secrets[2])
        try store.storeLinkMetadata(.init(title: "Secret Title Of The Film", thumbnailPath: "/tmp/thumb-secret.jpg", fetchedAt: 1), for: secrets[0])
        XCTAssertEqual(try store.linkMetadata(for: secrets[0])?.title, "Secret Title Of The Film")
        var files = [Data]()
        for suffix in ["", "-wal"] {
            let url = URL(fileURLWithPath: paths.database.path + suffix)
            if let data = try? Data(contentsOf: url) { files.append(data) }
        }
        XCTAssertGreaterThan(files.count, 1, "the WAL must exist and be checked too")
        XCTAssertGreaterThan(files.map(\.count).reduce(0, +), 10_000)
        for needle in secrets + ["Secret Title Of The Film", "thumb-secret", bob.publicKey.hex] {
            for data in files {
                XCTAssertNil(data.range(of: Data(needle.utf8)), "\(needle) found in plaintext")
            }
        }
        // After a checkpoint the main file holds everything; still nothing.
        try local.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let main = try Data(contentsOf: paths.database)
        for needle in secrets { XCTAssertNil(main.range(of: Data(needle.utf8)), needle) }
    }

    func testFilesAndDirectoriesArePrivate() throws {
        let local = try LocalStore(paths: paths)  // kept open so that the WAL exists
        _ = try populate(try local.account(alice, now: 1), me: alice)
        XCTAssertEqual(try posixMode(paths.home), 0o700)
        XCTAssertEqual(try posixMode(paths.identities), 0o700)
        XCTAssertEqual(try posixMode(paths.database), 0o600)
        XCTAssertEqual(try posixMode(URL(fileURLWithPath: paths.database.path + "-wal")), 0o600)
    }

    func testABatchIsOneTransaction() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        XCTAssertThrowsError(try local.db.transaction {
            try local.db.run("INSERT INTO processed_wraps (owner, wrap_id, processed_at) VALUES (?, 'w', 1)", [.text(alice.publicKey.hex)])
            throw StorageError.io("crash in the middle")
        })
        XCTAssertEqual(try store.processedWrapCount(), 0, "the half-written batch was rolled back")
    }

    func testUnopenableDatabasesGiveAClearError() throws {
        try paths.prepare()
        // A directory where the database file should be.
        try FileManager.default.createDirectory(at: paths.database, withIntermediateDirectories: true)
        XCTAssertThrowsError(try LocalStore(paths: paths)) { error in
            guard case .cannotOpen(let path, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, paths.database.path)
        }
        try FileManager.default.removeItem(at: paths.database)
        // A file that is not a database.
        try Data(repeating: 0x42, count: 8192).write(to: paths.database)
        XCTAssertThrowsError(try LocalStore(paths: paths)) { error in
            XCTAssertTrue((error as? StorageError)?.description.hasPrefix("cannot open the local database") ?? false, "\(error)")
        }
        // The recovery path: a temporary in-memory store works.
        let memory = try LocalStore()
        XCTAssertNotNil(try memory.account(alice, now: 1))
    }

    func testRelayList() throws {
        let store = try LocalStore(paths: paths).account(alice, now: 1)
        XCTAssertEqual(try store.relays(now: 1).map(\.url), RelayURL.defaults.sorted())
        XCTAssertEqual(try store.addRelay(" WSS://Relay.Example.com/ ", now: 2), .success("wss://relay.example.com"))
        XCTAssertEqual(try store.addRelay("wss://relay.example.com", now: 2), .failure(.message("that relay is already in your list.")))
        XCTAssertEqual(try store.addRelay("https://relay.example.com", now: 2), .failure(.message("enter a valid relay url (ws:// or wss://).")))
        XCTAssertTrue(try store.setRelayEnabled("wss://nos.lol", false))
        XCTAssertEqual(try store.relays(now: 3).first { $0.url == "wss://nos.lol" }?.enabled, false)
        for r in try store.relays(now: 3) { try store.removeRelay(r.url) }
        XCTAssertEqual(try store.relays(now: 4), [], "an emptied list stays empty")
        try store.resetRelays(now: 5)
        XCTAssertEqual(try store.relays(now: 5).count, 5)
        XCTAssertTrue(try store.relays(now: 5).allSatisfy(\.enabled))
    }
}
