import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 54 (3): a multi-line paste into the note joined its lines: tmux and terminals paste line breaks
/// as CR, which the note's cleaning did not count as one. They are kept (shown as ⏎) and sent as lines,
/// under two TERMs.
final class PastedLinesTests: XCTestCase {
    func testAPastedNoteKeepsItsLines() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("pasted-lines", relay: relay.url)
        defer { home.remove() }
        let sid = try home.ok(["session", "create", "Paragraphs"]).trimmed
        try home.writeConfig("link_previews = false\nreopen = false\n")  // each round starts at the list
        for term in ["xterm-256color", "tmux-256color"] {
            let tmux = try Tmux()
            try home.startApp(tmux, "p", relay: relay.url, environment: ["TERM": term])
            try tmux.waitFor("p", text: "Paragraphs", timeout: 30)
            try tmux.keys("p", "Enter")
            try tmux.waitFor("p", text: "‹")
            try tmux.keys("p", "c")
            try tmux.waitFor("p", text: "Share a link")
            try tmux.type("p", "https://example.com/\(term)")
            try tmux.keys("p", "Tab")
            try tmux.paste("p", "first line\nsecond line\n\nafter a blank")
            try tmux.waitFor("p", text: "first line⏎second line⏎⏎after a blank")
            try tmux.keys("p", "Enter")
            try tmux.waitFor("p", text: "sent.", timeout: 20)
            try tmux.keys("p", "C-c")
            _ = try? tmux.waitFor("p", "the app to quit") { !$0.contains("Paragraphs") }
            let note = try home.posts(sid).first { ($0["url"] as? String) == "https://example.com/\(term)" }?["note"] as? String
            XCTAssertEqual(note, "first line\nsecond line\n\nafter a blank", term)
        }
    }
}
