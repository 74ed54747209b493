import Foundation
import LinkstrTestSupport
import XCTest

/// The lock in tmux: ^X locks a post's detail (the idle timing is tested on a moved clock in
/// `HeadlessLoopTests`); the lock screen shows nothing of the user's (no session name, link, note or
/// npub); a wrong passphrase is said, the right one opens the same post again, under two TERMs and sizes. With
/// `lock_keeps_syncing`, Settings says so, and news while locked rings as "new activity" only.
final class IdleLockTests: XCTestCase {
    func testTheIdleLockHidesEverythingAndUnlocksToTheSamePlace() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("idle-lock", relay: relay.url), bob = try Home.forApp("idle-lock-bob", relay: relay.url)
        defer { home.remove(); bob.remove() }
        let npub = try XCTUnwrap(home.ok(["identity", "show", "--json"]).json() as? [String: String])["npub"] ?? ""
        let bobNpub = try XCTUnwrap(bob.ok(["identity", "show", "--json"]).json() as? [String: String])["npub"] ?? ""
        try home.ok(["contacts", "add", bobNpub, "--alias", "Bob"])
        let session = try home.ok(["session", "create", "Secret plans", "--member", bobNpub]).trimmed
        try home.ok(["post", session, "https://example.com/hidden-link", "--note", "the surprise party"])
        try bob.ok(["sync", "--json"])
        try bob.ok(["session", "accept", session])
        let stubs = try StubTools("idle-lock")
        defer { stubs.remove() }
        let rung = try stubs.install("notify-send", script: "echo \"$2\" >> \"$OUT\"")
        let tmux = try Tmux()

        func assertNothingShown(_ screen: String, _ what: String) {
            for secret in ["Secret plans", "example.com", "surprise", "hidden-link", String(npub.prefix(12)), String(npub.suffix(6)), "Bob"] {
                XCTAssertFalse(screen.contains(secret), "\(what): \(secret) on the lock screen:\n\(screen)")
            }
        }

        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("tmux-256color", 120, 36)].enumerated() {
            let w = "l\(i)"
            // The idle timing itself is `HeadlessLoopTests`' (on a clock it moves); here ^X locks at once.
            try home.writeConfig("link_previews = false\nreopen = false\n" + (i == 0 ? "lock_after = \"15m\"\n" : "lock_after = \"off\"\n"))
            try home.startApp(tmux, w, relay: relay.url, environment: ["TERM": term], columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Secret plans", timeout: 30)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "▌ the surprise party")
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, "the post's detail") { $0.contains("e more") && $0.contains("the surprise party") }
            try tmux.keys(w, "C-x")
            let locked = try tmux.waitFor(w, text: "linkstr is locked", timeout: 15)
            assertNothingShown(locked, term)
            try tmux.submit(w, "not the passphrase")
            let refused = try tmux.waitFor(w, "the wrong passphrase said", timeout: 20) { $0.contains("linkstr is locked") && $0.contains("passphrase") && !$0.contains("unlocking…") && $0.lowercased().contains("wrong") }
            assertNothingShown(refused, "after a wrong passphrase")
            try tmux.submit(w, Home.passphrase)
            try tmux.waitFor(w, "the same post again", timeout: 30) { $0.contains("e more") && $0.contains("the surprise party") && $0.contains("Secret plans") }
            try tmux.keys(w, "C-c")
            _ = try? tmux.waitFor(w, "the app to quit") { !$0.contains("Secret plans") }
        }

        // Keeping sync while locked: said in Settings; news while locked says nothing of who or where.
        try home.writeConfig("link_previews = false\nreopen = false\nlock_after = \"off\"\nlock_keeps_syncing = true\nnotify = \"desktop\"\n")
        try home.startApp(tmux, "k", relay: relay.url, environment: ["PATH": stubs.path])
        try tmux.waitFor("k", text: "Secret plans", timeout: 30)
        try tmux.keys("k", "4")
        try tmux.waitFor("k", text: "locked, sync goes on (key in memory)")
        try tmux.keys("k", "C-x")
        assertNothingShown(try tmux.waitFor("k", text: "linkstr is locked"), "keeping sync")
        try bob.ok(["post", session, "https://example.com/while-locked", "--note", "more secrets"])
        try tmux.waitFor("k", "the notification", timeout: 30) { _ in ((try? String(contentsOf: rung, encoding: .utf8)) ?? "").contains("new activity") }
        XCTAssertEqual((try String(contentsOf: rung, encoding: .utf8)).split(separator: "\n"), ["new activity"])
        try tmux.submit("k", Home.passphrase)
        try tmux.waitFor("k", text: "locked, sync goes on", timeout: 30)
        try tmux.keys("k", "1")
        try tmux.waitFor("k", "Bob's post that came while locked", timeout: 30) { $0.contains("Bob: example.com") && $0.contains("1 ●") }
        try tmux.keys("k", "C-c")
    }
}
