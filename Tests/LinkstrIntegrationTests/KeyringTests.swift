import Foundation
import LinkstrTestSupport
import XCTest

/// The passphrase in a real Secret Service (GNOME Keyring on a private session bus, started here):
/// `identity keyring on` stores it (proved by unlocking first) and a fresh CLI process and the app start
/// without a prompt or the environment; a keyring that hangs, is gone or is locked is passed over with one
/// line within about 2 s; a passphrase change updates the item; `off` removes it.
final class KeyringTests: XCTestCase {
    func testThePassphraseFromTheKeyringAndEveryWayItCanFail() throws {
        let service = try SecretService()
        defer { service.stop() }
        try service.startDaemon(unlocked: true)
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("keyring", relay: relay.url)
        defer { home.remove() }
        let env = service.environment
        let identity = try XCTUnwrap(home.ok(["identity", "show", "--json"]).json() as? [String: String])
        let npub = try XCTUnwrap(identity["npub"])
        try home.ok(["session", "create", "Kept"])

        // Off: the keyring is not asked.
        let before = try XCTUnwrap(try home.ok(["identity", "keyring", "status", "--json"], environment: env).json() as? [String: Any])
        XCTAssertEqual(before["keyring"] as? Bool, false)
        XCTAssertEqual(before["source"] as? String, "LINKSTR_PASSPHRASE")
        // A wrong passphrase is never stored.
        XCTAssertEqual(try home.run(["identity", "keyring", "on"], environment: env, passphrase: "not the passphrase").status, 65)
        XCTAssertNotEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).status, 0, "nothing stored")
        try home.ok(["identity", "keyring", "on"], environment: env)
        XCTAssertEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).stdoutText, Home.passphrase,
                       "the item: the app and the npub as attributes, the passphrase as its secret")
        XCTAssertTrue(try service.secretTool(["search", "app", "linkstr"]).stdoutText.contains("label = linkstr: \(npub.prefix(12))…"),
                      "labelled for the keyring's own tools")

        // A fresh process: no LINKSTR_PASSPHRASE, no terminal.
        let listed = try home.run(["session", "list"], environment: env, passphrase: nil)
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("Kept"), listed.out)
        XCTAssertEqual(listed.err, "", "nothing said when the keyring answers")
        let status = try XCTUnwrap(try home.run(["identity", "keyring", "status", "--json"], environment: env, passphrase: nil).json() as? [String: Any])
        XCTAssertEqual(status["source"] as? String, "the keyring")
        XCTAssertEqual(status["keyring_item"] as? String, "found")

        // The app starts without asking.
        let tmux = try Tmux()
        try home.startApp(tmux, "app", relay: relay.url, passphrase: "", environment: env)
        let main = try tmux.waitFor("app", text: "Kept", timeout: 30)
        XCTAssertFalse(main.contains("Unlock npub"), main)
        try tmux.keys("app", "C-c")
        _ = try? tmux.waitFor("app", "the app to quit") { !$0.contains("Kept") }

        // A new passphrase: the item follows.
        let file = home.directory.appendingPathComponent("new-passphrase")
        try "a brand new passphrase\n".write(to: file, atomically: true, encoding: .utf8)
        try home.ok(["identity", "passphrase", "--new-passphrase-file", file.path], environment: env)
        XCTAssertEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).stdoutText, "a brand new passphrase")
        XCTAssertEqual(try home.run(["session", "list"], environment: env, passphrase: nil).status, 0)

        // A keyring that never answers: one line, the next source (none here), within about 2 s.
        service.hang()
        var started = Date()
        let hung = try home.run(["session", "list"], environment: env, passphrase: nil)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8, "bounded by the keyring's 2 s")
        XCTAssertEqual(hung.status, 65, hung.err)
        XCTAssertTrue(hung.err.hasPrefix("linkstr: the keyring did not answer within 2 s; trying the next source.\n"), hung.err)
        XCTAssertFalse(hung.err.contains("a brand new passphrase"))
        // And with LINKSTR_PASSPHRASE set, the keyring is not even asked.
        XCTAssertEqual(try home.run(["session", "list"], environment: env, passphrase: "a brand new passphrase").err, "")

        // Gone: the bus has no Secret Service (and starts none).
        service.stopDaemon()
        started = Date()
        let gone = try home.run(["session", "list"], environment: env, passphrase: nil)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
        XCTAssertEqual(gone.status, 65)
        XCTAssertTrue(gone.err.hasPrefix("linkstr: the keyring refused: "), gone.err)
        XCTAssertEqual(gone.err.components(separatedBy: "\n").filter { $0.contains("keyring") }.count, 1, "one line: \(gone.err)")

        // Locked: its login keyring is there but not unlocked (no prompt can be shown here).
        try service.startDaemon(unlocked: false)
        started = Date()
        let locked = try home.run(["session", "list"], environment: env, passphrase: nil)
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
        XCTAssertEqual(locked.status, 65, locked.err)
        XCTAssertTrue(locked.err.contains("keyring"), locked.err)
        service.stopDaemon()

        // Off: the item goes, and the keyring is not asked any more.
        try service.startDaemon(unlocked: true)
        XCTAssertEqual(try home.run(["identity", "keyring", "off"], environment: env, passphrase: "a brand new passphrase").status, 0)
        XCTAssertNotEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).status, 0)
        let after = try home.run(["session", "list"], environment: env, passphrase: nil)
        XCTAssertEqual(after.status, 65)
        XCTAssertFalse(after.err.contains("keyring"), after.err)

        // Settings shows it and toggles it: K asks for the passphrase (a wrong one is not stored), K again takes it out.
        try home.startApp(tmux, "settings", relay: relay.url, passphrase: "a brand new passphrase", environment: env)
        try tmux.waitFor("settings", text: "Kept", timeout: 30)
        try tmux.keys("settings", "4")
        try tmux.waitFor("settings", text: "K keyring: off")
        try tmux.keys("settings", "K")
        try tmux.waitFor("settings", text: "Keep the passphrase in the keyring")
        try tmux.submit("settings", "not it at all")
        try tmux.waitFor("settings", text: "that is not the passphrase: nothing was stored.", timeout: 20)
        try tmux.submit("settings", "a brand new passphrase")
        try tmux.waitFor("settings", text: "the passphrase is in the keyring", timeout: 20)
        try tmux.waitFor("settings", text: "K keyring: on")
        XCTAssertEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).stdoutText, "a brand new passphrase")
        try tmux.keys("settings", "K")
        try tmux.waitFor("settings", text: "the passphrase is no longer in the keyring.", timeout: 20)
        XCTAssertNotEqual(try service.secretTool(["lookup", "app", "linkstr", "npub", npub]).status, 0)
        try tmux.keys("settings", "C-c")
    }
}
