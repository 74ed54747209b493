import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Hooks (issue 51, item 2) in `linkstr sync --follow`: a real peer's post, reaction and session, and a
/// stranger's request, each run their hook once with the documented JSON on standard input and a clean
/// environment; our own queued send runs none; hooks not yet allowed do not run; a restored history of
/// 1,000 posts runs none, and each post after it one; a hook that does not exist is said once and nothing
/// else breaks.
final class HookTests: XCTestCase {
    private func follow(_ home: Home, relay: String, seconds: Int, extra: [String] = [], stderr: URL) throws -> Process {
        try home.start(["sync", "--follow", "--timeout", String(seconds)] + extra, relay: relay, stderr: stderr)
    }

    /// Each run the stub recorded: the hook's name, its environment's passphrase (or "none"), its input.
    private func runs(_ file: URL) throws -> [(hook: String, pass: String, input: [String: Any])] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n").map(String.init)
        return try stride(from: 0, to: lines.count - 2, by: 3).map { i in
            (lines[i], lines[i + 1], try JSONSerialization.jsonObject(with: Data(lines[i + 2].utf8)) as! [String: Any])
        }
    }

    private func waitForRun(_ file: URL, _ hook: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try runs(file).contains(where: { $0.hook == hook }) { return }
            usleep(100_000)
        }
        throw HarnessFailure(description: "no \(hook) run in \(timeout) s: \((try? String(contentsOf: file, encoding: .utf8)) ?? "")")
    }

    func testEachHookRunsOnceWithTheNewsAndNeverForOurOwn() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("hook-ann", relays: [relay.url]), bob = try Home("hook-bob", relays: [relay.url]), eve = try Home("hook-eve", relays: [relay.url])
        defer { [ann, bob, eve].forEach { $0.remove() } }
        let (annNpub, annHex) = try ann.createIdentity()
        let (bobNpub, _) = try bob.createIdentity()
        _ = try eve.createIdentity()
        try ann.ok(["contacts", "add", bobNpub, "--alias", "Bob"])
        let mine = try ann.ok(["session", "create", "Mine"]).trimmed
        _ = try ann.ok(["post", mine, "https://example.com/mine", "--queue"], relays: ["ws://127.0.0.1:\(try TestRelay.freePort())"])
        let stubs = try StubTools("hooks")
        defer { stubs.remove() }
        let out = try stubs.install("record-hook", script: """
            printf '%s\\n%s\\n' "$LINKSTR_HOOK" "${LINKSTR_PASSPHRASE:-none}" >> "$OUT"; cat >> "$OUT"
            """)
        let record = stubs.directory.appendingPathComponent("record-hook").path
        try ann.writeConfig("""
            link_previews = false
            [hooks]
            on_post = "\(record) post"
            on_reaction = ["\(record)", "reaction"]
            on_request = "\(record)"
            on_session = "\(record)"
            """)
        let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("hook-err-\(UUID().uuidString)")
        defer { removeTemporary(stderr) }

        // Not allowed yet: said, and none runs (the queued post goes meanwhile: our own, no hook).
        let untrusted = try ann.run(["sync", "--follow", "--timeout", "2"])
        XCTAssertTrue(untrusted.err.contains("hooks not yet allowed on this account"), untrusted.err)
        XCTAssertTrue(try runs(out).isEmpty)

        let process = try follow(ann, relay: relay.url, seconds: 40, extra: ["--trust-hooks"], stderr: stderr)
        Thread.sleep(forTimeInterval: 2)
        let films = try bob.ok(["session", "create", "Films", "--member", annNpub]).trimmed
        try waitForRun(out, "on_session")
        let post = try bob.ok(["post", films, "https://example.com/film", "--note", "tonight"]).trimmed
        try waitForRun(out, "on_post")
        try bob.ok(["react", post, "🔥"])
        try waitForRun(out, "on_reaction")
        let spam = try eve.ok(["session", "create", "Free stuff", "--member", annNpub]).trimmed
        try waitForRun(out, "on_request")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let all = try runs(out)
        XCTAssertEqual(all.map(\.hook).sorted(), ["on_post", "on_reaction", "on_request", "on_session"], "each once: \(all.map(\.hook))")
        XCTAssertEqual(Set(all.map(\.pass)), ["none"], "no passphrase in a hook's environment")
        let byHook = Dictionary(uniqueKeysWithValues: all.map { ($0.hook, $0.input) })
        XCTAssertEqual(byHook["on_post"]?["type"] as? String, "post")
        XCTAssertEqual(byHook["on_post"]?["id"] as? String, post)
        XCTAssertEqual(byHook["on_post"]?["url"] as? String, "https://example.com/film")
        XCTAssertEqual(byHook["on_post"]?["note"] as? String, "tonight")
        XCTAssertEqual(byHook["on_post"]?["session_name"] as? String, "Films")
        XCTAssertEqual(byHook["on_reaction"]?["emoji"] as? String, "🔥")
        XCTAssertEqual(byHook["on_reaction"]?["session_name"] as? String, "Films")
        XCTAssertEqual(byHook["on_session"]?["id"] as? String, films)
        XCTAssertEqual(byHook["on_session"]?["change"] as? String, "created")
        XCTAssertEqual(byHook["on_request"]?["id"] as? String, spam)
        XCTAssertFalse(all.contains { ($0.input["url"] as? String) == "https://example.com/mine" }, "our own send runs no hook")
        XCTAssertNotEqual(annHex, "")
    }

    /// A new device restoring a history of 1,000 posts from a contact runs no hook; a hook that does not
    /// exist is said once, and the follow goes on.
    func testARestoredHistoryRunsNoHookAndAMissingHookIsSaidOnce() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("hook-restore", relays: [relay.url])
        defer { ann.remove() }
        let (_, annHex) = try ann.createIdentity()
        let sender = SeededSender()
        try ann.ok(["contacts", "add", sender.key.publicKey.npub])
        try await sender.seed(relay.url, to: try PublicKey(hex: annHex), posts: 0..<1000)
        let stubs = try StubTools("hooks-restore")
        defer { stubs.remove() }
        let out = try stubs.install("record-hook", script: "printf '%s\\n' \"$LINKSTR_HOOK\" >> \"$OUT\"")
        let record = stubs.directory.appendingPathComponent("record-hook").path
        try ann.writeConfig("""
            link_previews = false
            [hooks]
            on_post = "\(record)"
            on_session = "\(record)"
            """)
        let restored = try ann.run(["sync", "--follow", "--trust-hooks", "--timeout", "8"], timeout: 60)
        XCTAssertEqual(restored.status, 0, restored.err)
        XCTAssertEqual(try ann.allPostIDs(sender.session).count, 1000)
        XCTAssertEqual((try? String(contentsOf: out, encoding: .utf8)) ?? "", "", "no hook for restored history")

        // Live now: each new post from the contact runs on_post once.
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("hook-restore-err-\(UUID().uuidString)")
        defer { removeTemporary(err) }
        let process = try follow(ann, relay: relay.url, seconds: 30, stderr: err)
        try await Task.sleep(for: .seconds(2))
        try await sender.seed(relay.url, to: try PublicKey(hex: annHex), posts: 1000..<1002)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, ((try? String(contentsOf: out, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 {
            try await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8).split(separator: "\n"), ["on_post", "on_post"], "one run a new post")

        // A hook whose program does not exist: said once for two posts, and the follow goes on to its end.
        try ann.writeConfig("""
            link_previews = false
            [hooks]
            on_post = "no-such-hook-program-anywhere --flag"
            """)
        let missing = try follow(ann, relay: relay.url, seconds: 8, extra: ["--trust-hooks"], stderr: err)
        try await Task.sleep(for: .seconds(2))
        try await sender.seed(relay.url, to: try PublicKey(hex: annHex), posts: 1002..<1004)
        missing.waitUntilExit()
        XCTAssertEqual(missing.terminationStatus, 0)
        let said = try String(contentsOf: err, encoding: .utf8)
        XCTAssertEqual(said.components(separatedBy: "hook on_post: no program no-such-hook-program-anywhere on PATH.").count - 1, 1, said)
        XCTAssertEqual(try ann.allPostIDs(sender.session).count, 1004)
    }
}
