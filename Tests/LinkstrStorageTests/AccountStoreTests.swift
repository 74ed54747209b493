import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

final class AccountStoreTests: StorageTestCase {
    let alice = SecretKey.generate(), bob = SecretKey.generate()

    /// A session with posts (visible and staged), reactions, a delete and contacts.
    @discardableResult
    private func populate(_ store: AccountStore, me: SecretKey, secretURL: String = "https://example.com/secret-film",
                          note: String = "a very private note", name: String = "Confidential club") throws -> [InboundMessage] {
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
        _ = try store.ingest(msgs, processedWraps: msgs.flatMap(\.wrapIDs), now: 40)
        XCTAssertEqual(try store.ingestFollowList(author: m, createdAt: 5, eventID: "f1", tags: [["p", b]], now: 40), .applied)
        XCTAssertTrue(try store.setAlias(b, "Bobby Secret-Alias"))
        try store.markRead(postID: "p1", now: 30)
        try store.setArchived("S1", true)
        return msgs
    }

    /// The same messages through the in-memory reference.
    private func reference(_ msgs: [InboundMessage], me: SecretKey) throws -> AccountState {
        var s = AccountState(me: me.publicKey.hex)
        for m in msgs { _ = try s.ingest(m) }
        _ = try s.ingestFollowList(author: me.publicKey.hex, createdAt: 5, eventID: "f1", tags: [["p", bob.publicKey.hex]])
        _ = try s.setAlias(bob.publicKey.hex, "Bobby Secret-Alias")
        s.markRead(postID: "p1", at: 30)
        s.setArchived("S1", true)
        return s
    }

    func testStoredStateMatchesTheInMemoryReferenceAndSurvivesAReopen() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        let msgs = try populate(store, me: alice)
        let expected = try reference(msgs, me: alice).visibleState
        XCTAssertEqual(try store.visibleState(), expected)

        // A second process opening the same file.
        let reopened = try LocalStore(paths: paths).account(alice, now: 2)
        XCTAssertEqual(try reopened.visibleState(), expected)
        XCTAssertEqual(try reopened.sessionSummaries(archived: true).first?.unread, false)
        XCTAssertEqual(try reopened.contacts().first?.alias, "Bobby Secret-Alias")
        XCTAssertEqual(try reopened.processedWrapCount(), 7)
        // Dedup before decrypting asks for a batch; more than one query's worth of unknown ids around the known ones.
        let known = msgs.flatMap(\.wrapIDs)
        let unknown = (0..<1_200).map { String(format: "%064x", $0) }
        XCTAssertEqual(try reopened.alreadyProcessed(Array(unknown.prefix(600)) + known + Array(unknown.suffix(600))), Set(known))
        XCTAssertEqual(try reopened.alreadyProcessed([]), [])
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM staged_messages").int, 2, "p3 and r2 wait")
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM tombstones WHERE validated = 1").int, 1)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM membership_intervals").int, 2)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM session_members WHERE active = 1").int, 2)
        // Replaying every message changes nothing (idempotent ingest).
        _ = try reopened.ingest(msgs, now: 50)
        XCTAssertEqual(try reopened.visibleState(), expected)
    }

    /// The property test's random scenarios, through SQLite and through memory: the same visible state.
    func testSQLiteStoreAgreesWithTheReferenceOnRandomScenarios() throws {
        var rng = SplitMix(seed: UInt64.random(in: 1...UInt64.max / 2))
        let seed = rng.state
        let local = try LocalStore()
        for caseIndex in 0..<150 {
            let me = SecretKey.generate()
            // The generator speaks for MessageFactory.me; rewrite that key to this account's.
            let msgs = ScenarioGenerator.scenario(&rng).map { $0.replacingKey(MessageFactory.me, with: me.publicKey.hex) }
            var shuffled = msgs
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            var memory = AccountState(me: me.publicKey.hex)
            for m in msgs { _ = try memory.ingest(m) }
            let store = try local.account(me, now: 1)
            // Half in small batches, half one by one.
            if caseIndex % 2 == 0 { _ = try store.ingest(shuffled, now: 1) } else { for m in shuffled { _ = try store.ingest([m], now: 1) } }
            // Every message twice: ingest must be idempotent in SQLite as in memory.
            _ = try store.ingest(msgs, now: 1)
            if let diff = try store.visibleState().difference(from: memory.visibleState) { return XCTFail("seed \(seed) case \(caseIndex): \(diff)") }
        }
        print("SQLite vs in-memory: 150 random scenarios agree (seed \(seed))")
    }

    func testAccountsAreIsolated() throws {
        let local = try LocalStore(paths: paths)
        let a = try local.account(alice, now: 1)
        try populate(a, me: alice)
        let b = try local.account(bob, now: 1)
        XCTAssertTrue(try b.sessionSummaries(archived: nil).isEmpty)
        XCTAssertTrue(try b.contacts().isEmpty)
        XCTAssertEqual(try b.processedWrapCount(), 0)
        XCTAssertEqual(try b.relays(now: 1).count, 5)
        _ = try b.addRelay("ws://127.0.0.1:9999", now: 2)
        XCTAssertFalse(try a.relays(now: 2).map(\.url).contains("ws://127.0.0.1:9999"))
        // Clearing bob leaves alice untouched.
        try local.clearAccount(b)
        XCTAssertEqual(try a.postCount(in: "S1"), 1)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM accounts").int, 1)
    }

    /// Profile names: stored per account, newest stamp kept, everyone we know asked for (not us).
    func testProfileNamesAreScopedAndAskedForContactsAndMembers() throws {
        let local = try LocalStore(paths: paths)
        let a = try local.account(alice, now: 1)
        try populate(a, me: alice)
        let carol = SecretKey.generate().publicKey.hex, b = bob.publicKey.hex
        XCTAssertEqual(try a.profileAuthors(), [b], "bob is a contact and a member; alice is not asked for")
        _ = try a.ingest([message(LinkstrPayload(conversationID: "S3", rootID: "", kind: .sessionCreate, sessionName: "Three",
                                                 memberPubkeys: [alice.publicKey.hex, carol]), by: alice.publicKey.hex, at: 50, id: "c3")],
                         processedWraps: [], now: 60)
        XCTAssertEqual(try a.profileAuthors(), [b, carol], "a new session's members are asked for too")

        XCTAssertNil(try a.profileStamp(b))
        let first = ProfileRule.decide(kind: 0, author: b, createdAt: 100, eventID: "aa", content: #"{"name":"Bob"}"#,
                                       known: [b], current: try a.profileStamp(b), now: 100)
        XCTAssertTrue(try a.applyProfile(b, first))
        XCTAssertEqual(try a.profileStamp(b), LWWStamp(createdAt: 100, eventID: "aa"))
        let older = ProfileRule.decide(kind: 0, author: b, createdAt: 99, eventID: "ff", content: #"{"name":"Old Bob"}"#,
                                       known: [b], current: try a.profileStamp(b), now: 100)
        XCTAssertFalse(try a.applyProfile(b, older))
        let renamed = ProfileRule.decide(kind: 0, author: b, createdAt: 100, eventID: "bb", content: #"{"display_name":"Robert","name":"bob"}"#,
                                         known: [b], current: try a.profileStamp(b), now: 100)
        XCTAssertTrue(try a.applyProfile(b, renamed))
        XCTAssertEqual(try LocalStore(paths: paths).account(alice, now: 2).profileNames(), [b: "Robert"], "persisted")
        // A profile without a name clears it; other accounts never see any of it.
        XCTAssertTrue(try a.applyProfile(b, ProfileRule.decide(kind: 0, author: b, createdAt: 101, eventID: "cc", content: "{}",
                                                              known: [b], current: try a.profileStamp(b), now: 101)))
        XCTAssertEqual(try a.profileNames(), [:])
        try a.applyProfile(b, .apply(name: "Bob again", stamp: LWWStamp(createdAt: 102, eventID: "dd")))
        let other = try local.account(bob, now: 1)
        XCTAssertEqual(try other.profileNames(), [:])
        XCTAssertNil(try other.profileStamp(b))
        try local.clearAccount(a)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM profiles").int, 0, "clearing the account removes its profiles")
    }

    func testAnotherIdentityCannotOpenTheData() throws {
        let local = try LocalStore(paths: paths)
        try populate(try local.account(alice, now: 1), me: alice)
        // Give bob's account alice's wrapped data key: it must not open with bob's identity.
        try local.db.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) SELECT ?, wrapped_data_key, 1 FROM accounts WHERE pubkey = ?",
                         [.text(bob.publicKey.hex), .text(alice.publicKey.hex)])
        XCTAssertThrowsError(try local.account(bob, now: 2)) {
            XCTAssertTrue(String(describing: $0).contains("this account's data key on this device is damaged"), "\($0)")
        }
    }

    func testTamperedSealedValuesAreDetected() throws {
        let local = try LocalStore(paths: paths)
        try populate(try local.account(alice, now: 1), me: alice)
        // Move a sealed value to another row: its AAD names the row, so it must not open there.
        let p1 = try local.db.scalar("SELECT url_enc FROM posts WHERE post_id = 'p1'")
        try local.db.run("UPDATE snapshots SET name_enc = ? WHERE rumor_id = 'c1'", [p1])
        // The moved value is damage: the snapshot is left out (and counted), never read as another row's.
        let reopened = try LocalStore(paths: paths).account(alice, now: 2)
        XCTAssertEqual(try reopened.session("S1")?.snapshots.count ?? 0, 0)
        XCTAssertEqual(reopened.damagedRowsSeen, 1)
        XCTAssertEqual(try reopened.findDamagedRows().rows, ["snapshots": 1])
    }

    func testSensitiveValuesNeverReachTheFileInPlaintext() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        let secrets = ["https://example.com/secret-film", "a very private note", "Confidential club", "Bobby Secret-Alias", "👀"]
        try populate(store, me: alice, secretURL: secrets[0], note: secrets[1], name: secrets[2])
        try store.storeLinkMetadata(.init(title: "Secret Title Of The Film", imageURL: "https://img.example/thumb-secret.jpg", fetchedAt: 1), for: secrets[0])
        try store.applyProfile(bob.publicKey.hex, .apply(name: "Bob Profile-Secret", stamp: LWWStamp(createdAt: 5, eventID: "e1")))
        XCTAssertEqual(try store.profileNames()[bob.publicKey.hex], "Bob Profile-Secret")
        XCTAssertEqual(try store.linkMetadata(for: secrets[0])?.title, "Secret Title Of The Film")
        var files = [Data]()
        for suffix in ["", "-wal"] {
            if let data = try? Data(contentsOf: URL(fileURLWithPath: paths.database.path + suffix)) { files.append(data) }
        }
        XCTAssertEqual(files.count, 2, "the WAL must exist and be checked too")
        XCTAssertGreaterThan(files.map(\.count).reduce(0, +), 10_000)
        for needle in secrets + ["Secret Title Of The Film", "thumb-secret", "Bob Profile-Secret", bob.publicKey.hex] {
            for data in files { XCTAssertNil(data.range(of: Data(needle.utf8)), "\(needle) found in plaintext") }
        }
        try local.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let main = try Data(contentsOf: paths.database)
        for needle in secrets + [bob.publicKey.hex] { XCTAssertNil(main.range(of: Data(needle.utf8)), needle) }
    }

    func testFilesAndDirectoriesArePrivate() throws {
        let local = try LocalStore(paths: paths)  // kept open so that the WAL exists
        try populate(try local.account(alice, now: 1), me: alice)
        XCTAssertEqual(try posixMode(paths.home), 0o700)
        XCTAssertEqual(try posixMode(paths.identities), 0o700)
        XCTAssertEqual(try posixMode(paths.database), 0o600)
        XCTAssertEqual(try posixMode(URL(fileURLWithPath: paths.database.path + "-wal")), 0o600)
    }

    func testAFailingBatchLeavesNothingBehind() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(alice, now: 1)
        let m = alice.publicKey.hex
        let create = message(LinkstrPayload(conversationID: "S", rootID: "", kind: .sessionCreate, sessionName: "n", memberPubkeys: [m]), by: m, at: 1, id: "c")
        // Sabotage: a trigger makes the third write of the batch fail.
        try local.db.execute("CREATE TRIGGER sabotage BEFORE INSERT ON posts BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        let root = message(LinkstrPayload(conversationID: "S", rootID: "", kind: .root, url: "https://a.b"), by: m, at: 2, id: "p")
        XCTAssertThrowsError(try store.ingest([create, root], processedWraps: ["w1", "w2"], now: 3))
        XCTAssertTrue(try store.sessionSummaries(archived: nil).isEmpty, "the snapshot of the failed batch was rolled back")
        XCTAssertEqual(try store.processedWrapCount(), 0)
        XCTAssertNil(try store.session("S"), "the cache did not run ahead of the disk")
        try local.db.execute("DROP TRIGGER sabotage")
        _ = try store.ingest([create, root], processedWraps: ["w1", "w2"], now: 3)
        XCTAssertEqual(try store.postCount(in: "S"), 1)
    }

    func testUnopenableDatabasesGiveAClearError() throws {
        try paths.prepare()
        try FileManager.default.createDirectory(at: paths.database, withIntermediateDirectories: true)
        XCTAssertThrowsError(try LocalStore(paths: paths)) { error in
            guard case .cannotOpen(let path, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, paths.database.path)
        }
        try FileManager.default.removeItem(at: paths.database)
        try Data(repeating: 0x42, count: 8192).write(to: paths.database)
        XCTAssertThrowsError(try LocalStore(paths: paths)) { error in
            XCTAssertTrue((error as? StorageError)?.description.hasPrefix("cannot open the local database") ?? false, "\(error)")
        }
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

    /// Issue 16 (5): posts of one second keep a stable order: ours as this device sent them, others by
    /// id; paging continues exactly where a page ended.
    func testPostsWithinOneSecondListInSendOrder() throws {
        let me = SecretKey.generate(), friend = SecretKey.generate().publicKey.hex
        let local = try LocalStore(paths: paths)
        let store = try local.account(me, now: 1)
        _ = try store.ingest([MessageFactory.create("S", by: friend, members: [friend, me.publicKey.hex], at: 10)], now: 10)
        // 30 posts sent in one second; their ids sort in no particular order.
        let sent = (0..<30).map { i in MessageFactory.root("S", by: me.publicKey.hex, at: 100, url: "https://example.com/\(i)", id: MessageFactory.id("burst-\(i)")) }
        for m in sent {
            _ = try store.ingest([m], now: 100)
            try store.markSent([m.rumorID])
        }
        let received = (0..<5).map { i in MessageFactory.root("S", by: friend, at: 100, url: "https://example.com/r\(i)", id: MessageFactory.id("recv-\(i)")) }
        _ = try store.ingest(received, now: 100)
        let page = try store.postPage(in: "S", limit: 100).map(\.id)
        XCTAssertEqual(Array(page.prefix(30)), sent.reversed().map(\.rumorID), "newest sent first, in send order")
        XCTAssertEqual(Array(page.suffix(5)), received.map(\.rumorID).sorted(by: >), "received ties by id")
        // Pages of 7 give the same order.
        var paged = [String](), before: (createdAt: Int64, id: String)?
        while true {
            let next = try store.postPage(in: "S", limit: 7, before: before)
            guard let last = next.last else { break }
            paged += next.map(\.id)
            before = (last.post.createdAt, last.id)
        }
        XCTAssertEqual(paged, page)
        // Marking read, or the same post arriving again in another wrap (both rewrite the row), keeps the order.
        try store.markRead(postID: sent[3].rumorID, now: 200)
        _ = try store.ingest([MessageFactory.root("S", by: me.publicKey.hex, at: 100, url: "https://example.com/5", id: sent[5].rumorID, wrap: "again")], now: 201)
        XCTAssertEqual(try store.postPage(in: "S", limit: 100).map(\.id), page)
    }
}

/// Migration 6 (session requests, issue 18) on a database the previous schema wrote.
final class RequestDecisionMigrationTests: StorageTestCase {
    func testSessionsAlreadyListedBeforeTheUpgradeStayAcceptedAndNewOnesStartUndecided() throws {
        let me = SecretKey.generate()
        let stranger = SecretKey.generate().publicKey.hex
        do {
            let local = try LocalStore(paths: paths)
            let account = try local.account(me, now: 1)
            _ = try account.ingest([MessageFactory.create("old", by: stranger, members: [stranger, me.publicKey.hex], at: 10)], now: 10)
            // Back to the schema of version 5, as the previous release left it.
            try local.db.execute("""
                ALTER TABLE sessions DROP COLUMN request_decision; PRAGMA user_version = 5;
                DELETE FROM grdb_migrations WHERE identifier = '6';
                """)
        }
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, 6)
        let account = try local.account(me, now: 20)
        _ = try account.ingest([MessageFactory.create("new", by: stranger, members: [stranger, me.publicKey.hex], at: 21)], now: 21)
        let decisions = Dictionary(uniqueKeysWithValues: try account.sessionSummaries(archived: nil).map { ($0.id, $0.decision) })
        XCTAssertEqual(decisions, ["old": .accepted, "new": .undecided])
        try account.setRequestDecision("new", .declined)
        XCTAssertEqual(try account.sessionSummary("new")?.decision, .declined)
        XCTAssertThrowsError(try account.setRequestDecision("missing", .accepted))
    }
}

/// Our follow list's tags are kept, sealed, for the next edit (wire 2026 §7.1).
final class FollowListStorageTests: StorageTestCase {
    func testTheAppliedListsTagsAreKeptVerbatimAndOnlyANewerListReplacesThem() throws {
        let me = SecretKey.generate()
        let store = try LocalStore(paths: paths).account(me, now: 1)
        let bob = MessageFactory.bob, hint = "wss://relay.example.com"
        XCTAssertEqual(try store.ownFollowList().tags, [])
        XCTAssertNil(try store.ownFollowList().stamp)
        let tags = [["p", bob, hint, "bobby"], ["t", "friends"]]
        XCTAssertEqual(try store.ingestFollowList(author: me.publicKey.hex, createdAt: 50, eventID: "b", tags: tags, now: 60), .applied)
        XCTAssertEqual(try store.ingestFollowList(author: me.publicKey.hex, createdAt: 50, eventID: "c", tags: [], now: 60), .stale)
        let local = try LocalStore(paths: paths)
        let reopened = try local.account(me, now: 2)
        XCTAssertEqual(try reopened.ownFollowList().tags, tags)
        XCTAssertEqual(try reopened.ownFollowList().stamp, LWWStamp(createdAt: 50, eventID: "b"))
        XCTAssertEqual(try reopened.setting(.followListTags).map { $0.contains(hint) }, true)
        // Sealed at rest: the relay hint is not in the file.
        try local.db.checkpoint()
        XCTAssertNil(try Data(contentsOf: paths.database).range(of: Data(hint.utf8)))
    }
}

/// A session we created and deleted leaves no content, members or list state on disk (wire 2026 §1.4).
final class SessionDeleteStorageTests: StorageTestCase {
    func testOurDeleteLeavesNoPostsReactionsMembersOrStagedContent() throws {
        let me = SecretKey.generate()
        let local = try LocalStore(paths: paths)
        let store = try local.account(me, now: 1)
        let m = me.publicKey.hex, alice = MessageFactory.alice
        let post = MessageFactory.root("S", by: alice, at: 15, url: "https://example.com/purged")
        _ = try store.ingest([MessageFactory.create("S", by: m, members: [m, alice], at: 10), post,
                              MessageFactory.reaction("S", post: post.rumorID, by: m, at: 16),
                              MessageFactory.root("S", by: MessageFactory.carol, at: 12, url: "https://example.com/not-a-member")], now: 20)
        try store.setArchived("S", true)
        XCTAssertGreaterThan(try local.db.scalar("SELECT count(*) FROM staged_messages").int ?? 0, 0, "a post from someone not in the session waits")
        // A post deleted by its author (a tombstone), and the page title of a shared link.
        let gone = MessageFactory.root("S", by: alice, at: 17, url: "https://example.com/gone")
        _ = try store.ingest([gone, MessageFactory.delete("S", post: gone.rumorID, by: alice, at: 18)], now: 21)
        try store.storeLinkMetadata(.init(title: "Purged Title", fetchedAt: 20), for: "https://example.com/purged")
        try store.storeLinkMetadata(.init(title: "Kept Title", fetchedAt: 20), for: "https://example.com/elsewhere")
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM tombstones").int, 1)
        _ = try store.ingest([MessageFactory.sessionDelete("S", by: m, at: 30)], now: 31)
        XCTAssertNil(try store.linkMetadata(for: "https://example.com/purged"), "its links' titles go")
        XCTAssertEqual(try store.linkMetadata(for: "https://example.com/elsewhere")?.title, "Kept Title")
        // A delete notice arriving now is ignored, not kept.
        _ = try store.ingest([MessageFactory.delete("S", post: "some-post", by: alice, at: 32)], now: 33)
        for table in ["posts", "reactions", "staged_messages", "session_members", "membership_intervals", "tombstones"] {
            XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM \(table)").int, 0, table)
        }
        XCTAssertEqual(try local.db.scalar("SELECT listed + archived + unread FROM sessions WHERE session_id = 'S'").int, 0)
        XCTAssertNil(try store.sessionSummary("S"))
        // Reopened, the delete still stands and what arrives later is dropped.
        let reopened = try LocalStore(paths: paths).account(me, now: 40)
        _ = try reopened.ingest([MessageFactory.root("S", by: alice, at: 35, url: "https://example.com/late")], now: 41)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM posts").int, 0)
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM staged_messages").int, 0)
    }
}

/// A list row's last post (who shared what) follows the newest post; since migration 10 its sealed
/// author and link are copied onto the session's row instead of joined from `posts` on every read.
final class LastPostRowTests: StorageTestCase {
    typealias M = MessageFactory

    func testTheRowShowsTheNewestPostAndFollowsNewerPostsDeletesAndSessionDeletes() throws {
        let me = SecretKey.generate()
        let bob = SecretKey.generate().publicKey.hex
        let account = try LocalStore(paths: paths).account(me, now: 1)
        let older = M.root("S", by: bob, at: 20, url: "https://example.com/older")
        _ = try account.ingest([M.create("S", by: me.publicKey.hex, members: [me.publicKey.hex, bob], at: 10), older], now: 20)
        XCTAssertEqual(try account.sessionSummary("S")?.lastPost, SessionSummary.LastPost(author: bob, url: "https://example.com/older"))

        let newer = M.root("S", by: me.publicKey.hex, at: 30, url: "https://example.com/newer")
        _ = try account.ingest([newer], now: 30)
        XCTAssertEqual(try account.sessionSummaries().first?.lastPost, SessionSummary.LastPost(author: me.publicKey.hex, url: "https://example.com/newer"))

        _ = try account.ingest([M.delete("S", post: newer.rumorID, by: me.publicKey.hex, at: 40)], now: 40)
        XCTAssertEqual(try account.sessionSummary("S")?.lastPost, SessionSummary.LastPost(author: bob, url: "https://example.com/older"),
                       "the newest post deleted: the one before it")

        _ = try account.ingest([M.delete("S", post: older.rumorID, by: bob, at: 50)], now: 50)
        XCTAssertNil(try account.sessionSummary("S")?.lastPost, "no post left")
    }

    func testMigrationTenCopiesTheLastPostOfRowsWrittenBefore() throws {
        let me = SecretKey.generate()
        let bob = SecretKey.generate().publicKey.hex
        do {
            let local = try LocalStore(paths: paths)
            let account = try local.account(me, now: 1)
            _ = try account.ingest([M.create("S", by: me.publicKey.hex, members: [me.publicKey.hex, bob], at: 10),
                                    M.root("S", by: bob, at: 20, url: "https://example.com/shared"),
                                    M.create("E", by: me.publicKey.hex, members: [me.publicKey.hex, bob], at: 11)], now: 20)
            // Back to schema 9, as the previous release left it: the list joined `posts` for these.
            try local.db.execute("""
                ALTER TABLE sessions DROP COLUMN last_author_enc; ALTER TABLE sessions DROP COLUMN last_url_enc;
                PRAGMA user_version = 9; DELETE FROM grdb_migrations WHERE identifier = '10';
                """)
        }
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, 10)
        let account = try local.account(me, now: 30)
        XCTAssertEqual(try account.sessionSummary("S")?.lastPost, SessionSummary.LastPost(author: bob, url: "https://example.com/shared"))
        XCTAssertNil(try account.sessionSummary("E")?.lastPost, "a session without posts has no last post")
    }
}
