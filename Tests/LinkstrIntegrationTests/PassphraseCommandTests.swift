import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 50 (2): `passphrase_command` in config.toml (and `--passphrase-command`): a program that prints
/// the passphrase (`pass show linkstr`), run without a shell. A script that prints it unlocks the CLI and
/// the app with no prompt and nothing in the environment; one that fails, hangs or prints nothing is said
/// naming the program, within its 5 s, and the passphrase is in no log, no error and no command line.
final class PassphraseCommandTests: XCTestCase {
    func testAPassphraseCommandUnlocksAndItsFailuresAreSaidWithoutItsOutput() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let stubs = try StubTools("passphrase-command")
        defer { stubs.remove() }
        func script(_ name: String, _ body: String) throws -> String {
            let url = stubs.directory.appendingPathComponent(name)
            try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            return url.path
        }
        let good = try script("vault show", "echo '\(Home.passphrase)'; echo 'a second line'")
        let failing = try script("failing", "echo '\(Home.passphrase)'; exit 1")
        let hanging = try script("hanging", "sleep 60")
        let silent = try script("silent", "exit 0")
        let home = try Home.forApp("passphrase-command", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Unlocked"])

        // From config.toml, quoted (the path has a space): no LINKSTR_PASSPHRASE, no prompt.
        try home.writeConfig("link_previews = false\nindexer_relays = []\npassphrase_command = \"'\(good)' --entry linkstr\"\n")
        let listed = try home.run(["session", "list"], passphrase: nil)
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("Unlocked"), listed.out)

        for (path, name, words) in [(failing, "failing", "failed (exit status 1)"), (silent, "silent", "printed no passphrase"),
                                    (hanging, "hanging", "did not answer within 5 s")] {
            let started = Date()
            let r = try home.run(["session", "list", "--passphrase-command", path], passphrase: nil)
            XCTAssertNotEqual(r.status, 0, name)
            XCTAssertTrue(r.err.contains("the passphrase command \(name) \(words)"), "\(name): \(r.err)")
            XCTAssertFalse(r.err.contains(Home.passphrase), "never its output")
            XCTAssertLessThan(Date().timeIntervalSince(started), 9, "\(name): bounded")
        }
        let unclosed = try home.run(["session", "list", "--passphrase-command", "'unclosed"], passphrase: nil)
        XCTAssertEqual(unclosed.status, 64, unclosed.err)

        // The app opens with it, no prompt; a failing one is said on the unlock screen.
        let tmux = try Tmux()
        let app = [home.binary.path, "--home", home.directory.path, "--relay", relay.url]
        try tmux.start("ok", app)
        try tmux.waitFor("ok", text: "Unlocked", timeout: 30)
        try tmux.keys("ok", "q")
        try tmux.waitFor("ok", "the app to exit") { !$0.contains("1 Sessions") }
        try tmux.start("bad", app + ["--passphrase-command", failing])
        let screen = try tmux.waitFor("bad", text: "the passphrase command failing failed (exit status 1)", timeout: 30)
        XCTAssertFalse(screen.contains(Home.passphrase))
        try tmux.keys("bad", "C-c")

        // Nowhere at rest: not in the log.
        let log = (try? String(contentsOf: home.directory.appendingPathComponent("state/linkstr.log"), encoding: .utf8)) ?? ""
        XCTAssertFalse(log.contains(Home.passphrase))
    }
}
