import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 52: someone whose kind 0 names a NIP-05 identifier aborted every command and the app for good
/// ("Incorrect actor executor assumption", SIGABRT, exit 134): the engine's discovery iterated a lazy
/// chain over its own state inside a task group's body, which runs off the actor. A stranger's request
/// and a member of our own session, each with and without kind 10050/10002 lists (on the indexer, where
/// most people's are, published after their profile), on both relay implementations:
/// three syncs, a post, the doctor, and the app for 10 s. Loopback is allowed, so the NIP-05 document is
/// really asked for (https://127.0.0.1/ refuses).
final class NIP05PeerTests: XCTestCase {
    func testAStrangerWithANIP05NameAndNoListsSendsARequest() throws {
        try scenario(stranger: true, lists: false, relay: .nostrRelay)
    }

    func testAStrangerWithANIP05NameAndListsSendsARequest() throws {
        try scenario(stranger: true, lists: true, relay: .localRelay)
    }

    func testAMemberWithANIP05NameAndNoLists() throws {
        try scenario(stranger: false, lists: false, relay: .localRelay)
    }

    func testAMemberWithANIP05NameAndLists() throws {
        try scenario(stranger: false, lists: true, relay: .nostrRelay)
    }

    enum RelayKind { case nostrRelay, localRelay }

    private func scenario(stranger: Bool, lists: Bool, relay kind: RelayKind) throws {
        func start() throws -> (url: String, stop: () -> Void) {
            if kind == .nostrRelay { let r = try TestRelay(); return (r.url, r.stop) }
            let r = try RustRelay.start()
            return (r.url, r.stop)
        }
        let (url, stopRelay) = try start()
        let indexer = lists ? try start() : nil
        defer { stopRelay(); indexer?.stop() }
        let tag = "nip05-\(stranger ? "stranger" : "member")-\(lists ? "lists" : "nolists")"
        let bob = try Home(tag, relays: [url])
        defer { bob.remove() }
        try bob.writeConfig("indexer_relays = [\(indexer.map { "\"\($0.url)\"" } ?? "")]\n")
        let loopback = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let b = try bob.createIdentity()
        let me = try PublicKey(hex: b.hex)
        let peer = NIP05Person()
        try peer.publishProfile(on: url)

        // The session: a stranger's request, or ours with them in it.
        let session: String
        if stranger {
            session = peer.session
            try peer.sendSession(on: url, to: me)
        } else {
            session = try bob.ok(["session", "create", "Ours", "--member", peer.key.publicKey.npub], environment: loopback).trimmed
        }

        for round in 1...3 {
            // Their lists appear after we know their profile (published later, on the indexer only): the
            // second sync starts without them, so the NIP-05 fallback runs before they are found.
            if round == 2, let indexer { try peer.publishLists(on: indexer.url, naming: url) }
            let r = try bob.run(["sync", "--json", "--timeout", "20"], environment: loopback)
            XCTAssertEqual(r.status, 0, "sync \(round): \(r.err)")
            XCTAssertFalse(r.err.contains("Incorrect actor executor"), r.err)
            XCTAssertNotNil(try? r.json() as? [String: Any], "sync \(round) printed one JSON document: \(r.out)")
        }
        if stranger {
            let waiting = try bob.ok(["session", "list", "--requests", "--json"]).json() as! [[String: Any]]
            XCTAssertEqual(waiting.compactMap { $0["id"] as? String }, [session], "the request is listed")
            XCTAssertEqual(waiting.first?["standing"] as? String, "request")
            XCTAssertEqual(try bob.posts(session).count, 1, "the stranger's post is kept with the request")
            // Posting into a request is refused as documented (exit 1); into a session of our own it works.
            let refused = try bob.run(["post", session, "https://example.com/no"], environment: loopback)
            XCTAssertEqual(refused.status, 1, refused.err)
            XCTAssertTrue(refused.err.contains("accept it first"), refused.err)
            let mine = try bob.ok(["session", "create", "Notes"], environment: loopback).trimmed
            try bob.ok(["post", mine, "https://example.com/mine"], environment: loopback)
        } else {
            let posted = try bob.run(["post", session, "https://example.com/ours", "--note", "hello"], environment: loopback)
            XCTAssertEqual(posted.status, 0, posted.err)
            XCTAssertEqual(try bob.posts(session).count, 1)
        }

        let doctor = try bob.run(["doctor", "--json"] + (stranger ? [] : [session]), environment: loopback)
        XCTAssertEqual(doctor.status, 0, doctor.err)
        let report = try doctor.json() as? [String: Any]
        let members = (report?["members"] as? [[String: Any]]) ?? []
        XCTAssertTrue(members.contains { ($0["pubkey"] as? String) == peer.key.publicKey.hex }, "the doctor names them: \(doctor.out)")
        if lists { XCTAssertTrue(members.contains { ($0["source"] as? String) == "inbox" }, doctor.out) }

        // The app: alive and showing the request (or the session) after 10 s, then quits cleanly.
        let tmux = try Tmux()
        try bob.startApp(tmux, "b", relay: url, environment: loopback)
        try tmux.waitFor("b", text: "1 Sessions", timeout: 30)
        Thread.sleep(forTimeInterval: 10)
        let screen = try tmux.screen("b")
        XCTAssertEqual(try tmux.runningCommands("b"), ["linkstr"], "the app is still running after 10 s; the screen was:\n\(screen)")
        XCTAssertFalse(screen.contains("Incorrect actor executor"), screen)
        XCTAssertTrue(screen.contains(stranger ? "(R: 1 request)" : "Ours"), screen)
        try tmux.keys("b", "q")
        try tmux.waitFor("b", "the app to exit") { !$0.contains("1 Sessions") }
    }
}

/// Someone whose profile names a NIP-05 identifier (as most active Nostr users' do), with or without
/// relay lists, wrapped and published here.
private struct NIP05Person {
    let key = SecretKey.generate()
    let session = LinkstrID.make(SystemRandom())
    let now = Int64(Date().timeIntervalSince1970)

    func publishProfile(on url: String) throws {
        try publish([UnsignedEvent(pubkey: key.publicKey, createdAt: now - 100, kind: 0,
                                   content: #"{"name":"stranger","nip05":"_@127.0.0.1"}"#).signed(with: key)], on: url)
    }

    /// Their kind 10050 (inbox) and 10002 (relays) on `url`, naming `inbox`.
    func publishLists(on url: String, naming inbox: String) throws {
        try publish([UnsignedEvent(pubkey: key.publicKey, createdAt: now - 90, kind: InboxRelayRule.inboxKind, tags: [["relay", inbox]], content: "").signed(with: key),
                     UnsignedEvent(pubkey: key.publicKey, createdAt: now - 90, kind: InboxRelayRule.relayListKind, tags: [["r", inbox]], content: "").signed(with: key)],
                    on: url)
    }

    /// A session with us in it and one post, as the iOS app sends them.
    func sendSession(on url: String, to me: PublicKey) throws {
        let create = LinkstrPayload(conversationID: session, rootID: "op", kind: .sessionCreate, timestamp: now - 50, sessionName: "Free coins",
                                    memberPubkeys: [key.publicKey.hex, me.hex])
        let root = LinkstrPayload(conversationID: session, rootID: "", kind: .root, url: "https://example.com/coins", note: "hi", timestamp: now - 40)
        let events = try [(create, now - 50), (root, now - 40)].map { payload, at in try PeerWraps.wrap(payload, by: key, at: at, to: me, now: now) }
        try publish(events, on: url)
    }

    private func publish(_ events: [NostrEvent], on url: String) throws { try DirectPublish.events(events, to: url) }
}
