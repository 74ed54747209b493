import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrClient

/// The shared use cases refuse bad input with the domain's words before they ask for the engine (so the
/// CLI never connects for nothing), against a real in-memory store and no network.
final class AccountActionsTests: XCTestCase {
    struct EngineUsed: Error {}

    func actions() throws -> (AccountActions, AccountStore, Pubkey) {
        let key = SecretKey.generate()
        let store = try LocalStore().account(key, now: 1)
        let friend = SecretKey.generate().publicKey.hex
        _ = try store.ingest([MessageFactory.create("S", by: friend, members: [friend, key.publicKey.hex], at: 10)], now: 10)
        _ = try store.ingest([MessageFactory.root("S", by: friend, at: 11, id: "p1")], now: 11)
        try store.setRequestDecision("S", .accepted)  // a stranger's session: accepted, so sending may go ahead
        return (AccountActions(store: store, me: key.publicKey.hex, engine: { throw EngineUsed() }), store, friend)
    }

    func testBadInputIsRefusedBeforeTheEngineIsAskedFor() async throws {
        let (actions, _, friend) = try actions()
        await assertRefused({ _ = try await actions.sendPost(session: "S", url: "javascript:alert(1)", note: nil, now: 20) }, "enter a valid url: a web address (http or https), such as https://example.com/page.")
        await assertRefused({ _ = try await actions.sendPost(session: "nope", url: "https://a.b", note: nil, now: 20) }, SendRuleError.unknownSession.description)
        await assertRefused({ _ = try await actions.react(post: "missing", emoji: "👍", now: 20) }, SendRuleError.unknownPost.description)
        await assertRefused({ _ = try await actions.react(post: "p1", emoji: "👍👍👍", now: 20) }, SendRuleError.notAnEmoji.description)
        await assertRefused({ _ = try await actions.deletePost("p1", now: 20) }, SendRuleError.notYourPost.description)
        await assertRefused({ _ = try await actions.createSession(name: " ", members: [], now: 20, random: SeededRandom(seed: 1)) }, "enter a session name.")
        await assertRefused({ try await actions.setMembers(session: "S", members: [], now: 20, random: SeededRandom(seed: 1)) },
                            "only the session creator can manage members.")
        await assertRefused({ try await actions.removeContact(friend) }, "that key is not in your contacts.")
        // Asking for a state the reaction already has sends nothing.
        let unchanged = try await actions.react(post: "p1", emoji: "👍", active: false, now: 20)
        XCTAssertEqual(unchanged.change, .unchanged)
        XCTAssertEqual(unchanged.sessionID, "S")
    }

    func testAValidActionAsksForTheEngine() async throws {
        let (actions, _, _) = try actions()
        do {
            _ = try await actions.sendPost(session: "S", url: "https://example.com", note: "hi", now: 20)
            XCTFail("sent without an engine")
        } catch is EngineUsed {}
    }

    private func assertRefused(_ work: () async throws -> Void, _ words: String, line: UInt = #line) async {
        do {
            try await work()
            XCTFail("accepted", line: line)
        } catch is EngineUsed {
            XCTFail("asked for the engine before refusing", line: line)
        } catch {
            XCTAssertEqual(String(describing: error), words, line: line)
        }
    }
}

/// Identities: create (with a pending profile name), import (nsec, ncryptsec), forget (with or without data).
final class IdentityActionsTests: XCTestCase {
    func testCreateImportAndForget() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-identities-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = DataPaths.resolve(home: dir.path)
        let identities = IdentityActions(vault: IdentityVault(paths: paths), local: try LocalStore(paths: paths))
        let (created, store) = try identities.create(name: "  Ada  ", passphrase: "pass", logN: 4, now: 1)
        XCTAssertEqual(identities.vault.activePubkey(), created.publicKey.hex)
        XCTAssertEqual(try store.setting(.profileNamePending), "Ada")
        XCTAssertTrue(try identities.vault.unlock(created.publicKey.hex, passphrase: "pass").isSameKey(as: created))

        let other = SecretKey.generate()
        let imported = try identities.importKey(" \(other.revealNsec()) ", passphrase: "pass2", logN: 4)
        XCTAssertTrue(imported.isSameKey(as: other))
        XCTAssertEqual(identities.vault.activePubkey(), other.publicKey.hex)
        let third = SecretKey.generate()
        let ncryptsec = try NIP49.encrypt(third, password: "its own", logN: 4, security: .notKnownInsecure, random: SystemRandom())
        XCTAssertTrue(try identities.importKey(ncryptsec, passphrase: "pass3", ncryptsecPassword: "its own", logN: 4).isSameKey(as: third))
        XCTAssertThrowsError(try identities.importKey(other.publicKey.npub, passphrase: "x", logN: 4))

        try identities.forget(created.publicKey.hex, store: store, clearData: true)
        XCTAssertFalse(try identities.vault.list().contains { $0.pubkey == created.publicKey.hex })
        XCTAssertEqual(try store.sessionSummaries().count, 0)
    }
}

/// Sessions from strangers wait as requests (issue 18), against a real store: ingest stores their
/// traffic, the lists keep them apart, accept and decline are local, and requests never notify.
final class SessionRequestTests: XCTestCase {
    struct EngineUsed: Error {}
    let me = SecretKey.generate()
    let stranger = SecretKey.generate().publicKey.hex
    let friend = SecretKey.generate().publicKey.hex

    func account(holdsStrangers: Bool = true) throws -> (AccountActions, AccountStore) {
        let store = try LocalStore().account(me, now: 1)
        try store.replaceContacts([friend], stamp: LWWStamp(createdAt: 2, eventID: "c1"))
        let actions = AccountActions(store: store, me: me.publicKey.hex, requests: SessionRequestPolicy(holdsStrangers: holdsStrangers),
                                     engine: { throw EngineUsed() })
        return (actions, store)
    }

    /// A stranger's session, a friend's session and our own, each with a post.
    func seed(_ store: AccountStore) throws -> [IngestReport] {
        let mine = me.publicKey.hex
        _ = try store.ingest([MessageFactory.create("mine", by: mine, members: [mine, friend], at: 10, name: "Ours")], now: 10)
        _ = try store.ingest([MessageFactory.create("friends", by: friend, members: [friend, mine], at: 11, name: "Friend's")], now: 11)
        _ = try store.ingest([MessageFactory.create("spam", by: stranger, members: [stranger, mine], at: 12, name: "Free coins")], now: 12)
        return try store.ingest([MessageFactory.root("spam", by: stranger, at: 13, id: "sp1", source: .live),
                                 MessageFactory.root("friends", by: friend, at: 14, id: "fp1", source: .live)], now: 14)
    }

    func testAStrangersSessionWaitsAsARequestWithItsPostsKept() throws {
        let (actions, store) = try account()
        let reports = try seed(store)
        XCTAssertEqual(try actions.sessionListing(.active).rows.map(\.id), ["friends", "mine"])
        let requests = try actions.sessionListing(.requests)
        XCTAssertEqual(requests.rows.map(\.id), ["spam"])
        XCTAssertEqual(requests.requestCount, 1)
        XCTAssertEqual(requests.rows[0].standing, .request)
        // The request's post arrived unread, but a request shows no dot.
        XCTAssertTrue(requests.rows[0].unread)
        XCTAssertFalse(requests.rows[0].showsUnread)
        XCTAssertEqual(try store.postCount(in: "spam"), 1)
        // Live notifications: the friend's post rings, the stranger's does not.
        let notifications = reports.flatMap(\.notifications)
        XCTAssertEqual(Set(notifications.map(\.sessionID)), ["spam", "friends"])
        XCTAssertEqual(try actions.notifiable(notifications).map(\.sessionID), ["friends"])
        XCTAssertEqual(try actions.allowsPreviews(inSession: "spam"), false)
        XCTAssertEqual(try actions.allowsPreviews(inSession: "friends"), true)
    }

    func testAcceptListsTheSessionWithEverythingItReceived() throws {
        let (actions, store) = try account()
        _ = try seed(store)
        try actions.acceptRequest("spam")
        let active = try actions.sessionListing(.active)
        XCTAssertEqual(active.rows.map(\.id), ["friends", "spam", "mine"])
        XCTAssertEqual(active.requestCount, 0)
        XCTAssertTrue(active.rows[1].showsUnread)
        XCTAssertEqual(try store.postPage(in: "spam").map(\.id), ["sp1"])
        // Later traffic notifies like any listed session's.
        let later = try store.ingest([MessageFactory.root("spam", by: stranger, at: 20, id: "sp2", source: .live)], now: 20)
        XCTAssertEqual(try actions.notifiable(later.flatMap(\.notifications)).map(\.sessionID), ["spam"])
        XCTAssertThrowsError(try actions.declineRequest("spam")) { XCTAssertEqual($0 as? AccountActions.RequestError, .notARequest) }
    }

    func testDeclineHidesAndIsReversible() throws {
        let (actions, store) = try account()
        _ = try seed(store)
        try actions.declineRequest("spam")
        XCTAssertEqual(try actions.sessionListing(.active).rows.map(\.id), ["friends", "mine"])
        let requests = try actions.sessionListing(.requests)
        XCTAssertEqual(requests.requestCount, 0, "a declined session is not counted as waiting")
        XCTAssertEqual(requests.rows.map(\.standing), [.declined])
        // Later traffic is stored but stays quiet.
        let later = try store.ingest([MessageFactory.root("spam", by: stranger, at: 20, id: "sp2", source: .live)], now: 20)
        XCTAssertFalse(later.flatMap(\.notifications).isEmpty)
        XCTAssertEqual(try actions.notifiable(later.flatMap(\.notifications)), [])
        XCTAssertEqual(try store.postCount(in: "spam"), 2)
        // Back to a request, then accepted after all.
        try actions.decideRequest("spam", .undecided)
        XCTAssertEqual(try actions.sessionListing(.requests).requestCount, 1)
        try actions.acceptRequest("spam")
        XCTAssertEqual(try actions.sessionListing(.active).rows.first?.id, "spam")
        XCTAssertThrowsError(try actions.acceptRequest("nope")) { XCTAssertEqual($0 as? AccountActions.RequestError, .noSuchSession) }
    }

    func testSendingIntoARequestWaitsForAcceptBeforeTheEngine() async throws {
        let (actions, store) = try account()
        _ = try seed(store)
        do {
            _ = try await actions.sendPost(session: "spam", url: "https://example.com", note: nil, now: 30)
            XCTFail("sent into a request")
        } catch let e as AccountActions.RequestError {
            XCTAssertEqual(e, .acceptFirst(sessionID: "spam"))
        }
        do {
            _ = try await actions.react(post: "sp1", emoji: "👍", now: 30)
            XCTFail("reacted in a request")
        } catch let e as AccountActions.RequestError {
            XCTAssertEqual(e, .acceptFirst(sessionID: "spam"))
        }
        try actions.acceptRequest("spam")
        do {
            _ = try await actions.sendPost(session: "spam", url: "https://example.com", note: nil, now: 30)
            XCTFail("sent without an engine")
        } catch is EngineUsed {}
    }

    func testTurnedOffEveryoneIsListedAndAnExContactsSessionsStay() async throws {
        let (open, store) = try account(holdsStrangers: false)
        _ = try seed(store)
        XCTAssertEqual(try open.sessionListing(.active).rows.map(\.id), ["friends", "spam", "mine"])
        XCTAssertEqual(try open.sessionListing(.requests).rows, [])

        // Removing a contact keeps their sessions listed (decided before the new list is published).
        let (actions, store2) = try account()
        _ = try seed(store2)
        do {
            try await actions.removeContact(friend)
            XCTFail("published without an engine")
        } catch is EngineUsed {}
        try store2.replaceContacts([], stamp: LWWStamp(createdAt: 3, eventID: "c2"))
        XCTAssertEqual(try actions.sessionListing(.active).rows.map(\.id), ["friends", "mine"])
        XCTAssertEqual(try actions.sessionListing(.requests).rows.map(\.id), ["spam"])
    }
}

/// The relay list once for both front ends (issue 12), on a real store: the stored list and its edits,
/// `--relay` values validated (an invalid one is an error, never dropped) and never written to the store.
final class RelayListTests: XCTestCase {
    func testStoredListEditsWithTheSameWordsEverywhere() throws {
        let store = try LocalStore().account(SecretKey.generate(), now: 1)
        var list = try RelayList(store: store, overrides: [], now: 1)
        XCTAssertFalse(list.overridden)
        XCTAssertEqual(list.entries.map(\.url), RelayURL.defaults.sorted(), "the defaults on first use")
        XCTAssertEqual(try list.add(" WSS://Relay.Example.com ", now: 2), "wss://relay.example.com")
        XCTAssertThrowsError(try list.add("wss://relay.example.com/", now: 2)) { XCTAssertEqual($0 as? RelayList.Failure, .duplicate) }
        XCTAssertThrowsError(try list.add("https://relay.example.com", now: 2)) {
            XCTAssertEqual(String(describing: $0), "enter a valid relay url (ws:// or wss://).")
        }
        try list.setEnabled("wss://relay.example.com", false)
        XCTAssertThrowsError(try list.remove("wss://nowhere.example")) { XCTAssertEqual(String(describing: $0), "that relay is not in your list.") }
        XCTAssertThrowsError(try list.setEnabled("wss://nowhere.example", true)) { XCTAssertEqual($0 as? RelayList.Failure, .notInList) }
        // What was edited is what is stored.
        let reread = try RelayList(store: store, overrides: [], now: 3)
        XCTAssertEqual(reread.entries, list.entries)
        XCTAssertEqual(reread.entries.first { $0.url == "wss://relay.example.com" }?.enabled, false)
        XCTAssertFalse(reread.enabledURLs.contains("wss://relay.example.com"))
        try list.remove(RelayURL.defaults[0])
        try list.reset(now: 4)
        XCTAssertEqual(try RelayList(store: store, overrides: [], now: 5).entries, list.entries)
        XCTAssertEqual(Set(list.entries.map(\.url)), Set(RelayURL.defaults))
    }

    func testOverridesAreValidatedAndLeaveTheStoredListAlone() throws {
        let store = try LocalStore().account(SecretKey.generate(), now: 1)
        XCTAssertThrowsError(try RelayList(store: store, overrides: ["ws://127.0.0.1:7000", "https://x.y"], now: 1)) {
            XCTAssertEqual(String(describing: $0), "enter a valid relay url (ws:// or wss://). (https://x.y)")
        }
        XCTAssertEqual(try RelayList.validated(["ws://127.0.0.1:7000", "WS://127.0.0.1:7000/"]), ["ws://127.0.0.1:7000"])
        var list = try RelayList(store: store, overrides: ["ws://127.0.0.1:7000"], now: 1)
        XCTAssertTrue(list.overridden)
        try list.add("ws://127.0.0.1:7001", now: 2)
        try list.setEnabled("ws://127.0.0.1:7000", false)
        XCTAssertEqual(list.poolEntries.map(\.url), ["ws://127.0.0.1:7000", "ws://127.0.0.1:7001"])
        XCTAssertEqual(list.enabledURLs, ["ws://127.0.0.1:7001"])
        XCTAssertEqual(Set(try store.relays(now: 3).map(\.url)), Set(RelayURL.defaults), "the stored list is untouched")
    }

    func testARelayThatIsNotThereIsReportedNotThrown() async throws {
        let port = try TestRelay.freePort()
        let probes = try await RelayList(store: nil, overrides: [], now: 1).test("ws://127.0.0.1:\(port)")
        XCTAssertEqual(probes.count, 1)
        XCTAssertFalse(probes[0].ok)
        XCTAssertNil(probes[0].answerMilliseconds)
        XCTAssertFalse(probes[0].summary.isEmpty)
    }
}
