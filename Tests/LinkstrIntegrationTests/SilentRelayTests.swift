import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 33 (7): a relay that accepts TCP and never answers hung `linkstr relays test` (killed after ten
/// minutes), and in the app `t` ended without a verdict while the row stayed "connecting". Every
/// diagnostic has a deadline and says "no answer in N s".
final class SilentRelayTests: XCTestCase {
    func testRelaysTestGivesAVerdictAgainstASilentServer() throws {
        let silent = try InteropServer(script: "silent_tcp.py", arguments: [])
        defer { silent.stop() }
        let home = try Home("silent", relays: [silent.url])
        defer { home.remove() }
        let started = Date()
        let run = try home.run(["relays", "test", silent.url, "--json"], timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(started), 50, "a verdict, not a hang")
        XCTAssertEqual(run.status, 75)
        XCTAssertTrue(run.out.contains("no answer in 5 s"), "\(run.out)\n\(run.err)")
    }

    func testTheAppGivesAVerdictAndTheRowLeavesConnecting() throws {
        let silent = try InteropServer(script: "silent_tcp.py", arguments: [])
        defer { silent.stop() }
        let home = try Home.forApp("silentapp", relay: silent.url)
        defer { home.remove() }
        for term in ["xterm-256color", "tmux-256color"] {
            let tmux = try Tmux()
            try home.startAppInSettings(tmux, "s", relay: silent.url, term: term)
            try tmux.waitFor("s", text: "Relays", timeout: 10)
            try tmux.keys("s", "t")
            let verdict = try tmux.waitFor("s", text: "no answer in", timeout: 30)
            XCTAssertTrue(verdict.contains(silent.url), verdict)
            // The pool's own connection gives up too: the row says why instead of "connecting" for good.
            let row = try tmux.waitFor("s", "the row to leave connecting", timeout: 40) { screen in
                screen.split(separator: "\n").contains { $0.contains(silent.url) && $0.contains("failed") }
            }
            XCTAssertTrue(row.contains("no answer in 10 s"), row)
            try tmux.keys("s", "C-c")
            _ = try? tmux.waitFor("s", "the app to quit") { !$0.contains("Relays") }
        }
    }
}
