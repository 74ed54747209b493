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

    /// Issue 14, item 5: ^O writes the note in $EDITOR (a scripted one here), on a private file that is
    /// gone afterwards; the screen comes back with the note in the composer.
    func testTheNoteIsWrittenInTheEditor() throws {
        let relay = try TestRelay()
        let home = try Home.forApp("editor", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Editor"])
        let stubs = try StubTools("editor")
        defer { stubs.remove() }
        let seen = try stubs.install("scripted-editor", script: """
            stat -c '%a' "$1" > "$OUT"; stat -c '%a' "$(dirname "$1")" >> "$OUT"; echo "$1" >> "$OUT"
            printf 'written in the editor\\n' > "$1"
            """)
        let tmux = try Tmux()
        try home.startApp(tmux, "editor", relay: relay.url, environment: ["EDITOR": stubs.directory.appendingPathComponent("scripted-editor").path,
                                                                        "VISUAL": ""])
        try tmux.waitFor("editor", text: "Editor", timeout: 30)
        try tmux.keys("editor", "Enter")
        try tmux.waitFor("editor", text: "no posts yet")
        try tmux.keys("editor", "c")
        try tmux.waitFor("editor", text: "Share a link")
        try tmux.type("editor", "example.com/edited")
        try tmux.keys("editor", "C-o")
        let screen = try tmux.waitFor("editor", text: "written in the editor")
        XCTAssertTrue(screen.contains("example.com/edited"), screen)
        let lines = try String(contentsOf: seen, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(2)), ["600", "700"], "a private file in a private directory")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lines[safe: 2] ?? "/"), "removed afterwards")
        try tmux.keys("editor", "Enter")
        try tmux.waitFor("editor", text: "sent.", timeout: 30)
        try tmux.keys("editor", "C-c")
        XCTAssertEqual(try home.posts(try home.sessions().first?["id"] as? String ?? "").first?["note"] as? String, "written in the editor")
    }
}
