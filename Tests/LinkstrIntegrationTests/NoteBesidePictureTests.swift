import Foundation
import LinkstrTestSupport
import XCTest

/// At 80×24 a post with a picture and a long note: the note wins. The picture shrinks so that at least four
/// lines of the note show, scrolling reaches every line, and a note ending in a newline does not keep
/// "… 1 more line" at its end (it once showed none of a three-paragraph note and counted down forever).
final class NoteBesidePictureTests: XCTestCase {
    static let paragraphs = [
        "First paragraph: " + String(repeating: "alpha beta gamma delta ", count: 9) + "end-one.",
        "Second paragraph: " + String(repeating: "epsilon zeta eta theta ", count: 9) + "end-two.",
        "Third paragraph: " + String(repeating: "iota kappa lambda mu ", count: 8) + "last-word.",
    ]

    func testTheNoteShowsBesideAPictureAtEightyByTwentyFour() throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-note-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { removeTemporary(files) }
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 1200, height: 900), width: 1200, height: 900, as: .png)!)
            .write(to: files.appendingPathComponent("tall.png"))
        let relay = try TestRelay()
        defer { relay.stop() }
        let server = try PreviewServer(files: files)
        defer { server.stop() }
        let alice = try Home("note-picture", relays: [relay.url])
        defer { alice.remove() }
        _ = try alice.createIdentity()
        let session = try alice.ok(["session", "create", "Long notes"]).trimmed
        let note = Self.paragraphs.joined(separator: "\n") + "\n"
        XCTAssertGreaterThan(note.count, 600)
        try alice.ok(["post", session, server.url("/page/tall.png"), "--note", note])

        let tmux = try Tmux()
        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("tmux-256color", 80, 24), ("xterm-256color", 120, 36)].enumerated() {
            let w = "n\(i)"
            try alice.startApp(tmux, w, relay: relay.url, environment: ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1", "TERM": term],
                               columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Long notes", timeout: 30)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "Picture tall.png", timeout: 20)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "+ 👍  - 👎  * 👀")
            // The picture is drawn, and still four lines of the note show under it.
            let first = try ThumbnailScreenTests.waitForRed(tmux, w, "the picture in \(term)") { $0 >= 3 }
            let shown = try tmux.waitFor(w, "four lines of the note in \(term)") { screen in
                screen.screenLines.filter { $0.contains("▌ ") && !$0.contains("more line") }.count >= 4
            }
            XCTAssertTrue(shown.contains("First paragraph:"), shown)
            if columns == 80 { XCTAssertTrue(shown.contains("more lines: j/k"), shown) }
            XCTAssertGreaterThanOrEqual(ThumbnailScreenTests.redRows(first), 3)
            // Scrolling shows every line down to the last word, and then says nothing is left below.
            var seen = Set<String>()
            var screen = shown
            for _ in 0..<40 {
                for line in screen.screenLines where line.contains("▌ ") { seen.insert(line) }
                if screen.contains("last-word.") { break }
                try tmux.keys(w, "j")
                let before = screen
                screen = try tmux.waitFor(w, "the note to scroll") { $0 != before }
            }
            XCTAssertTrue(screen.contains("last-word."), "the last line reached:\n\(screen)")
            XCTAssertFalse(screen.contains("more line"), "nothing left below the last line:\n\(screen)")
            for word in ["end-one.", "Second paragraph:", "end-two.", "Third paragraph:"] {
                XCTAssertTrue(seen.contains { $0.contains(word) }, "\(word) was on screen while scrolling")
            }
            try tmux.keys(w, "j", "j")
            usleep(300_000)
            XCTAssertFalse(try tmux.screen(w).contains("more line"), "j past the end does not bring a line back")
            try tmux.keys(w, "Escape", "Escape", "q")
            try tmux.waitFor(w, "the app to exit") { !$0.contains("1 Sessions") }
        }
    }
}
