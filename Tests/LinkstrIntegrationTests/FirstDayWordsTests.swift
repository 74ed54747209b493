import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 54 (9), the words a new user met: `session list` said "(1 members)", and a YouTube link was
/// labelled `Link` in `posts --json` though the terminal plays it.
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
    }
}
