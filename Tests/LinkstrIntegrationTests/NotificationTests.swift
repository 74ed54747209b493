import Foundation
import LinkstrTestSupport
import XCTest

/// Notifications users control (issue 14, item 2), in a real terminal with a stub `notify-send` on PATH:
/// `notify = "desktop"`; nothing for the session on screen while the terminal has focus (focus events
/// sent as the terminal sends them), a notification once it lost focus, none for a muted session;
/// `notify = "off"` silences everything. What they say: who, where and what (the session, the link's host
/// and the note's start) unless `notify = "short"` (who did what).
final class NotificationTests: XCTestCase {
    func testFocusAwareNotificationsAndMute() throws {
        let relay = try TestRelay()
        let a = try Home.forApp("notify-a", relay: relay.url), b = try Home("notify-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (bNpub, _) = try b.createIdentity()
        let aNpub = try a.ok(["identity", "show"]).trimmed.split(separator: "\n").first.map(String.init) ?? ""
        try a.ok(["contacts", "add", bNpub, "--alias", "Bob"])
        let session = try b.ok(["session", "create", "News", "--member", aNpub]).trimmed
        _ = try a.sync()
        let stubs = try StubTools("notify")
        defer { stubs.remove() }
        let log = try stubs.install("notify-send", script: "echo \"$2\" >> \"$OUT\"")
        func notifications() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        try a.writeConfig("link_previews = false\nnotify = \"desktop\"\nreopen = false\n")

        let tmux = try Tmux()
        try a.startApp(tmux, "notify", relay: relay.url, environment: ["PATH": stubs.path])
        try tmux.waitFor("notify", text: "News", timeout: 30)
        try tmux.keys("notify", "Enter")
        try tmux.waitFor("notify", text: "no posts yet")
        // Focused on this session: the post shows, nothing is announced.
        try tmux.tmux(["send-keys", "-t", "notify", "-l", "\u{1B}[I"])
        try b.ok(["post", session, "https://example.com/seen"])
        try tmux.waitFor("notify", text: "example.com/seen", timeout: 30)
        // Focus lost: announced.
        try tmux.tmux(["send-keys", "-t", "notify", "-l", "\u{1B}[O"])
        try b.ok(["post", session, "https://example.com/away", "--note", "look at\nthis"])
        try tmux.waitFor("notify", text: "example.com/away", timeout: 30)
        let full = "Bob shared a post in News: example.com · look at this"
        try tmux.waitFor("notify", "the desktop notification") { _ in notifications() == [full] }
        // Muted: silent even out of focus.
        try tmux.keys("notify", "M")
        try tmux.waitFor("notify", text: "muted News")
        try b.ok(["post", session, "https://example.com/muted"])
        try tmux.waitFor("notify", text: "example.com/muted", timeout: 30)
        try tmux.keys("notify", "C-c")
        XCTAssertEqual(notifications(), [full], "nothing for the muted session")

        // Off: nothing at all, the mute lifted.
        try a.writeConfig("link_previews = false\nnotify = \"off\"\nreopen = false\n")
        try tmux.waitFor("notify", "the app to quit") { !$0.contains("News") }
        try a.startApp(tmux, "notify-off", relay: relay.url, environment: ["PATH": stubs.path])
        try tmux.waitFor("notify-off", text: "News", timeout: 30)
        try tmux.keys("notify-off", "M")
        try tmux.waitFor("notify-off", text: "unmuted News")
        try tmux.tmux(["send-keys", "-t", "notify-off", "-l", "\u{1B}[O"])
        try b.ok(["post", session, "https://example.com/off"])
        try tmux.waitFor("notify-off", "the new post in the list", timeout: 30) { $0.contains("Bob: example.com") && $0.contains("4 ●") }
        try tmux.keys("notify-off", "C-c")
        XCTAssertEqual(notifications(), [full], "notify = off")

        // Short: who did what, nothing of where or what (both ways: the bell and the desktop).
        try a.writeConfig("link_previews = false\nnotify = \"short\"\nreopen = false\n")
        try tmux.waitFor("notify-off", "the app to quit") { !$0.contains("News") }
        try a.startApp(tmux, "notify-short", relay: relay.url, environment: ["PATH": stubs.path])
        try tmux.waitFor("notify-short", text: "News", timeout: 30)
        try tmux.tmux(["send-keys", "-t", "notify-short", "-l", "\u{1B}[O"])
        try b.ok(["post", session, "https://example.com/short", "--note", "a secret plan"])
        try tmux.waitFor("notify-short", "the short notification", timeout: 30) { _ in notifications() == [full, "Bob shared a post"] }
        try tmux.keys("notify-short", "C-c")
    }

    /// Issue 14, item 4: the mouse stays the terminal's (text selection works) unless `mouse = true`.
    func testMouseCaptureIsOffUnlessAskedFor() throws {
        let relay = try TestRelay()
        let home = try Home.forApp("mouse", relay: relay.url)
        defer { home.remove() }
        let tmux = try Tmux()
        func mouseModes(_ window: String) throws -> String {
            try tmux.tmux(["display-message", "-p", "-t", window, "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try home.startApp(tmux, "mouse-off", relay: relay.url)
        try tmux.waitFor("mouse-off", text: "no sessions yet", timeout: 30)
        XCTAssertEqual(try mouseModes("mouse-off"), "000", "no mouse reporting asked of the terminal")
        try tmux.keys("mouse-off", "C-c")
        try home.writeConfig("link_previews = false\nmouse = true\n")
        try home.startApp(tmux, "mouse-on", relay: relay.url)
        try tmux.waitFor("mouse-on", text: "no sessions yet", timeout: 30)
        XCTAssertNotEqual(try mouseModes("mouse-on"), "000", "mouse = true: clicks and the wheel come to the app")
        try tmux.keys("mouse-on", "C-c")
    }
}
