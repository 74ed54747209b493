import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 54 (9), the words a new user met: `session list` said "(1 members)", a YouTube link was
/// labelled `Link` in `posts --json` though the terminal plays it, and `posts` printed our own posts
/// "by npub…".
final class FirstDayWordsTests: XCTestCase {
    func testOneMemberAndAVideoLabel() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        var home = try Home("first-day-words", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let sid = try home.ok(["session", "create", "Alone"]).trimmed
        try home.ok(["post", sid, "https://www.youtube.com/watch?v=dQw4w9WgXcQ"])
        let line = try home.ok(["session", "list"]).out
        XCTAssertTrue(line.contains("Alone  (1 member)"), line)
        XCTAssertEqual(try home.posts(sid).first?["label"] as? String, "Video")
        // A session by its name, or the start of it when only one starts so; several are listed back.
        let weekend = try home.ok(["session", "create", "Weekend films"]).trimmed
        let weekly = try home.ok(["session", "create", "Weekly reading"]).trimmed
        let byName = try home.ok(["post", "weekend", "https://example.com/by-name", "--json"])
        XCTAssertEqual((try byName.json() as? [String: Any])?["session_id"] as? String, weekend)
        let ambiguous = try home.run(["post", "week", "https://example.com/which"])
        XCTAssertEqual(ambiguous.status, 65)
        XCTAssertTrue(ambiguous.err.contains("starts more than one session's name: Weekend films (\(weekend)), Weekly reading (\(weekly))"), ambiguous.err)
        XCTAssertEqual(try home.run(["post", "nothing like it", "https://example.com/none"]).status, 66)
        // A mistyped key is said in a sentence, not a fragment.
        let fresh = try Home("first-day-import", relays: [])
        defer { fresh.remove() }
        let bad = try fresh.run(["identity", "import"], stdin: "nsec1qqqqbad\n")
        XCTAssertEqual(bad.err, "linkstr: not a valid key: it contains a character that bech32 does not use.\n")
        // Our own post is ours in words too.
        let listed = try home.ok(["posts", sid]).out
        XCTAssertTrue(listed.contains("    by you\n"), listed)
    }
}

/// Issue 54 (9): `relays test` against a server that takes the connection and closes it said NIO's words
/// ("Inappropriate operation for state", "read(descriptor:pointer:size:): Connection reset by peer").
final class ClosedConnectionWordsTests: XCTestCase {
    func testAServerThatClosesAtOnceIsSaidInWords() throws {
        let count = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-closing-\(UUID().uuidString)")
        defer { removeTemporary(count) }
        let closing = try InteropServer(script: "counting_tcp.py", arguments: [count.path])
        defer { closing.stop() }
        let home = try Home("closed-words", relays: [])
        defer { home.remove() }
        _ = try home.createIdentity()
        for _ in 0..<3 {
            let r = try home.run(["relays", "test", closing.url, "--json"])
            XCTAssertEqual(r.status, 75, r.err)  // EX_TEMPFAIL: no relay answered
            let summary = (try r.json() as? [[String: Any]])?.first?["summary"] as? String
            XCTAssertEqual(summary, "the server closed the connection before answering", r.out)
        }
    }
}
