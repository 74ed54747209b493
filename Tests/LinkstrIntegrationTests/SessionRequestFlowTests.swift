import Foundation
import LinkstrTestSupport
import XCTest

/// Sessions from strangers wait as requests (issue 18), end to end over a real relay: the CLI's lists,
/// accept and decline with `--json`; the app in tmux shows a stranger's session only under requests,
/// without a notification, a dot or a preview fetch, and a contact's session as usual.
final class SessionRequestFlowTests: XCTestCase {
    func testCLIListsAcceptsAndDeclinesRequests() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let bob = try Home("req-bob", relays: [relay.url]), carol = try Home("req-carol", relays: [relay.url])
        let mallory = try Home("req-mallory", relays: [relay.url])
        defer { [bob, carol, mallory].forEach { $0.remove() } }
        let b = try bob.createIdentity(), c = try carol.createIdentity()
        _ = try mallory.createIdentity()
        try bob.ok(["contacts", "add", c.npub, "--alias", "Carol"])
        let spam = try mallory.ok(["session", "create", "Free coins", "--member", b.npub]).trimmed
        let spamPost = try mallory.ok(["post", spam, "https://example.com/coins"]).trimmed
        let film = try carol.ok(["session", "create", "Film night", "--member", b.npub]).trimmed
        try carol.ok(["post", film, "https://example.com/film"])
        _ = try bob.sync()

        func ids(_ rows: [[String: Any]]) -> [String] { rows.compactMap { $0["id"] as? String } }
        func requests() throws -> [[String: Any]] { try bob.ok(["session", "list", "--requests", "--json"]).json() as! [[String: Any]] }
        XCTAssertEqual(ids(try bob.sessions()), [film])
        XCTAssertEqual(try bob.sessions().first?["standing"] as? String, "listed")
        let waiting = try requests()
        XCTAssertEqual(ids(waiting), [spam])
        XCTAssertEqual(waiting.first?["standing"] as? String, "request")
        XCTAssertEqual(waiting.first?["unread"] as? Bool, false, "a request shows nothing unread")
        XCTAssertEqual(ids(try bob.posts(spam)), [spamPost], "its posts are kept meanwhile")
        XCTAssertTrue(try bob.ok(["session", "list", "--requests"]).out.contains("Free coins  (2 members, request)"))
        let both = try bob.run(["session", "list", "--requests", "--archived"])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.err.contains("choose one of --archived and --requests."), both.err)

        // Nothing reaches a stranger before an accept: no post, no reaction, no preview of their links.
        let post = try bob.run(["post", spam, "https://example.com/hi"])
        XCTAssertEqual(post.status, 1)
        XCTAssertEqual(post.err, "linkstr: that session is a request from someone who is not your contact: accept it first (`session accept \(spam)`, or y in the requests list).\n")
        XCTAssertEqual(try bob.run(["react", spamPost, "👍"]).status, 1)
        let preview = try bob.run(["preview", spamPost])
        XCTAssertEqual(preview.status, 1)
        XCTAssertEqual(preview.err, "linkstr: that post is in a session request: accept the session first (`linkstr session accept \(spam)`).\n")

        // Decline: hidden, kept in the requests list as declined; accept undoes it.
        let declined = try bob.ok(["session", "decline", spam, "--json"]).json() as! [String: Any]
        XCTAssertEqual(declined["standing"] as? String, "declined")
        XCTAssertEqual(ids(try bob.sessions()), [film])
        XCTAssertEqual(try requests().first?["standing"] as? String, "declined")
        let notRequest = try bob.run(["session", "decline", film])
        XCTAssertEqual(notRequest.status, 1)
        XCTAssertEqual(notRequest.err, "linkstr: that session is in your list, not a request.\n")
        XCTAssertEqual(try bob.run(["session", "accept", "0000"]).err, "linkstr: no session with that id.\n")
        let accepted = try bob.ok(["session", "accept", spam, "--json"]).json() as! [String: Any]
        XCTAssertEqual(accepted["standing"] as? String, "listed")
        XCTAssertEqual(Set(ids(try bob.sessions())), [spam, film])
        XCTAssertEqual(try requests().count, 0)
        try bob.ok(["post", spam, "https://example.com/thanks"])

        // Turned off, a stranger's new session is listed as before.
        let other = try mallory.ok(["session", "create", "More coins", "--member", b.npub]).trimmed
        _ = try bob.sync()
        XCTAssertEqual(ids(try requests()), [other])
        try bob.writeConfig("session_requests = false\n")
        XCTAssertTrue(ids(try bob.sessions()).contains(other))
        XCTAssertEqual(try requests().count, 0)
    }

    func testTheAppHoldsAStrangersSessionQuietlyUntilAccepted() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let server = try PreviewServer()
        defer { server.stop() }
        let tmux = try Tmux()
        let bob = try Home("req-app-bob", relays: [relay.url]), carol = try Home("req-app-carol", relays: [relay.url])
        let mallory = try Home("req-app-mallory", relays: [relay.url])
        defer { [bob, carol, mallory].forEach { $0.remove() } }
        let b = try bob.createIdentity(), c = try carol.createIdentity()
        _ = try mallory.createIdentity()
        try bob.ok(["contacts", "add", c.npub, "--alias", "Carol"])

        // Desktop notifications are observed through the notify-send the app runs.
        let tools = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-tools-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tools) }
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let notified = tools.appendingPathComponent("notified.log")
        let notifySend = tools.appendingPathComponent("notify-send")
        try "#!/bin/sh\necho \"$*\" >> '\(notified.path)'\n".write(to: notifySend, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: notifySend.path)
        func notifications() -> [String] { ((try? String(contentsOf: notified, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        try bob.startApp(tmux, "b", relay: relay.url, environment: [
            "LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1", "PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
        try tmux.waitFor("b", text: "no sessions yet", timeout: 30)

        // The stranger's session and post go first, the contact's after them.
        let spam = try mallory.ok(["session", "create", "Free coins", "--member", b.npub]).trimmed
        try mallory.ok(["post", spam, server.url("/og")])
        let film = try carol.ok(["session", "create", "Film night", "--member", b.npub]).trimmed
        try carol.ok(["post", film, server.url("/title-only")])

        var screen = try tmux.waitFor("b", "the contact's session and one request", timeout: 30) {
            $0.contains("Film night") && $0.contains("(R: 1 request)")
        }
        XCTAssertFalse(screen.contains("Free coins"), "a request is not in the list")
        try tmux.waitFor("b", "Carol's notification", timeout: 20) { _ in notifications().contains { $0.contains("Carol shared a post") } }
        XCTAssertEqual(notifications().count, 1, "only the contact's post notifies: \(notifications())")

        // Opening Carol's session fetches its preview; marked read, nothing is unread in the list.
        try tmux.keys("b", "Enter")
        try tmux.waitFor("b", text: "Plain title", timeout: 20)
        try tmux.keys("b", "r")
        try tmux.waitFor("b", text: "marked Film night read.")
        try tmux.keys("b", "Escape")
        try tmux.waitFor("b", text: "Enter open · n new")
        try tmux.keys("b", "3")
        screen = try tmux.waitFor("b", text: "3 You")
        let tabBar = Array(screen.screenLines.first { $0.contains("1 Sessions") } ?? "")
        XCTAssertNotEqual(tabBar[safe: 12], "●", "no unread dot on the tab for a request: \(String(tabBar))")
        try tmux.keys("b", "1")

        // The requests list: who asked, no dot; looking at it fetches nothing.
        try tmux.keys("b", "R")
        screen = try tmux.waitFor("b", text: "Session requests")
        screen = try tmux.waitFor("b", text: "Free coins")
        let row = screen.screenLines.first { $0.contains("from ") } ?? ""
        XCTAssertTrue(row.contains("2 members"), row)
        XCTAssertFalse(row.contains("●"), row)
        try tmux.waitFor("b", text: "y accept · x decline/undo")
        try tmux.keys("b", "Enter")
        try tmux.waitFor("b", text: "request: y accept · x decline")
        try tmux.waitFor("b", text: "127.0.0.1:\(server.port)/og")
        try tmux.keys("b", "Enter")
        try tmux.waitFor("b", text: "+ 👍  - 👎  * 👀")
        try tmux.keys("b", "Escape")
        try tmux.waitFor("b", text: "request: y accept · x decline")
        try tmux.keys("b", "c")
        try tmux.waitFor("b", text: "this is a session request: accept it first")
        XCTAssertEqual(server.requests, ["/title-only"], "nothing of the request was fetched")

        // Accepted: it joins the list and its link's title is fetched now.
        try tmux.keys("b", "y")
        try tmux.waitFor("b", text: "accepted Free coins")
        try tmux.waitFor("b", text: "Café & Films", timeout: 20)
        XCTAssertEqual(server.requests, ["/title-only", "/og"])
        try tmux.keys("b", "Escape")
        try tmux.waitFor("b", text: "no session requests")
        try tmux.keys("b", "Escape")
        screen = try tmux.waitFor("b", "both sessions listed") { $0.contains("Free coins") && $0.contains("Film night") && !$0.contains("(R:") }
        XCTAssertEqual(notifications().count, 1)
        try tmux.keys("b", "q")
        try tmux.waitFor("b", "the app to exit") { !$0.contains("1 Sessions") }
    }
}
