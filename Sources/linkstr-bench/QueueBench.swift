import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Issue 49: the send queue. `posts` posts to a two-member session sent online one by one (each waits
/// for its OK, the CLI's way) against the same posts queued while the relay is down (the app's Enter:
/// applied and queued) and drained once it is back; then the release app in tmux (80×24) with a queue
/// of `posts` items draining as it starts, the session list scrolled every 20 ms: each key counts until
/// the frame that shows it.
enum QueueBench {
    static func run(posts: Int) async throws {
        try await engineFigures(posts: posts)
        try await appKeys(posts: posts)
    }

    private static func engineFigures(posts: Int) async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let member = SecretKey.generate().publicKey.hex
        print("queue: \(posts) posts to a session with one other member (2 wraps each), nostr-relay")

        // Online, one by one.
        let online = try await Account(member: member, relay: relay.url)
        defer { online.remove() }
        await online.pool.setRelays([(relay.url, true)])
        let sid = try await online.session(online: true)
        var onlineSeconds = 0.0
        onlineSeconds = try await Timing.secondsAsync {
            for i in 0..<posts { _ = try await online.engine.send([try online.post(sid, i)]) }
        }
        await online.engine.stop()

        // Queued while the relay is down, then drained.
        let queued = try await Account(member: member, relay: relay.url)
        defer { queued.remove() }
        await queued.pool.setRelays([("ws://127.0.0.1:\(try TestRelay.freePort())", true)])
        let qsid = try await queued.session(online: false)
        var enqueue = [Double]()
        for i in 0..<posts {
            let rumor = try queued.post(qsid, i)
            enqueue.append(try await Timing.secondsAsync { _ = try await queued.engine.enqueue([rumor], action: .post, sessionID: qsid, drain: false) } * 1000)
        }
        benchCheck(try queued.store.sendQueue().count == posts + 1, "everything queued")
        await queued.pool.setRelays([(relay.url, true)])
        let drainSeconds = await Timing.secondsAsync {
            while (try? queued.store.sendQueue().isEmpty) == false { await queued.engine.drainSendQueue() }
        }
        await queued.engine.stop()
        benchCheck(try queued.store.sendQueue().isEmpty, "the queue drained")
        enqueue.sort()
        Timing.report("online, one by one", String(format: "%.2f s (%.1f ms a post)", onlineSeconds, onlineSeconds * 1000 / Double(posts)))
        Timing.report("queued (the app's Enter)", String(format: "median %.2f ms, p99 %.2f ms a post", enqueue[posts / 2],
                                                         enqueue[min(posts - 1, posts * 99 / 100)]))
        Timing.report("the queue drained", String(format: "%.2f s for %d items = %.2f× the online time (goal ≤ 2×)", drainSeconds, posts + 1,
                                                  drainSeconds / onlineSeconds))
    }

    private static func appKeys(posts: Int) async throws {
        let binary = try BenchHome.binary()
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate()
        let bench = try BenchHome("queuetui", me: me)
        defer { bench.remove() }
        // The queue, built as the app builds it while offline.
        do {
            let local = try LocalStore(paths: bench.paths)
            let store = try local.account(me, now: Int64(Date().timeIntervalSince1970))
            let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
            await pool.setRelays([("ws://127.0.0.1:\(try TestRelay.freePort())", true)])
            let engine = SyncEngine(identity: me, store: store, pool: pool)
            let member = SecretKey.generate().publicKey.hex
            let new = try OutboundPlanner.createSession(name: "queued", members: [member], me: me.publicKey.hex, now: Int64(Date().timeIntervalSince1970),
                                                        random: SystemRandom()).get()
            _ = try await engine.enqueue([new.rumor], action: .sessionCreate, sessionID: new.sessionID, drain: false)
            for i in 0..<posts {
                let rumor = try OutboundPlanner.post(session: try store.session(new.sessionID), me: me.publicKey.hex, url: "https://example.com/q\(i)",
                                                     note: "queued \(i)", now: Int64(Date().timeIntervalSince1970)).get()
                _ = try await engine.enqueue([rumor], action: .post, sessionID: new.sessionID, drain: false)
            }
            await engine.stop()
            try local.db.close()
        }
        let stats = bench.home.appendingPathComponent("frames.json")
        let tmux = try Tmux()
        try tmux.start("q", [binary.path, "--home", bench.home.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": bench.passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("q", text: "1 Sessions", timeout: 60)
        let started = Date()
        var keys = 0, drainedAfter: Double?
        while keys < 2_000 {
            try tmux.keys("q", ["j", "k"][keys % 2])
            keys += 1
            usleep(20_000)
            if keys % 25 == 0, drainedAfter == nil, !(try tmux.screen("q").contains("waiting to send")) {
                drainedAfter = Date().timeIntervalSince(started)
                break
            }
        }
        usleep(300_000)
        try tmux.keys("q", "q")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        while try tmux.tmux(["display", "-p", "-t", "q", "#{pane_current_command}"]).trimmingCharacters(in: .whitespacesAndNewlines) != "sleep",
              Date() < deadline { usleep(50_000) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).sorted()
        guard !latencies.isEmpty else { throw ProcessRunner.Failure(description: "no key latencies recorded") }
        let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        print("queue-tui: \(binary.path), a queue of \(posts + 1) items draining into nostr-relay, 80×24 tmux")
        Timing.report("keys while the queue drains (\(latencies.count))",
                      String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms (goal p99 < 16 ms)", latencies[latencies.count / 2], p99, latencies.last!))
        Timing.report("the tab bar's count gone", drainedAfter.map { String(format: "%.1f s after the app showed its list", $0) } ?? "not within \(keys) keys")
    }

    /// One account on a store of its own, its engine on a pool of its own.
    private struct Account {
        let me = SecretKey.generate()
        let member: Pubkey
        let home: URL
        let store: AccountStore
        let pool: RelayPool
        let engine: SyncEngine

        init(member: Pubkey, relay: String) async throws {
            self.member = member
            home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-queuebench-\(UUID().uuidString)")
            let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
            let now = Int64(Date().timeIntervalSince1970)
            store = try local.account(me, now: now)
            // The member reads our relay: inbox delivery is decided without dialling anywhere else.
            try store.storeRelayList(member, kind: InboxRelayRule.inboxKind, relays: [relay], stamp: LWWStamp(createdAt: now - 60, eventID: member),
                                     fetchedAt: now)
            pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
            engine = SyncEngine(identity: me, store: store, pool: pool)
        }

        func session(online: Bool) async throws -> String {
            let new = try OutboundPlanner.createSession(name: "bench", members: [member], me: me.publicKey.hex, now: Int64(Date().timeIntervalSince1970),
                                                        random: SystemRandom()).get()
            if online { _ = try await engine.send([new.rumor]) } else {
                _ = try await engine.enqueue([new.rumor], action: .sessionCreate, sessionID: new.sessionID, drain: false)
            }
            return new.sessionID
        }

        func post(_ sid: String, _ i: Int) throws -> OutboundRumor {
            try OutboundPlanner.post(session: try store.session(sid), me: me.publicKey.hex, url: "https://example.com/p\(i)", note: "post \(i)",
                                     now: Int64(Date().timeIntervalSince1970)).get()
        }

        func remove() {
            do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
        }
    }
}
