import Foundation
import LinkstrTestSupport
import XCTest

/// A one-character passphrase was accepted at create. A new key's passphrase that is short (under 8
/// characters) or among the most common is refused by `identity create` and `identity import` (exit 65,
/// `--allow-weak` takes it), and said once by the app's onboarding (Enter again takes it), in tmux under
/// two TERMs.
final class WeakPassphraseTests: XCTestCase {
    func testAWeakPassphraseIsRefusedByTheCLIAndSaidByTheApp() throws {
        let cli = try Home("weak-cli", relays: [])
        defer { cli.remove() }
        let short = try cli.run(["identity", "create"], passphrase: "x")
        XCTAssertEqual(short.status, 65, short.err)
        XCTAssertEqual(short.err, "linkstr: that passphrase is weak: it is shorter than 8 characters. Choose a longer one, or add --allow-weak.\n")
        let common = try cli.run(["identity", "import"], stdin: String(repeating: "1", count: 64) + "\n", passphrase: "Password123")
        XCTAssertEqual(common.status, 65, common.err)
        XCTAssertTrue(common.err.contains("it is one of the most common passwords"), common.err)
        XCTAssertEqual((try cli.ok(["identity", "list", "--json"]).json() as? [Any])?.count, 0, "nothing was created")
        let allowed = try cli.run(["identity", "create", "--allow-weak"], passphrase: "x")
        XCTAssertEqual(allowed.status, 0, allowed.err)
        XCTAssertTrue(allowed.out.hasPrefix("npub1"), allowed.out)

        for (i, term) in ["xterm-256color", "tmux-256color"].enumerated() {
            let home = try Home("weak-app-\(i)", relays: ["ws://127.0.0.1:9"])
            defer { home.remove() }
            let tmux = try Tmux()
            try home.startApp(tmux, "w", relay: nil, passphrase: "", environment: ["TERM": term])
            try tmux.waitFor("w", text: "Create a new account", timeout: 30)
            try tmux.keys("w", "c")
            try tmux.waitFor("w", text: "A profile name")
            try tmux.submit("w", "Ann")
            try tmux.waitFor("w", text: "Choose a passphrase")
            try tmux.submit("w", "x")
            let said = try tmux.waitFor("w", text: "that passphrase is weak")
            XCTAssertTrue(said.contains("shorter than 8 characters"), said)
            // Enter again takes it: on to the repeat field, and the account is made.
            try tmux.keys("w", "Enter")
            try tmux.waitFor("w", "the weak words gone") { !$0.contains("that passphrase is weak") }
            try tmux.submit("w", "x")
            try tmux.waitFor("w", text: "Your account is ready", timeout: 30)
            try tmux.keys("w", "C-c")
            _ = try? tmux.waitFor("w", "the app to quit") { !$0.contains("Your account") }
        }
    }
}
