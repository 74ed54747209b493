import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Issue 30: a send to a 10-member session whose nine other members each read a different relay of
/// their own (kind 10050), one of which accepts the connection and never answers. Measures the time to
/// "sent" (our relay accepted every wrap: the iOS rule), the time until every member's delivery is
/// known, the connections opened beyond ours, and that the silent relay costs no more than its deadline.
enum OutboxBench {
    static func run(posts: Int) async throws {
        try await run(posts: posts, silentLast: false)
        try await run(posts: posts, silentLast: true)
    }

    static func run(posts: Int, silentLast: Bool) async throws {
        let ours = try TestRelay()
        defer { ours.stop() }
        let inboxes = try (0..<(silentLast ? 8 : 9)).map { _ in try InteropServer(script: "limited_relay.py", arguments: ["4000000"]) }
        let silent = try silentLast ? [InteropServer(script: "silent_tcp.py", arguments: [])] : []
        defer { (inboxes + silent).forEach { $0.stop() } }
        let relays = inboxes.map(\.url) + silent.map(\.url)
        print("outbox: our relay \(ours.url); 9 members, each with their own inbox relay" + (silentLast ? " (the last one never answers)" : ""))

        let me = SecretKey.generate(), members = (0..<9).map { _ in SecretKey.generate().publicKey.hex }
        let now = Int64(Date().timeIntervalSince1970)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-outboxbench-\(UUID().uuidString)")
        defer {
            do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
        }
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let store = try local.account(me, now: now)
        for (member, relay) in zip(members, relays) {
            try store.storeRelayList(member, kind: InboxRelayRule.inboxKind, relays: [relay], stamp: LWWStamp(createdAt: now - 60, eventID: member),
                                     fetchedAt: now)
        }
        let delivery = InboxDelivery(allowPrivateAddresses: true, timeout: .seconds(2))
        let deadlineMS = Double(delivery.timeout.nanoseconds / 1_000_000)
        let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
        await pool.setRelays([(ours.url, true)])
        let engine = SyncEngine(identity: me, store: store, pool: pool,
                                delivery: delivery)
        let new = try OutboundPlanner.createSession(name: "ten", members: members, me: me.publicKey.hex, now: now, random: SystemRandom()).get()
        _ = try await engine.send([new.rumor])
        await engine.finishDeliveries()
        let before = await engine.stats.extraConnections
        var sent = [Double](), known = [Double]()
        for i in 0..<posts {
            let rumor = try OutboundPlanner.post(session: try store.session(new.sessionID), me: me.publicKey.hex, url: "https://example.com/o\(i)",
                                                 note: nil, now: Int64(Date().timeIntervalSince1970)).get()
            var postID = ""
            let start = ContinuousClock.now
            postID = try await engine.send([rumor])[0].rumorID
            sent.append(ms(ContinuousClock.now - start))
            await engine.finishDeliveries()
            known.append(ms(ContinuousClock.now - start))
            let outcomes = try store.deliveries(postID, members: members)
            benchCheck(outcomes.count == 9, "every member's delivery recorded")
            benchCheck(members.dropLast().allSatisfy { outcomes[$0]?.isDelivered == true }, "the answering inboxes took their copy")
            benchCheck(outcomes[members[8]]?.isDelivered == !silentLast, "the silent relay's member is not counted as reached")
        }
        let connections = await engine.stats.extraConnections - before
        await engine.stop()
        sent.sort()
        known.sort()
        Timing.report("time to \"sent\" (10 wraps)", String(format: "median %.1f ms, p90 %.1f ms (%d posts)", sent[posts / 2],
                                                                                    sent[posts * 9 / 10], posts))
        Timing.report("each member's delivery known", String(format: "median %.0f ms, max %.0f ms (deadline %d s a step)",
                                                            known[posts / 2], known[posts - 1], Int(deadlineMS / 1000)))
        Timing.report("connections beyond ours", String(format: "%.1f per send (9 members, 9 relays, one connection each)", Double(connections) / Double(posts)))
        benchCheck(known[posts - 1] < deadlineMS * 2 + 1_000, "nothing waits on the silent relay beyond its deadlines")
    }

    static func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
}
