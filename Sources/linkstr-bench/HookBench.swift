import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// Issue 51, item 2: hooks that hang. The release app in tmux (80×24), its `on_post` a command that
/// sleeps 60 s, allowed; a contact's session brings `posts` posts live, so 4 hooks run and the rest
/// wait; the session list is scrolled every 20 ms for 12 s. Each key counts until the frame that shows
/// it; the hooks left after 11 s say whether the first ones were killed at 10 s.
enum HookBench {
    static func run(posts: Int) async throws {
        let binary = try BenchHome.binary()
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate()
        let bench = try BenchHome("hooks", me: me)
        defer { bench.remove() }
        let marker = "linkstr-bench-hook-\(UUID().uuidString.prefix(8))"
        let settings = HookSettings(commands: [.onPost: ["/bin/sh", "-c", "sleep 60 # \(marker)"]])
        let config = bench.paths.config.appendingPathComponent("config.toml")
        let text = try String(contentsOf: config, encoding: .utf8) + "[hooks]\non_post = [\"/bin/sh\", \"-c\", \"sleep 60 # \(marker)\"]\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        do {
            let local = try LocalStore(paths: bench.paths)
            let store = try local.account(me, now: Int64(Date().timeIntervalSince1970))
            try store.setSetting(.trustedHooks, settings.fingerprint)
            try local.db.close()
        }
        let stats = bench.home.appendingPathComponent("frames.json")
        let tmux = try Tmux()
        try tmux.start("h", [binary.path, "--home", bench.home.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": bench.passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("h", text: "1 Sessions", timeout: 60)
        usleep(1_000_000)
        try await Sender(key: SecretKey.generate()).send(relay.url, to: me.publicKey, posts: posts)
        let started = Date()
        var running11: Int?
        var keys = 0
        while Date().timeIntervalSince(started) < 12 {
            try tmux.keys("h", ["j", "k"][keys % 2])
            keys += 1
            usleep(20_000)
            if running11 == nil, Date().timeIntervalSince(started) >= 11 { running11 = try hooksRunning(marker) }
        }
        let peak = try hooksRunning(marker)
        try tmux.keys("h", "q")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        while try tmux.tmux(["display", "-p", "-t", "h", "#{pane_current_command}"]).trimmingCharacters(in: .whitespacesAndNewlines) != "sleep",
              Date() < deadline { usleep(50_000) }
        let left = try hooksRunning(marker)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).sorted()
        guard !latencies.isEmpty else { throw ProcessRunner.Failure(description: "no key latencies recorded") }
        let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        print("hooks: \(binary.path), on_post sleeps 60 s, \(posts) posts arrive live, 80×24 tmux")
        Timing.report("keys while hooks hang (\(latencies.count) in 12 s)",
                      String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms (goal p99 < 16 ms)", latencies[latencies.count / 2], p99, latencies.last!))
        Timing.report("hooks running at 11 s / at 12 s", "\(running11 ?? -1) / \(peak) (4 at once; the first 4 killed at 10 s, the next started)")
        Timing.report("hooks left after the app quit", "\(left)")
        benchCheck(left == 0, "quitting stops every hook")
    }

    /// Processes of this run's hook (by the marker in their command line).
    static func hooksRunning(_ marker: String) throws -> Int {
        let r = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", "-c", "sh -c sleep 60 # \(marker)"])
        return Int(String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// A contact's new session with `posts` posts, wrapped here and published at once (live news).
    struct Sender {
        let key: SecretKey
        func send(_ url: String, to me: PublicKey, posts: Int) async throws {
            let now = Int64(Date().timeIntervalSince1970), session = LinkstrID.make(SystemRandom())
            var events = [try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: key.publicKey, createdAt: now - 5, kind: 44001, content: LinkstrPayload(
                conversationID: session, rootID: "op", kind: .sessionCreate, timestamp: now - 5, sessionName: "Hooked",
                memberPubkeys: [key.publicKey.hex, me.hex]).encoded()), sender: key, recipient: me, now: now)]
            for i in 0..<posts {
                let root = LinkstrPayload(conversationID: session, rootID: "", kind: .root, url: "https://example.com/h\(i)", timestamp: now)
                events.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: key.publicKey, createdAt: now, kind: 44001, content: root.encoded()),
                                                 sender: key, recipient: me, now: now))
            }
            let pool = RelayPool()
            await pool.setRelays([(url, true)])
            _ = await pool.waitForWritableRelay()
            if case .failure(let e) = await pool.publish(events, timeout: .seconds(30)) { throw ProcessRunner.Failure(description: "publishing: \(e)") }
            await pool.stop()
        }
    }
}
