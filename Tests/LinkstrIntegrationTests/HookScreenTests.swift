import Foundation
import LinkstrTestSupport
import XCTest

/// Hooks in the app (issue 51, item 2), in tmux at 80×24: hooks new to the account ask first; after a
/// yes a contact's post runs on_post once with its JSON; the next start does not ask again; a changed
/// hook asks again, and a no runs nothing.
final class HookScreenTests: XCTestCase {
    func testNewHooksAskFirstAndRunAfterAYes() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("hook-app", relays: [relay.url]), bob = try Home("hook-app-bob", relays: [relay.url])
        defer { ann.remove(); bob.remove() }
        let (annNpub, _) = try ann.createIdentity()
        let (bobNpub, _) = try bob.createIdentity()
        try ann.ok(["contacts", "add", bobNpub])
        let films = try bob.ok(["session", "create", "Films", "--member", annNpub]).trimmed
        _ = try ann.sync()
        let stubs = try StubTools("hook-app")
        defer { stubs.remove() }
        let out = try stubs.install("record-hook", script: "printf '%s\\n' \"$LINKSTR_HOOK\" >> \"$OUT\"; cat >> \"$OUT\"")
        let record = stubs.directory.appendingPathComponent("record-hook").path
        try ann.writeConfig("link_previews = false\n[hooks]\non_post = \"\(record) --from-app\"\n")
        let tmux = try Tmux()

        try ann.startApp(tmux, "hooks", relay: relay.url)
        var screen = try tmux.waitFor("hooks", text: "config.toml asks to run hooks on news", timeout: 30)
        XCTAssertTrue(screen.contains("on_post ="), screen)
        try tmux.keys("hooks", "y")
        try tmux.waitFor("hooks", text: "hooks allowed: they run on news from now on.")
        try bob.ok(["post", films, "https://example.com/hooked", "--note", "look"])
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline, !((try? String(contentsOf: out, encoding: .utf8)) ?? "").contains("hooked") { usleep(100_000) }
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "on_post")
        let input = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        XCTAssertEqual(input?["url"] as? String, "https://example.com/hooked")
        XCTAssertEqual(input?["session_name"] as? String, "Films")
        try tmux.keys("hooks", "C-c")
        try tmux.waitFor("hooks", "the app to quit") { !$0.contains("Films") }
        try ann.waitUntilUnlocked()

        // The same hooks: no question. A changed hook: asked again; no runs nothing.
        try ann.startApp(tmux, "hooks-again", relay: relay.url)
        screen = try tmux.waitFor("hooks-again", text: "Films", timeout: 30)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try tmux.screen("hooks-again").contains("asks to run hooks"), "allowed once, not asked again")
        try tmux.keys("hooks-again", "C-c")
        try tmux.waitFor("hooks-again", "the app to quit") { !$0.contains("Films") }
        try ann.waitUntilUnlocked()
        try ann.writeConfig("link_previews = false\n[hooks]\non_post = \"\(record) --changed\"\n")
        try ann.startApp(tmux, "hooks-changed", relay: relay.url)
        try tmux.waitFor("hooks-changed", text: "config.toml asks to run hooks on news", timeout: 30)
        try tmux.keys("hooks-changed", "n")
        try bob.ok(["post", films, "https://example.com/not-hooked"])
        try tmux.waitFor("hooks-changed", text: "Films")
        try tmux.keys("hooks-changed", "Enter")
        try tmux.waitFor("hooks-changed", text: "example.com/not-hooked", timeout: 20)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try String(contentsOf: out, encoding: .utf8).contains("not-hooked"), "a no runs nothing")
        try tmux.keys("hooks-changed", "C-c")
    }
}
