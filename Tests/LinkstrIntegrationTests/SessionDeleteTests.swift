import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `session_delete` (wire 2026 §1) through the CLI against real relays, and from the "iOS side" built by
/// rust-nostr.
final class SessionDeleteTests: XCTestCase {
    /// The creator deletes: current and former members lose the session, a non-creator cannot delete,
    /// and the best-effort kind 5 names the wraps of every root post.
    func testTheCreatorDeletesASessionForCurrentAndFormerMembers() throws {
        let relay = try TestRelay()
        let a = try Home("del-a", relays: [relay.url]), b = try Home("del-b", relays: [relay.url]), c = try Home("del-c", relays: [relay.url])
        defer { [a, b, c].forEach { $0.remove() } }
        let (_, aHex) = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        let (cNpub, _) = try c.createIdentity()
        let session = try a.ok(["session", "create", "Short-lived", "--member", bNpub, "--member", cNpub]).trimmed
        let post = try a.ok(["post", session, "https://example.com/doomed", "--note", "soon gone"]).trimmed
        try a.ok(["session", "members", session, "--set", bNpub])  // c is a former member now
        for home in [b, c] { _ = try home.sync(); try home.acceptRequests() }
        try b.ok(["react", post, "👍"])
        _ = try b.ok(["post", session, "https://example.com/reply"])
        XCTAssertEqual(try b.posts(session).count, 2)

        let refused = try b.run(["session", "delete", session, "--yes"])
        XCTAssertEqual(refused.status, 65)
        XCTAssertTrue(refused.err.contains("creator"), refused.err)
        XCTAssertEqual(try a.run(["session", "delete", session]).status, 64, "no --yes, no delete")

        _ = try a.sync()
        let wrapsBefore = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [1059]]).count
        let out = try a.ok(["session", "delete", session, "--yes", "--json"]).json() as? [String: Any] ?? [:]
        XCTAssertEqual(out["deleted"] as? Bool, true)
        XCTAssertFalse(try a.sessions().contains { $0["id"] as? String == session })
        XCTAssertNotEqual(try a.run(["posts", session, "--json"]).status, 0, "nothing of it is left here")

        for home in [b, c] {
            _ = try home.sync()
            XCTAssertFalse(try home.sessions().contains { $0["id"] as? String == session }, home.directory.path)
            let requests = try home.ok(["session", "list", "--requests", "--json"]).json() as? [[String: Any]] ?? []
            XCTAssertFalse(requests.contains { $0["id"] as? String == session })
            XCTAssertNotEqual(try home.run(["posts", session, "--json"]).status, 0)
        }
        // The relay deletion request: signed by the creator, naming the root posts' wraps.
        let requests = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [5], "authors": [aHex]])
        let request = try XCTUnwrap(requests.first { $0["content"] as? String == "linkstr session deletion request" })
        let tags = request["tags"] as? [[String]] ?? []
        XCTAssertEqual(tags.last, ["k", "1059"])
        XCTAssertEqual(tags.filter { $0.first == "e" }.count, 4, "a's post: its three wraps; b's reply: the one wrap a holds")
        XCTAssertGreaterThan(wrapsBefore, 0)
    }

    /// Exactly what the iOS app sends (spec §1.1 shape, built and wrapped by rust-nostr): the creator's
    /// delete removes the session, a member's is ignored, and a delete that arrives before its session
    /// waits and applies when the session does (T-SD: delete 2000, root 1500, create 1400).
    func testDeletesFromTheIOSSide() throws {
        let nostrRelay = try TestRelay(), rust = try RustRelay.start()
        do {
            for url in [nostrRelay.url, rust.url] {
                let home = try Home("ios-del", relays: [url])
                defer { home.remove() }
                let (_, meHex) = try home.createIdentity()
                let me = try PublicKey(hex: meHex)
                let phone = SecretKey.generate(), member = SecretKey.generate()
                let people = [me, phone.publicKey, member.publicKey]
                func send(_ json: String, from sender: SecretKey = phone, at t: Int64, tags: [[String]] = []) throws {
                    try RustNostrPeer.send(relay: url, sender: sender, to: people, content: json, tags: tags, at: t)
                }
                let now = Int64(Date().timeIntervalSince1970)
                let keep = "3F2504E04F8911D39A0C0305E82C3301", gone = "3F2504E04F8911D39A0C0305E82C3302", early = "3F2504E04F8911D39A0C0305E82C3303"
                let members = "[\"\(meHex)\",\"\(phone.publicKey.hex)\",\"\(member.publicKey.hex)\"]"
                for sid in [keep, gone] {
                    try send(#"{"conversation_id":"\#(sid)","root_id":"","kind":"session_create","timestamp":\#(now - 100),"session_name":"From the phone","member_pubkeys":\#(members)}"#, at: now - 100)
                    try send(#"{"conversation_id":"\#(sid)","root_id":"","kind":"root","url":"https:\/\/example.com\/\#(sid)","timestamp":\#(now - 90)}"#, at: now - 90)
                }
                // The spec's literal shape: a fresh uppercase operation id, nothing else.
                try send(#"{"conversation_id":"\#(gone)","root_id":"9B1DEB4D3B7D4BAD9BDD2B0D7B3DCB6D","kind":"session_delete","timestamp":\#(now - 50)}"#, at: now - 50)
                // A member (not the creator) cannot delete.
                try send(#"{"conversation_id":"\#(keep)","root_id":"9B1DEB4D3B7D4BAD9BDD2B0D7B3DCB6E","kind":"session_delete","timestamp":\#(now - 40)}"#,
                         from: member, at: now - 40)
                // A delete without an operation id is invalid (root_id must not be blank).
                try send(#"{"conversation_id":"\#(keep)","root_id":"  ","kind":"session_delete","timestamp":\#(now - 30)}"#, at: now - 30)
                // T-SD: the delete is the newest, the create the oldest; the history arrives newest first.
                try send(#"{"conversation_id":"\#(early)","root_id":"9B1DEB4D3B7D4BAD9BDD2B0D7B3DCB6F","kind":"session_delete","timestamp":2000}"#, at: 2000)
                try send(#"{"conversation_id":"\#(early)","root_id":"","kind":"root","url":"https:\/\/example.com\/early","timestamp":1500}"#, at: 1500)
                try send(#"{"conversation_id":"\#(early)","root_id":"","kind":"session_create","timestamp":1400,"session_name":"Early","member_pubkeys":\#(members)}"#, at: 1400)

                let stats = try home.sync()
                XCTAssertEqual(stats["invalid"] as? Int, 1, "the delete without an operation id is refused")
                try home.acceptRequests()
                let listed = Set(try home.sessions().compactMap { $0["id"] as? String })
                let requests = Set((try home.ok(["session", "list", "--requests", "--json"]).json() as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                XCTAssertEqual(listed, [keep], url)
                XCTAssertTrue(requests.isDisjoint(with: [gone, early]), url)
                XCTAssertEqual(try home.posts(keep).count, 1, url)
            }
        }
    }
}

/// The terminal app: the creator deletes from the command line after a confirmation, and a member who
/// has the session open is taken back to the list with a word (two apps, one relay, tmux).
final class SessionDeleteAppTests: XCTestCase {
    func testTheCreatorDeletesInTheAppAndTheSessionLeavesAMembersScreen() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        let bob = try Home("del-app-bob", relays: [relay.url]), carol = try Home("del-app-carol", relays: [relay.url])
        defer { [bob, carol].forEach { $0.remove() } }
        let (bNpub, _) = try bob.createIdentity(), (cNpub, _) = try carol.createIdentity()
        for home in [bob, carol] { try home.writeConfig("link_previews = false\n") }
        try bob.ok(["contacts", "add", cNpub, "--alias", "Carol"])
        let session = try carol.ok(["session", "create", "Doomed club", "--member", bNpub]).trimmed
        try carol.ok(["post", session, "https://example.com/last-words"])

        try bob.startApp(tmux, "bob", relay: relay.url)
        try tmux.waitFor("bob", text: "Doomed club", timeout: 30)
        try tmux.keys("bob", "Enter")
        try tmux.waitFor("bob", text: "c share a link", timeout: 20)  // the feed is open

        try carol.startApp(tmux, "carol", relay: relay.url)
        try tmux.waitFor("carol", text: "Doomed club", timeout: 30)
        try tmux.keys("carol", "Enter")
        try tmux.waitFor("carol", text: "c share a link", timeout: 20)
        try tmux.keys("carol", ":")
        try tmux.type("carol", "delete-session")
        try tmux.keys("carol", "Enter")
        try tmux.waitFor("carol", text: "for every member, for good? (y/n)")
        try tmux.keys("carol", "y")
        var screen = try tmux.waitFor("carol", text: "session deleted for everyone", timeout: 30)
        XCTAssertFalse(screen.contains("Doomed club"), screen)

        screen = try tmux.waitFor("bob", text: "that session was deleted by its creator.", timeout: 30)
        XCTAssertFalse(screen.contains("last-words"), screen)
        XCTAssertFalse(screen.contains("Doomed club"), screen)
    }
}
