import Foundation
import LinkstrTUI
import LinkstrTestSupport
import XCTest

/// Two real `linkstr` apps in tmux against a real relay: onboarding, contacts, a session, a post pasted
/// into the composer, its arrival with an unread dot on the other side, relay health dots through a
/// relay restart, and the nsec kept off the screen until revealed.
final class TUIEndToEndTests: XCTestCase {
    func testTwoAppsShareASessionThroughARealRelayInARealTerminal() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        let binary = try TestEnvironment.builtProduct("linkstr")
        let homeA = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-tui-a-\(UUID().uuidString)")
        var bob = try Home("tui-b", relays: [relay.url])
        defer { try? FileManager.default.removeItem(at: homeA); bob.remove() }
        let bobKey = try bob.createIdentity()
        bob.relays = [relay.url]
        // The shared link is youtube.com: no preview fetches leave this machine in tests.
        try bob.writeConfig("link_previews = false\n")
        try Home.writeConfig("link_previews = false\n", home: homeA)

        // Alice: a new account through onboarding, in the terminal.
        try tmux.start("a", [binary.path, "--home", homeA.path, "--relay", relay.url], environment: ["LINKSTR_PASSPHRASE": ""])
        try tmux.waitFor("a", text: "Create a new account")
        try tmux.keys("a", "c")
        try tmux.waitFor("a", text: "A profile name")
        try tmux.submit("a", "Alice")
        try tmux.waitFor("a", text: "Choose a passphrase")
        try tmux.submit("a", "pass phrase")
        try tmux.submit("a", "pass phrase")
        var screen = try tmux.waitFor("a", text: "Your account is ready", timeout: 30)
        XCTAssertFalse(screen.contains("nsec1"), "the backup step shows the key only on request:\n\(screen)")
        try tmux.keys("a", "r")
        screen = try tmux.waitFor("a", text: "nsec1")
        let nsec = try XCTUnwrap(screen.screenLines.first { $0.contains("nsec1") }?.trimmingCharacters(in: .whitespaces))
        try tmux.keys("a", "Enter")
        try tmux.waitFor("a", text: "no sessions yet")

        // Settings: the relay's dot turns connected; the nsec is not on screen until revealed.
        try tmux.keys("a", "4")
        screen = try tmux.waitFor("a", "the relay connected") { $0.contains("1 / 1 connected") && $0.contains(relay.url) }
        XCTAssertFalse(screen.contains("nsec1"))
        let theme = try Theme.load("night", configDirectory: nil)
        let connectedSGR = "38;5;\(ColorMapper.nearest256(theme.foreground[.dotConnected]!))"
        let failedSGR = "38;5;\(ColorMapper.nearest256(theme.foreground[.dotFailed]!))"
        XCTAssertEqual(foregroundSGR(of: "●", onLineContaining: relay.url, in: try tmux.screen("a", escapes: true)), connectedSGR)
        try tmux.keys("a", "S")
        try tmux.waitFor("a", text: "show your secret key")
        XCTAssertFalse(try tmux.screen("a").contains("nsec1"), "asking is not revealing")
        try tmux.keys("a", "y")
        screen = try tmux.waitFor("a", text: "hidden in")
        XCTAssertTrue(screen.contains(nsec), "the revealed key is the account's key")
        try tmux.keys("a", "1")
        screen = try tmux.waitFor("a", text: "no sessions yet")
        XCTAssertFalse(screen.contains("nsec1"), "leaving Settings hides it")
        try tmux.keys("a", "4")
        screen = try tmux.waitFor("a", text: "S show secret key")
        XCTAssertFalse(screen.contains("nsec1"))

        // Alice adds Bob as a contact by pasting his npub, then creates a session with him.
        try tmux.keys("a", "3")
        try tmux.waitFor("a", text: "Contacts (0)")
        try tmux.keys("a", "a")
        try tmux.waitFor("a", text: "Add contact")
        try tmux.paste("a", bobKey.npub)
        try tmux.waitFor("a", text: "✓ npub1")
        try tmux.keys("a", "Enter")
        try tmux.submit("a", "Bob")
        try tmux.waitFor("a", text: "contact added.", timeout: 20)
        try tmux.keys("a", "1")
        try tmux.keys("a", "n")
        try tmux.waitFor("a", text: "New session")
        // Tab to the members (Enter would create it at once, with nobody else: issue 54).
        try tmux.type("a", "Movie night")
        try tmux.keys("a", "Tab")
        try tmux.keys("a", "Space")
        try tmux.waitFor("a", text: "[x] Bob")
        try tmux.keys("a", "Enter")
        try tmux.waitFor("a", text: "session created.", timeout: 20)

        // Bob's app starts (unlocked from the environment) and sees the session as a request (Alice is
        // not his contact), which he accepts.
        try tmux.start("b", [binary.path, "--home", bob.directory.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": "correct horse battery staple"])
        try tmux.waitFor("b", text: "(R: 1 request)", timeout: 30)
        try tmux.keys("b", "R")
        try tmux.waitFor("b", text: "Movie night")
        try tmux.keys("b", "y")
        try tmux.waitFor("b", text: "accepted Movie night")
        try tmux.keys("b", "Escape")
        try tmux.waitFor("b", "Movie night in Bob's list") { $0.contains("Movie night") && $0.contains("Enter open · n new") }

        // Alice shares a link with a note, both pasted (bracketed) into the composer.
        try tmux.keys("a", "c")
        try tmux.waitFor("a", text: "Share a link")
        try tmux.paste("a", "youtube.com/watch?v=dQw4w9WgXcQ")
        try tmux.waitFor("a", text: "▶ youtube")
        try tmux.keys("a", "Enter")
        try tmux.paste("a", "a classic,\nworth it")
        try tmux.waitFor("a", text: "a classic,⏎worth it")  // its line kept (issue 54)
        try tmux.keys("a", "Enter")
        try tmux.waitFor("a", text: "sent.", timeout: 20)
        try tmux.waitFor("a", text: "[Video] https://youtube.com/watch?v=dQw4w9WgXcQ")

        // Bob: the post arrives, with an unread dot on the session row. Opening the session marks nothing
        // (as in the iOS app); r marks it all read.
        screen = try tmux.waitFor("b", "the unread dot on Movie night", timeout: 30) { s in
            let lines = s.screenLines
            guard let row = lines.firstIndex(where: { $0.contains("Movie night") }), row + 1 < lines.count else { return false }
            return lines[row + 1].contains("●")
        }
        try tmux.keys("b", "Enter")
        screen = try tmux.waitFor("b", text: "▌ a classic, worth it")
        XCTAssertTrue(screen.contains("https://youtube.com/watch?v=dQw4w9WgXcQ"))
        // Bob has no alias for Alice: her post carries the profile name she chose at onboarding (kind 0).
        try tmux.waitFor("b", text: "Alice  ", timeout: 20)
        try tmux.keys("b", "Escape")
        screen = try tmux.waitFor("b", "the list, the dot still there") { s in
            let lines = s.screenLines
            guard let row = lines.firstIndex(where: { $0.contains("Movie night") }), row + 1 < lines.count else { return false }
            return lines[row + 1].contains("●") && s.contains("Enter open · n new")
        }
        try tmux.keys("b", "r")
        try tmux.waitFor("b", text: "marked Movie night read.")
        screen = try tmux.waitFor("b", "the list without the dot") { s in
            let lines = s.screenLines
            guard let row = lines.firstIndex(where: { $0.contains("Movie night") }), row + 1 < lines.count else { return false }
            return !lines[row + 1].contains("●") && !lines[row].contains("●")
        }

        // Bob reacts 👍 from the post's detail; Alice sees it on her card.
        try tmux.keys("b", "Enter")
        try tmux.waitFor("b", text: "a classic")
        try tmux.keys("b", "Enter")
        try tmux.waitFor("b", text: "+ 👍  - 👎  * 👀")
        try tmux.keys("b", "+")
        try tmux.waitFor("b", text: "reacted 👍", timeout: 20)
        try tmux.waitFor("a", text: "👍", timeout: 20)

        // The relay stops mid-run: the dot turns failed; after a restart it is connected again.
        try tmux.keys("a", "4")
        try tmux.waitFor("a", text: "1 / 1 connected")
        relay.stop()
        try tmux.waitFor("a", "the failed dot", timeout: 20) { $0.contains("0 / 1 connected") && $0.contains("failed") }
        XCTAssertEqual(foregroundSGR(of: "●", onLineContaining: relay.url, in: try tmux.screen("a", escapes: true)), failedSGR)
        try relay.start()
        try tmux.waitFor("a", "connected again", timeout: 40) { $0.contains("1 / 1 connected") }
        XCTAssertEqual(foregroundSGR(of: "●", onLineContaining: relay.url, in: try tmux.screen("a", escapes: true)), connectedSGR)

        // Both quit cleanly: q leaves the app and the shell's sleep remains.
        // (Escape and q as one write would read as Alt-q, so Bob's come one at a time.)
        try tmux.keys("a", "q")
        // In a nested view q means back, as Escape does: detail → feed → list, then q quits.
        try tmux.keys("b", "Escape")
        try tmux.waitFor("b", "the post detail to close") { !$0.contains("+ 👍  - 👎  * 👀") }
        try tmux.keys("b", "q")
        try tmux.waitFor("b", text: "Enter open · n new")
        try tmux.keys("b", "q")
        try tmux.waitFor("a", "the app to exit") { !$0.contains("1 Sessions") }
        try tmux.waitFor("b", "the app to exit") { !$0.contains("1 Sessions") }
    }

    /// A shared page's title (link preview) appears on the post in the app, fetched in the background.
    func testThePageTitleOfASharedLinkAppearsInTheFeed() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let server = try PreviewServer()
        defer { server.stop() }
        let tmux = try Tmux()
        var home = try Home("tui-preview", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let session = try home.ok(["session", "create", "Reading"]).trimmed
        try home.ok(["post", session, server.url("/og"), "--note", "worth it"])
        try tmux.start("p", [try TestEnvironment.builtProduct("linkstr").path, "--home", home.directory.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": "correct horse battery staple", "LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"])
        try tmux.waitFor("p", text: "Reading", timeout: 30)
        try tmux.keys("p", "Enter")
        try tmux.waitFor("p", text: "▌ worth it")
        let screen = try tmux.waitFor("p", text: "Café & Films", timeout: 20)
        XCTAssertFalse(screen.contains("\u{1B}"))
        try tmux.keys("p", "Enter")
        try tmux.waitFor("p", text: "Café & Films — [2Jthe \"best\" ☺")
        try tmux.keys("p", "Escape")
        try tmux.keys("p", "Escape")
        try tmux.keys("p", "q")
        try tmux.waitFor("p", "the app to exit") { !$0.contains("1 Sessions") }
    }

    func testResizeSuspendAndTinyTerminalsKeepTheScreenWhole() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        var home = try Home("tui-resize", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        try home.ok(["session", "create", "A session with a rather long name that will need truncating at small widths"])
        // An interactive shell with job control, as a person has: Ctrl-Z and `fg` work only there.
        try tmux.start("r", ["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "$ "])
        // Keys typed before the shell shows its prompt can be flushed when it sets up the terminal.
        try tmux.waitFor("r", text: "$")
        let command = "LINKSTR_PASSPHRASE='correct horse battery staple' '\(try TestEnvironment.builtProduct("linkstr").path)' --home '\(home.directory.path)' --relay \(relay.url)"
        try tmux.submit("r", command)
        try tmux.waitFor("r", text: "A session with a rather long name")
        for (w, h) in [(40, 12), (120, 40), (80, 24)] {
            try tmux.tmux(["resize-window", "-t", "r", "-x", "\(w)", "-y", "\(h)"])
            // tmux crops what it captures to the window, so a frame is checked for filling the new size:
            // the key hints fill the row at the new width (narrow: whole items, then "… · ? help") and the
            // header reaches across.
            let screen = try tmux.waitFor("r", "a \(w)×\(h) frame") { s in
                let lines = s.screenLines
                guard let header = lines.first(where: { $0.contains("1 Sessions") }),
                      let hints = lines.first(where: { $0.contains("Enter open") }),
                      lines.contains(where: { $0.contains("A session with") }) else { return false }
                let fitsWidth = w >= 100 ? hints.hasSuffix("q quit") && header.trimmingCharacters(in: .whitespaces).count > w - 16
                                         : hints.count <= w && hints.hasSuffix("… · ? help") && hints.count > w - 16
                let atBottom = lines.firstIndex(of: hints).map { $0 >= h - 2 } ?? false
                return fitsWidth && atBottom
            }
            for line in screen.screenLines { XCTAssertLessThanOrEqual(line.count, w, line) }
        }
        // Ctrl-Z suspends to the shell; `fg` (SIGCONT) brings the screen back whole.
        try tmux.keys("r", "C-z")
        try tmux.waitFor("r", text: "Stopped")
        try tmux.submit("r", "fg")
        try tmux.waitFor("r", text: "A session with a rather long name")
        try tmux.keys("r", "?")
        try tmux.waitFor("r", text: "Keys")
        try tmux.keys("r", "Escape")
        try tmux.waitFor("r", "the help to close") { !$0.contains("Keys") }
        try tmux.keys("r", "q")
        try tmux.waitFor("r", "the app to exit") { !$0.contains("1 Sessions") }
        try tmux.submit("r", "echo exit=$?")
        try tmux.waitFor("r", text: "exit=0")
    }
}
