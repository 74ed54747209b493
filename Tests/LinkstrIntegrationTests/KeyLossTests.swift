import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (2): logging out (or clearing, or deleting) an account whose key was never backed up loses
/// the key for good. The app says so plainly and asks for a typed word, not a `y`; the mark survives a
/// restart; the CLI refuses without --forget-unsaved-key.
final class KeyLossTests: XCTestCase {
    func testLoggingOutAnUnsavedKeyAsksForAWordInTheApp() throws {
        for term in ["xterm-256color", "tmux-256color"] {
            let tmux = try Tmux()
            let binary = try TestEnvironment.builtProduct("linkstr")
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-keyloss-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            try Home.writeConfig("link_previews = false\n", home: home)
            let dead = "ws://127.0.0.1:\(try TestRelay.freePort())"
            let start = { (window: String) in
                try tmux.start(window, [binary.path, "--home", home.path, "--relay", dead], environment: ["LINKSTR_PASSPHRASE": "", "TERM": term])
            }
            try start("k")
            try tmux.waitFor("k", text: "Create a new account")
            try tmux.keys("k", "c")
            try tmux.waitFor("k", text: "A profile name")
            try tmux.submit("k", "Kim")
            try tmux.waitFor("k", text: "Choose a passphrase")
            try tmux.submit("k", "pass phrase")
            try tmux.submit("k", "pass phrase")
            try tmux.waitFor("k", text: "Your account is ready", timeout: 30)
            try tmux.keys("k", "l")  // back up later
            try tmux.waitFor("k", text: "no sessions yet")
            let identities = home.appendingPathComponent("identities")
            func keyFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: identities.path).filter { $0.hasSuffix(".ncryptsec") } }
            XCTAssertEqual(try keyFiles().count, 1)

            // Quit and come back: the app still knows the key was never backed up.
            try tmux.keys("k", "q")
            try tmux.waitFor("k", "the app to quit") { !$0.contains("Sessions") }
            try start("k2")
            try tmux.waitFor("k2", text: "Unlock", timeout: 30)
            try tmux.submit("k2", "pass phrase")
            try tmux.waitFor("k2", text: "no sessions yet", timeout: 30)
            try tmux.keys("k2", "4")
            try tmux.waitFor("k2", text: "L log out")
            try tmux.keys("k2", "L")
            var screen = try tmux.waitFor("k2", text: "never backed up")
            XCTAssertTrue(screen.contains("account is lost for") && screen.contains("type forget"), screen)
            try tmux.keys("k2", "y")
            screen = try tmux.waitFor("k2", text: "type forget: y_")
            XCTAssertEqual(try keyFiles().count, 1, "a y is not enough")
            try tmux.keys("k2", "Escape")
            try tmux.waitFor("k2", "the box to close") { !$0.contains("never backed up") }
            XCTAssertEqual(try keyFiles().count, 1, "Esc keeps the key")

            // The same for clearing data and deleting the account.
            for key in ["X", "D"] {
                try tmux.keys("k2", key)
                try tmux.waitFor("k2", text: "type forget")
                try tmux.keys("k2", "Escape")
                try tmux.waitFor("k2", "the box to close") { !$0.contains("never backed up") }
            }
            XCTAssertEqual(try keyFiles().count, 1)

            // Typing the word logs out; the key is gone, as the box said.
            try tmux.keys("k2", "L")
            try tmux.waitFor("k2", text: "type forget")
            try tmux.type("k2", "forget")
            try tmux.keys("k2", "Enter")
            try tmux.waitFor("k2", text: "Create a new account", timeout: 20)
            XCTAssertEqual(try keyFiles().count, 0)
        }
    }

    func testShowingTheKeyCountsAsABackupAndLogOutAsksOnce() throws {
        let tmux = try Tmux()
        let home = try Home.forApp("keyloss-shown", relay: "ws://127.0.0.1:\(try TestRelay.freePort())")
        defer { home.remove() }
        try home.startApp(tmux, "s", relay: nil)
        try tmux.waitFor("s", text: "no sessions yet", timeout: 30)
        try tmux.keys("s", "4")
        try tmux.waitFor("s", text: "S show secret key")
        try tmux.keys("s", "S")
        try tmux.waitFor("s", text: "show your secret key")
        try tmux.keys("s", "y")
        try tmux.waitFor("s", text: "hidden in")
        try tmux.keys("s", "S")
        try tmux.keys("s", "L")
        let screen = try tmux.waitFor("s", text: "log out and keep local data? (y/n)")
        XCTAssertFalse(screen.contains("never backed up"), screen)
    }

    func testTheCLIRefusesToLogOutAnUnsavedKey() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("keyloss-cli", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        for args in [["logout"], ["logout", "--clear-local-data"], ["account", "delete", "--yes"]] {
            let refused = try home.run(args)
            XCTAssertEqual(refused.status, 1, "\(args)")
            XCTAssertTrue(refused.err.contains("never backed up") && refused.err.contains("--forget-unsaved-key"), refused.err)
        }
        XCTAssertEqual(try home.ok(["identity", "list", "--json"]).json() as? [[String: Any]] == nil, false)
        // Exported once: logging out is allowed, as before.
        let nsec = try home.ok(["identity", "export-secret", "--yes"]).trimmed
        XCTAssertTrue(nsec.hasPrefix("nsec1"))
        try home.ok(["logout"])
        // A second identity, forgotten on purpose.
        _ = try home.createIdentity()
        try home.ok(["logout", "--forget-unsaved-key"])
    }
}
