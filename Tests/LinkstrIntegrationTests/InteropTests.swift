import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// linkstr and a rust-nostr peer speaking the iOS wire format (wire document §2) through a real relay.
final class InteropTests: XCTestCase {
    /// Parses a payload with Foundation, as a strict reader of §2 would, and returns its keys and values.
    private func payload(_ gift: [String: Any]) throws -> [String: Any] {
        let rumor = gift["rumor"] as! [String: Any]
        XCTAssertEqual(rumor["kind"] as? Int, 44001)
        XCTAssertNil(rumor["sig"], "rumors are unsigned")
        return try JSONSerialization.jsonObject(with: Data((rumor["content"] as! String).utf8)) as! [String: Any]
    }

    private func assertKeys(_ p: [String: Any], _ keys: Set<String>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Set(p.keys), keys, "payload keys", file: file, line: line)
        for (k, v) in p { XCTAssertFalse(v is NSNull, "\(k) must be omitted, not null", file: file, line: line) }
    }

    func testIOSShapedPayloadsInBothDirections() throws {
        let relay = try TestRelay()
        let a = try Home("interop", relays: [relay.url])
        defer { a.remove() }
        let (_, aHex) = try a.createIdentity()
        let peer = SecretKey.generate()
        let aKey = try PublicKey(hex: aHex)

        // Ours → rust-nostr: session_create, root, reaction, root_delete.
        let session = try a.ok(["session", "create", "Interop", "--member", peer.publicKey.npub]).trimmed
        let ourPost = try a.ok(["post", session, "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1", "--note", "from the terminal ✓"]).trimmed
        var seen = try RustNostrPeer.fetch(relay: relay.url, recipient: peer)
        XCTAssertEqual(seen.errors, [])
        XCTAssertTrue(seen.gifts.allSatisfy { $0["sender"] as? String == aHex })
        XCTAssertEqual(seen.gifts.count, 2)
        for gift in seen.gifts { XCTAssertEqual(gift["sender"] as? String, aHex) }
        let byKind = Dictionary(try seen.gifts.map { (try payload($0)["kind"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        let create = try payload(byKind["session_create"]!)
        assertKeys(create, ["conversation_id", "root_id", "kind", "session_name", "member_pubkeys", "timestamp"])
        XCTAssertEqual(create["conversation_id"] as? String, session)
        XCTAssertTrue((create["conversation_id"] as! String).allSatisfy { $0.isHexDigit && !$0.isLowercase })
        XCTAssertEqual((create["root_id"] as? String)?.count, 32)
        XCTAssertEqual(create["session_name"] as? String, "Interop")
        XCTAssertEqual(create["member_pubkeys"] as? [String], [aHex, peer.publicKey.hex], "own key first")
        XCTAssertTrue(create["timestamp"] is Int)
        XCTAssertEqual((byKind["session_create"]!["rumor"] as! [String: Any])["tags"] as? [[String]], [])
        let root = try payload(byKind["root"]!)
        assertKeys(root, ["conversation_id", "root_id", "kind", "url", "note", "timestamp"])
        XCTAssertEqual(root["root_id"] as? String, "")
        XCTAssertEqual(root["url"] as? String, "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1")
        XCTAssertEqual(root["note"] as? String, "from the terminal ✓")
        XCTAssertEqual((byKind["root"]!["rumor"] as! [String: Any])["id"] as? String, ourPost, "post id = rumor id")

        // rust-nostr → ours: exactly what iOS sends (escaped slashes, keys in iOS order).
        let now = Int64(Date().timeIntervalSince1970)
        let iosRoot = #"{"conversation_id":"\#(session)","root_id":"","kind":"root","url":"https:\/\/vm.tiktok.com\/ZMabc\/","note":"from ios","timestamp":\#(now)}"#
        try RustNostrPeer.send(relay: relay.url, sender: peer, to: [aKey, peer.publicKey], content: iosRoot, at: now)
        let iosReaction = #"{"conversation_id":"\#(session)","root_id":"\#(ourPost)","kind":"reaction","timestamp":\#(now),"emoji":"👀","reaction_active":true}"#
        try RustNostrPeer.send(relay: relay.url, sender: peer, to: [aKey, peer.publicKey], content: iosReaction,
                               tags: [["e", ourPost, "", "root"]], at: now)
        _ = try a.sync()
        let posts = try a.posts(session)
        XCTAssertEqual(posts.count, 2)
        let theirs = posts.first { $0["author"] as? String == peer.publicKey.hex }!
        XCTAssertEqual(theirs["url"] as? String, "https://vm.tiktok.com/ZMabc/")
        XCTAssertEqual(theirs["note"] as? String, "from ios")
        XCTAssertEqual(theirs["label"] as? String, "Video")
        XCTAssertEqual(theirs["unread"] as? Bool, true)
        let mine = posts.first { $0["id"] as? String == ourPost }!
        XCTAssertEqual((mine["reactions"] as! [[String: Any]]).first?["by"] as? [String], [peer.publicKey.hex])

        // Our reaction and delete, as rust-nostr reads them.
        let theirID = theirs["id"] as! String
        try a.ok(["react", theirID, "👍"])
        try a.ok(["delete", ourPost])
        seen = try RustNostrPeer.fetch(relay: relay.url, recipient: peer)
        let later = try seen.gifts.filter { $0["sender"] as? String == aHex }.map { ($0, try payload($0)) }
        let reaction = later.first { $0.1["kind"] as? String == "reaction" }!
        assertKeys(reaction.1, ["conversation_id", "root_id", "kind", "emoji", "reaction_active", "timestamp"])
        XCTAssertEqual(reaction.1["root_id"] as? String, theirID)
        XCTAssertEqual(reaction.1["emoji"] as? String, "👍")
        XCTAssertEqual(reaction.1["reaction_active"] as? Bool, true)
        XCTAssertTrue(reaction.1["reaction_active"].map { type(of: $0) == type(of: NSNumber(value: true)) } ?? false)
        XCTAssertEqual((reaction.0["rumor"] as! [String: Any])["tags"] as? [[String]], [["e", theirID, "", "root"]])
        let delete = later.first { $0.1["kind"] as? String == "root_delete" }!
        assertKeys(delete.1, ["conversation_id", "root_id", "kind", "timestamp"])
        XCTAssertEqual(delete.1["root_id"] as? String, ourPost)
        XCTAssertEqual((delete.0["rumor"] as! [String: Any])["tags"] as? [[String]], [["e", ourPost, "", "root"]])
        print("interop: rust-nostr opened \(seen.gifts.count) wraps from linkstr; linkstr ingested iOS-shaped root and reaction")
    }

    /// A relay that serves nothing until the reader authenticates (NIP-42).
    func testTheFlowWorksAgainstARelayThatRequiresAuthToRead() throws {
        let a = try Home("auth-a", relays: []), b = try Home("auth-b", relays: [])
        defer { a.remove(); b.remove() }
        let (_, aHex) = try a.createIdentity()
        let (bNpub, bHex) = try b.createIdentity()
        let relay = try TestRelay(requireAuthToRead: true, readers: [aHex, bHex])
        // Without AUTH the relay serves nothing (checked with the rust-nostr peer, which does not authenticate).
        let session = try a.ok(["session", "create", "Private", "--member", bNpub], relays: [relay.url]).trimmed
        let stranger = try RustNostrPeer.fetch(relay: relay.url, recipient: SecretKey.generate(), timeout: 3)
        XCTAssertEqual(stranger.gifts.count, 0)
        XCTAssertEqual(stranger.errors, ["timed out before EOSE"], "the relay refused the anonymous REQ")
        let synced = try b.ok(["sync", "--json", "--timeout", "20"], relays: [relay.url]).json() as! [String: Any]
        XCTAssertEqual(synced["applied"] as? Int, 1)
        try b.acceptRequests()
        XCTAssertEqual(try b.sessions().map { $0["id"] as? String }, [session])
        let post = try b.ok(["post", session, "https://example.com/authed"], relays: [relay.url]).trimmed
        _ = try a.ok(["sync", "--json", "--timeout", "20"], relays: [relay.url])
        XCTAssertEqual(try a.posts(session).map { $0["id"] as? String }, [post])
    }
}
