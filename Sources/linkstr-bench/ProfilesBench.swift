import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Issue 31, the people we know: the kinds 0, 10050 and 10002 of `people` contacts on each relay, read
/// at a cold start and again at a warm one (nothing changed): by NIP-77 on rust-nostr's LocalRelay,
/// paged on nostr-relay and on LocalRelay with NIP-77 off. Time until the profiles' history is read,
/// the relay's messages received (each event was one), and NIP-77's hex bytes both ways.
enum ProfilesBench {
    static func run(people count: Int) async throws {
        let nostrRelay = try TestRelay(maxLimit: 10_000)
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        let now = Int64(Date().timeIntervalSince1970)
        let people = (0..<count).map { _ in SecretKey.generate() }
        var events = [NostrEvent]()
        for (i, p) in people.enumerated() {
            let name = #"{"name":"person \#(i)","about":"a profile of a usual size, with a few words about its author","picture":"https://example.com/\#(i).jpg"}"#
            events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 90_000 + Int64(i), kind: 0, content: name).signed(with: p))
            events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 80_000 + Int64(i), kind: InboxRelayRule.inboxKind,
                                        tags: [["relay", "wss://inbox\(i % 7).example"], ["relay", "wss://dm.example"]], content: "").signed(with: p))
            events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 70_000 + Int64(i), kind: InboxRelayRule.relayListKind,
                                        tags: [["r", "wss://read\(i % 11).example", "read"], ["r", "wss://write.example", "write"]], content: "").signed(with: p))
        }
        let bytes = events.reduce(0) { $0 + $1.jsonString().utf8.count }
        print("profiles: \(count) people, \(events.count) events (\(bytes / 1024) KiB of JSON) on each relay")
        for url in [nostrRelay.url, localRelay.url] { try await publish(events, to: url) }
        let contacts = people.map(\.publicKey.hex)
        for (name, url) in [("nostr-relay", nostrRelay.url), ("LocalRelay", localRelay.url)] {
            let (seconds, received) = try await oneRequest(url, authors: contacts.sorted())
            Timing.report("\(name): the request of every start before", String(format: "%.2f s, %d of %d events (one REQ, a filter per %d people, no limit)",
                                                                           seconds, received, events.count, SyncEngine.authorsPerFilter))
        }
        for (name, url, negentropy) in [("nostr-relay (paged)", nostrRelay.url, false), ("LocalRelay (NIP-77)", localRelay.url, true),
                                        ("LocalRelay (NIP-77 off, paged)", localRelay.url, false)] {
            let me = SecretKey.generate()
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-profiles-\(UUID().uuidString)")
            defer {
                do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
            }
            let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(me, now: now)
            try store.replaceContacts(contacts, stamp: LWWStamp(createdAt: now - 100_000, eventID: String(repeating: "c", count: 64)))
            for label in ["cold", "warm"] {
                let (seconds, stats, messages) = try await start(url, me, store, negentropy: negentropy)
                let known = try store.profileNames().count
                Timing.report("\(name): \(label) start", String(format: "%.2f s until read, %d messages received, %d names held; "
                                                                    + "%d part(s) reconciled, %d hex bytes, %d fetched, %d paged",
                                                                    seconds, messages, known, stats.profilesReconciled, stats.profilesReconcileBytes,
                                                                    stats.profilesReconcileNeeded, stats.profilesReconcileFallbacks))
            }
        }
    }

    /// One start of the engine to the end of the profiles' history: its time, stats and messages received.
    static func start(_ url: String, _ me: SecretKey, _ store: AccountStore, negentropy: Bool) async throws -> (Double, SyncStats, Int) {
        let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        await engine.setNegentropy(enabled: negentropy)
        var messages = 0
        let seconds = try await Timing.secondsAsync {
            await pool.setRelays([(url, true)])
            try await engine.start()
            guard await engine.waitForBackfill(timeout: .seconds(120)) else { throw HarnessError(description: "backfill did not complete") }
            await engine.waitForProfileHistory(timeout: .seconds(120))
        }
        messages = await engine.relaySnapshots().reduce(0) { $0 + $1.stats.eventsReceived }
        let stats = await engine.settledStats()
        await engine.stop()
        return (seconds, stats, messages)
    }

    /// The request every start and reconnect sent before (one REQ, a filter per 250 authors, no
    /// limit): its time to EOSE and how many events came.
    static func oneRequest(_ url: String, authors: [String]) async throws -> (Double, Int) {
        let connection = try await WebSocketConnection.connect(to: URL(string: url)!)
        defer { connection.close() }
        let filters = stride(from: 0, to: authors.count, by: SyncEngine.authorsPerFilter).map {
            Filter(authors: Array(authors[$0..<min($0 + SyncEngine.authorsPerFilter, authors.count)]), kinds: [0, 10050, 10002])
        }
        var received = 0, iterator = connection.events.makeAsyncIterator()
        let seconds = try await Timing.secondsAsync {
            connection.send(ClientMessage.req(subscriptionID: "before", filters: filters).encoded())
            while let event = await iterator.next() {
                guard case .text(let text) = event else { throw HarnessError(description: "the relay closed: \(event)") }
                switch try RelayMessage.decode(text) {
                case .event: received += 1
                case .eose, .closed: return
                default: continue
                }
            }
        }
        return (seconds, received)
    }

    static func publish(_ events: [NostrEvent], to url: String) async throws {
        let publisher = RelayPool()
        await publisher.setRelays([(url, true)])
        _ = await publisher.waitForWritableRelay()
        try await SyncBench.publishAll(events, with: publisher)
        await publisher.stop()
    }
}
