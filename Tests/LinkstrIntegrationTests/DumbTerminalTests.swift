import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (13): under `TERM=dumb` the app drew itself on one line. It now says the terminal cannot
/// run it and points at the commands, and touches nothing (no lock, no screen modes).
final class DumbTerminalTests: XCTestCase {
    func testADumbTerminalIsToldHowToUseLinkstrInstead() throws {
        let tmux = try Tmux()
        let home = try Home.forApp("dumb", relay: "ws://127.0.0.1:\(try TestRelay.freePort())")
        defer { home.remove() }
        try tmux.start("d", ["/bin/sh", "-c", "'\(home.binary.path)' --home '\(home.directory.path)'; echo exit=$?"],
                       environment: ["LINKSTR_PASSPHRASE": Home.passphrase, "TERM": "dumb"])
        let screen = try tmux.waitFor("d", text: "exit=")
        XCTAssertTrue(screen.contains("exit=1"), screen)
        XCTAssertTrue(screen.replacingOccurrences(of: "\n", with: "").contains("linkstr: this terminal (TERM=dumb) cannot draw the full-screen app."), screen)
        XCTAssertFalse(screen.contains("Sessions"), screen)
    }
}
