import Foundation
import LinkstrTestSupport
import XCTest

/// The terminal app where users meet it first: sizes other than 80×24, long pastes, wide graphemes.
final class TUIFieldTests: XCTestCase {
    /// Field readiness 5: logging out at 120×40 with the secret key revealed clears the whole screen and
    /// keeps the terminal's size (the unlock screen is laid out for 120×40 at once, not after a resize).
    func testLogoutAtALargeSizeLeavesNothingOfTheOldScreen() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("tui-logout", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        try home.writeConfig("link_previews = false\n")
        let tmux = try Tmux()
        try tmux.start("l", [home.binary.path, "--home", home.directory.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": ""], columns: 120, rows: 40)
        var screen = try tmux.waitFor("l", text: "Unlock npub")
        XCTAssertEqual(screen.screenLines.firstIndex { $0.contains("Unlock npub") }, 40 / 2 - 2)
        try tmux.submit("l", "correct horse battery staple")
        try tmux.waitFor("l", text: "no sessions yet", timeout: 30)
        try tmux.keys("l", "4")
        try tmux.waitFor("l", text: "S show secret key")
        try tmux.keys("l", "S")
        try tmux.waitFor("l", text: "show your secret key")
        try tmux.keys("l", "y")
        screen = try tmux.waitFor("l", text: "hidden in")
        XCTAssertTrue(screen.contains("nsec1"))
        try tmux.keys("l", "L")
        try tmux.waitFor("l", text: "log out and keep local data?")
        try tmux.keys("l", "y")
        // Logged out, the welcome screen is drawn for 120×40 at once (its title centred on 120 columns).
        screen = try tmux.waitFor("l", text: "Welcome. linkstr needs a key", timeout: 20)
        XCTAssertFalse(screen.contains("nsec1"), "no key material left on screen:\n\(screen)")
        XCTAssertFalse(screen.contains(relay.url) || screen.contains("Settings"), "nothing of Settings left:\n\(screen)")
        let title = try XCTUnwrap(screen.screenLines.first { $0.trimmingCharacters(in: .whitespaces) == "linkstr" })
        XCTAssertEqual(title.prefix { $0 == " " }.count, (120 - 7) / 2, "laid out for 120 columns:\n\(screen)")
        XCTAssertEqual(screen.screenLines.firstIndex(of: title), 40 / 2 - 6, "and for 40 rows")
        try tmux.keys("l", "q")
    }
}
