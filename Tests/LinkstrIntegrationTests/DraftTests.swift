import Foundation
import LinkstrTestSupport
import XCTest

/// Nothing typed is lost (issue 14, item 8), in a real terminal: Esc keeps the composer's text as the
/// session's draft, Ctrl-C with text asks and keeps it, and a restart brings it back.
final class DraftTests: XCTestCase {
    func testADraftSurvivesEscCtrlCAndARestart() throws {
        let relay = try TestRelay()
        let home = try Home.forApp("drafts", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Drafts"])
        let tmux = try Tmux()

        try home.startApp(tmux, "draft-one", relay: relay.url)
        try tmux.waitFor("draft-one", text: "Drafts", timeout: 30)
        try tmux.keys("draft-one", "Enter")
        try tmux.waitFor("draft-one", text: "no posts yet")
        try tmux.keys("draft-one", "c")
        try tmux.waitFor("draft-one", text: "Share a link")
        try tmux.type("draft-one", "example.com/half-typed")
        try tmux.keys("draft-one", "Escape")
        try tmux.waitFor("draft-one", text: "draft kept")
        try tmux.keys("draft-one", "c")
        var screen = try tmux.waitFor("draft-one", text: "your draft is back")
        XCTAssertTrue(screen.contains("example.com/half-typed"), screen)
        try tmux.keys("draft-one", "Tab")
        try tmux.type("draft-one", "and a note")
        try tmux.keys("draft-one", "C-c")
        try tmux.waitFor("draft-one", text: "what you typed is kept")
        try tmux.keys("draft-one", "y")
        try tmux.waitFor("draft-one", "the app to quit") { !$0.contains("Drafts") }

        try home.startApp(tmux, "draft-two", relay: relay.url)
        try tmux.waitFor("draft-two", text: "Drafts", timeout: 30)
        try tmux.keys("draft-two", "Enter")
        try tmux.waitFor("draft-two", text: "no posts yet")
        try tmux.keys("draft-two", "c")
        screen = try tmux.waitFor("draft-two", text: "your draft is back")
        XCTAssertTrue(screen.contains("example.com/half-typed") && screen.contains("and a note"), screen)
        try tmux.keys("draft-two", "C-c")
    }

    /// The `:` history is kept across a restart (issue 14, item 3), and Tab completes.
    func testCommandHistorySurvivesARestart() throws {
        let relay = try TestRelay()
        let home = try Home.forApp("history", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "History"])
        let tmux = try Tmux()
        try home.startApp(tmux, "hist-one", relay: relay.url)
        try tmux.waitFor("hist-one", text: "History", timeout: 30)
        try tmux.keys("hist-one", ":")
        try tmux.type("hist-one", "unr")
        try tmux.keys("hist-one", "Tab")
        try tmux.waitFor("hist-one", text: ":unread")
        try tmux.keys("hist-one", "Enter")
        try tmux.waitFor("hist-one", text: "nothing unread.")
        try tmux.keys("hist-one", "C-c")
        try tmux.waitFor("hist-one", "the app to quit") { !$0.contains("History") }

        try home.startApp(tmux, "hist-two", relay: relay.url)
        try tmux.waitFor("hist-two", text: "History", timeout: 30)
        try tmux.keys("hist-two", ":")
        try tmux.keys("hist-two", "Up")
        try tmux.waitFor("hist-two", text: ":unread")
        try tmux.keys("hist-two", "C-c")
    }
}
