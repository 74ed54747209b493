import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Sync against a real local relay: 10,000 gift wraps cold and warm, and publish latency to 10 members.
enum SyncBench {
    static func run(wraps count: Int) async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        print("sync: nostr-relay at \(relay.url)")
        let me = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        let (events, seedSeconds, sessions, senderCount) = try await seed(relay.url, for: me, wraps: count, now: now)
        let counted = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [relay.directory.appendingPathComponent("nostr.sqlite3").path,
                                                                                       "select count(*) from events where kind = 1059"])
        print("  (relay holds \(counted.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) gift wraps)")
        Timing.report("seed \(events.count) wraps into the relay", String(format: "%.1f s", seedSeconds))

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-syncbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let store = try local.account(me, now: now)
        for label in ["cold (empty store)", "warm (same store, restarted)"] {
            let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
            let engine = SyncEngine(identity: me, store: store, pool: pool)
            var stats = SyncStats()
            let seconds = try await Timing.secondsAsync {
                await pool.setRelays([(relay.url, true)])
                try await engine.start()
                guard await engine.waitForBackfill(timeout: .seconds(600)) else { throw HarnessError(description: "backfill did not complete") }
                await engine.flush()
                // As the store ended up: posts that arrived before their session and were released later count as applied.
                stats = await engine.settledStats()
            }
            await engine.stop()
            Timing.report("sync \(label)", String(format: "%.2f s: %d received, %d opened, %d applied, %d waiting, %d pages", seconds,
                                                  stats.wrapsReceived, stats.decryptions, stats.applied, stats.pending, stats.backfillPages))
        }
        benchCheck(try store.postCount(in: sessions[0]) == (count - senderCount) / senderCount, "every post stored")

        // Publish latency: one post to a session of 10 members (11 wraps, one batch, all acknowledged).
        let members = (0..<9).map { _ in SecretKey.generate().publicKey.hex }
        let pool = RelayPool()
        await pool.setRelays([(relay.url, true)])
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        let new = try OutboundPlanner.createSession(name: "ten", members: members, me: me.publicKey.hex, now: now, random: SystemRandom()).get()
        _ = try await engine.send([new.rumor])
        var samples = [Double]()
        for i in 0..<30 {
            let rumor = try OutboundPlanner.post(session: try store.session(new.sessionID), me: me.publicKey.hex, url: "https://example.com/l\(i)",
                                                 note: nil, now: Int64(Date().timeIntervalSince1970)).get()
            samples.append(try await Timing.secondsAsync { _ = try await engine.send([rumor]) } * 1000)
        }
        await engine.stop()
        samples.sort()
        Timing.report("publish a post to 10 members (11 wraps)", String(format: "median %.1f ms, p90 %.1f ms (30 posts)", samples[15], samples[27]))
    }

    /// Seeds `relay` with `count` gift wraps to `me`: 20 senders each create a session with us, then post.
    static func seed(_ url: String, for me: SecretKey, wraps count: Int, now: Int64) async throws -> (events: [NostrEvent], seconds: Double, sessions: [String], senders: Int) {
        let senders = (0..<20).map { _ in SecretKey.generate() }

        // Seed: each sender creates a session with us, then posts; everything wrapped to us.
        let publisher = RelayPool()
        await publisher.setRelays([(url, true)])
        _ = await publisher.waitForWritableRelay()
        var events = [NostrEvent]()
        var sessions = [String]()
        for s in senders {
            let sid = LinkstrID.make(SystemRandom())
            sessions.append(sid)
            let create = LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, timestamp: now, sessionName: "bench", memberPubkeys: [s.publicKey.hex, me.publicKey.hex])
            events.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: s.publicKey, createdAt: now - 100_000, kind: 44001, content: create.encoded()),
                                             sender: s, recipient: me.publicKey, now: now))
        }
        let seedSeconds = try await Timing.secondsAsync {
            for i in 0..<(count - senders.count) {
                let s = i % senders.count
                let root = LinkstrPayload(conversationID: sessions[s], rootID: "", kind: .root, url: "https://example.com/\(i)", note: "post \(i)", timestamp: now)
                events.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: senders[s].publicKey, createdAt: now - 90_000 + Int64(i), kind: 44001,
                                                                      content: root.encoded()), sender: senders[s], recipient: me.publicKey, now: now))
            }
            try await publishAll(events, with: publisher)
        }
        await publisher.stop()
        return (events, seedSeconds, sessions, senders.count)
    }

    /// Sends `events` in batches of 200; a batch whose connection dropped (LocalRelay closes a flooding one)
    /// goes again, four times at most.
    static func publishAll(_ events: [NostrEvent], with publisher: RelayPool) async throws {
        for start in stride(from: 0, to: events.count, by: 200) {
            let batch = Array(events[start..<min(start + 200, events.count)])
            var attempt = 0
            while case .failure(let e) = await publisher.publish(batch, timeout: .seconds(120)) {
                attempt += 1
                guard attempt < 5 else { throw HarnessError(description: "seeding failed: \(e)") }
                _ = await publisher.waitForWritableRelay()
            }
        }
    }

}

struct HarnessError: Error, CustomStringConvertible { let description: String }

func benchCheck(_ condition: Bool, _ what: String) {
    if !condition { print("  CHECK FAILED: \(what)") }
}
