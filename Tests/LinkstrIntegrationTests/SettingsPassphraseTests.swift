import Foundation
import LinkstrTestSupport
import XCTest

/// Settings' `P` changes the passphrase of the key file, as `linkstr identity passphrase` does: the
/// current one (a wrong one changes nothing and is said), the new one twice (a weak one said once); then
/// only the new one unlocks. In tmux under two TERMs, at 80×24 and 120×36.
final class SettingsPassphraseTests: XCTestCase {
    func testChangingThePassphraseInSettings() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("settings-passphrase", relay: relay.url)
        defer { home.remove() }
        let tmux = try Tmux()
        let first = Home.passphrase, second = "a new passphrase for the key"
        for (i, (term, columns, rows, current, next)) in [("xterm-256color", 80, 24, first, second),
                                                          ("tmux-256color", 120, 36, second, first)].enumerated() {
            let w = "p\(i)"
            try home.startApp(tmux, w, relay: relay.url, passphrase: current, environment: ["TERM": term], columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Sessions", timeout: 30)
            try tmux.keys(w, "4")
            try tmux.waitFor(w, text: "Relays")
            try tmux.keys(w, "P")
            try tmux.waitFor(w, text: "Change the passphrase")
            if i == 1 {
                // A wrong current passphrase: said, nothing changed.
                try tmux.submit(w, "not the passphrase")
                try tmux.submit(w, next)
                try tmux.submit(w, next)
                try tmux.waitFor(w, text: "that is not the current passphrase: nothing was changed.", timeout: 20)
            }
            try tmux.submit(w, current)
            // A weak new one is said once.
            try tmux.submit(w, "short")
            try tmux.waitFor(w, text: "that passphrase is weak")
            try tmux.keys(w, "C-u")
            try tmux.submit(w, next)
            try tmux.submit(w, "a mistyped repeat")
            try tmux.waitFor(w, text: "the new passphrases do not match.")
            try tmux.submit(w, next)
            let done = try tmux.waitFor(w, text: "passphrase changed: unlock with the new one from now on.", timeout: 30)
            XCTAssertFalse(done.contains(next) || done.contains(current), "no passphrase on screen")
            try tmux.keys(w, "C-c")
            _ = try? tmux.waitFor(w, "the app to quit") { !$0.contains("Settings") }
            XCTAssertEqual(try home.run(["session", "list"], passphrase: current).status, 65, "the old passphrase no longer opens it")
            XCTAssertEqual(try home.run(["session", "list"], passphrase: next).status, 0, "the new one does")
        }
    }
}
