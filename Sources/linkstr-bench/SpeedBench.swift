import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Issues 17 and 31 in one run: for `wraps` gift wraps on each relay implementation (nostr-relay, paged;
/// rust-nostr's LocalRelay, by NIP-77), the plain-fetch floor of that relay, a cold sync end to end
/// with each stage's own rate, the store's cost per message and the peak memory, and a warm re-sync
/// against the floor (with the NIP-77 bytes); on LocalRelay, the same syncs paged (NIP-77 off) beside
/// them, and rust-nostr's `Client.sync` of the same wraps; then the unwrap figures (one core against
/// the libsecp256k1 floor and rust-nostr) from the protocol bench. `only` (`nostr-relay` or `LocalRelay`)
/// runs that relay's rows alone, without the protocol and screen figures: a profile of one sync.
enum SpeedBench {
    static func run(wraps count: Int, only: String? = nil) async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("speed: \(count) gift wraps per relay, \(cores) cores")
        let nostrRelay = try TestRelay(maxLimit: 10_000)
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        var rows: [Row] = []
        let relays = [("nostr-relay", nostrRelay.url, nostrRelay.processID), ("LocalRelay", localRelay.url, localRelay.processID)]
        guard only == nil || relays.contains(where: { $0.0 == only }) else { throw HarnessError(description: "no relay named \(only ?? "")") }
        for (name, url, relayPID) in relays where only == nil || name == only {
            let me = SecretKey.generate()
            let now = Int64(Date().timeIntervalSince1970)
            // Only the count is kept: the seeded events would count in the sync's memory.
            // LocalRelay's ids and times go to a file for rust-nostr's full-database sync.
            let (seededCount, seedSeconds, items) = try await {
                let s = try await SyncBench.seed(url, for: me, wraps: count, now: now)
                return (s.events.count, s.seconds, name == "LocalRelay" ? try RustSyncBench.writeItems(s.events) : nil)
            }()
            defer {
                if let items { do { try FileManager.default.removeItem(at: items) } catch { print("  (could not remove \(items.path): \(error))") } }
            }
            print("\(name) (\(url)): seeded \(seededCount) wraps in \(String(format: "%.1f", seedSeconds)) s")
            // A plain fetch, timed, with what it cost the relay.
            func fetched(_ label: String, growing: Bool) async throws -> (seconds: Double, events: Int) {
                let relayBefore = relayPID.flatMap(ProcessCPU.seconds)
                let fetch = try await plainFetch(url, for: me.publicKey.hex, expect: seededCount, growing: growing)
                let relayCPU = relayPID.flatMap(ProcessCPU.seconds).flatMap { after in relayBefore.map { after - $0 } }
                Timing.report(label, String(format: "%.2f s, %.0f events/s (%d events); the relay's CPU %@", fetch.seconds,
                                            Double(fetch.events) / fetch.seconds, fetch.events, relayCPU.map { String(format: "%.2f s", $0) } ?? "?"))
                return fetch
            }
            let fetch = try await fetched("plain fetch (pages of 500, parsed, unchecked)", growing: false)
            // Where we page (nostr-relay; LocalRelay is read by NIP-77 and sends 500 at most), the same
            // fetch with pages growing as ours do: the floor our paged sync can reach.
            if name != "LocalRelay" { _ = try await fetched("plain fetch, pages growing to 4 000", growing: true) }
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-speed-\(UUID().uuidString)")
            defer {
                do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
            }
            let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(me, now: now)
            var row = Row(relay: name, fetch: fetch.seconds)
            for label in ["cold", "warm"] {
                // What earlier rounds freed goes back to the system first, so the peak is this sync's.
                MemoryTrim.now()
                resetPeakMemory()
                let before = residentMiB()
                let cpuBefore = (ours: ProcessCPU.ours(), relay: relayPID.flatMap(ProcessCPU.seconds))
                let marks = Timing.monotonicMark()
                let (seconds, stats) = try await timedSync(url, me, store, negentropy: true)
                if let marks { print(String(format: "  (%@ sync on CLOCK_MONOTONIC: %.3f–%.3f s, for perf record -k CLOCK_MONOTONIC)", label, marks, Timing.monotonicMark() ?? 0)) }
                let cpu = (ours: ProcessCPU.ours() - cpuBefore.ours,
                           relay: relayPID.flatMap(ProcessCPU.seconds).flatMap { after in cpuBefore.relay.map { after - $0 } })
                let wraps = Double(stats.wrapsReceived)
                if label == "cold" {
                    row.cold = seconds
                    let peak = peakMiB()
                    row.peak = peak
                    let stored = Double(max(1, stats.applied + stats.pending + stats.duplicates))
                    row.storeMicros = stats.storeSeconds / stored * 1e6
                    let receiving = (stats.lastReceived ?? 0) - (stats.firstReceived ?? 0)
                    Timing.report("cold sync, end to end", String(format: "%.2f s, %.0f wraps/s (%d opened, %d applied)", seconds, wraps / seconds,
                                                                  stats.decryptions, stats.applied))
                    Timing.report("  receiving (first to last wrap)", String(format: "%.2f s, %.0f wraps/s", receiving, wraps / max(receiving, 1e-9)))
                    Timing.report("  unwrapping (busy time, \(cores) cores)", String(format: "%.2f s, %.0f wraps/s", stats.unwrapSeconds,
                                                                                     Double(stats.decryptions) / max(stats.unwrapSeconds, 1e-9)))
                    Timing.report("  storing (busy time, one writer)", String(format: "%.2f s, %.0f messages/s", stats.storeSeconds,
                                                                               stored / max(stats.storeSeconds, 1e-9)))
                    Timing.report("  storing, per message (busy ÷ messages)", String(format: "%.1f µs", row.storeMicros))
                    Timing.report("  storing, the writer's CPU time", String(format: "%.2f s, %.1f µs a message; %d transactions of %.0f on average",
                                                                             stats.storeCPUSeconds, stats.storeCPUSeconds / stored * 1e6,
                                                                             stats.storeBatches, stored / Double(max(1, stats.storeBatches))))
                    Timing.report("  CPU: ours / the relay's / both cores' time", String(format: "%.2f s / %@ / %.2f s", cpu.ours,
                                                                                       cpu.relay.map { String(format: "%.2f s", $0) } ?? "?",
                                                                                       seconds * Double(cores)))
                    Timing.report("  peak resident memory", String(format: "%.0f MiB (%.0f before)", peak, before))
                    Timing.report("  NIP-77", Self.negentropyWords(stats))
                } else {
                    row.warm = seconds
                    row.warmBytes = stats.reconcileBytes + stats.preferencesReconcileBytes + stats.profilesReconcileBytes
                    Timing.report("warm re-sync (same store)", String(format: "%.2f s, %.2f× the plain fetch, %d decryptions, %d wraps received", seconds,
                                                                      seconds / fetch.seconds, stats.decryptions, stats.wrapsReceived))
                    Timing.report("  NIP-77", Self.negentropyWords(stats))
                }
            }
            if name == "LocalRelay" {
                row.paged = try await pagedSyncs(url, for: me, now: now)
            }
            if let items { row.rust = try RustSyncBench.run(url, for: me.publicKey.hex, items: items) }
            rows.append(row)
        }
        Self.printGoals(rows, count: count)
        guard only == nil else { return }
        try ProtocolBench.run(wrapCount: 10_000)
        // The screen during such a sync: keys and feed opens in the release app (nostr-relay).
        try await SyncTUIBench.run(wraps: count)
    }

    /// A plain client: REQ pages of 500 going back with an inclusive `until`, every event parsed (no
    /// signature check, no decryption), until a page brings nothing new. `growing`: a full page doubles
    /// the next one's limit up to 4 000, as our history chain does.
    static func plainFetch(_ url: String, for pubkey: String, expect: Int, growing: Bool = false) async throws -> (seconds: Double, events: Int) {
        let connection = try await WebSocketConnection.connect(to: URL(string: url)!)
        defer { connection.close() }
        var seen = Set<EventID>(), until: Int64?
        var iterator = connection.events.makeAsyncIterator()
        let seconds = try await Timing.secondsAsync {
            var page = 0, limit = 500
            while true {
                page += 1
                var filter = "{\"kinds\":[1059],\"#p\":[\"\(pubkey)\"],\"limit\":\(limit)"
                if let until { filter += ",\"until\":\(until)" }
                connection.send("[\"REQ\",\"f\(page)\",\(filter)}]")
                var fresh = 0, sent = 0
                pageLoop: while let event = await iterator.next() {
                    guard case .text(let text) = event else { throw HarnessError(description: "the relay closed: \(event)") }
                    switch try RelayMessage.decode(text) {
                    case .event(_, let e):
                        sent += 1
                        if seen.insert(e.id).inserted { fresh += 1 }
                        until = min(until ?? e.createdAt, e.createdAt)
                    case .eose, .closed: break pageLoop
                    default: continue
                    }
                }
                connection.send("[\"CLOSE\",\"f\(page)\"]")
                if fresh == 0 || seen.count >= expect { break }
                if growing && sent >= limit { limit = min(limit * 2, 4_000) }
            }
        }
        return (seconds, seen.count)
    }

    struct Row {
        let relay: String
        let fetch: Double
        var cold = 0.0, warm = 0.0, peak = 0.0, storeMicros = 0.0
        var warmBytes = 0
        /// Ours with NIP-77 off, cold then warm (seconds).
        var paged: (cold: Double, warm: Double)?
        var rust: RustSyncBench.Figures?
    }

    /// The same relay paged (NIP-77 off) into a fresh store, cold then warm: what NIP-77 changes, side by side.
    static func pagedSyncs(_ url: String, for me: SecretKey, now: Int64) async throws -> (cold: Double, warm: Double) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-speed-paged-\(UUID().uuidString)")
        defer {
            do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
        }
        let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(me, now: now)
        var seconds = [Double]()
        for label in ["cold", "warm"] {
            let (s, stats) = try await timedSync(url, me, store, negentropy: false)
            Timing.report("\(label) sync, paged (NIP-77 off)", String(format: "%.2f s, %d decryptions, %d wraps received, %d pages", s, stats.decryptions,
                                                                        stats.wrapsReceived, stats.backfillPages))
            seconds.append(s)
        }
        return (seconds[0], seconds[1])
    }

    /// One sync of `store` against `url` to the end of its history: its time and counts.
    static func timedSync(_ url: String, _ me: SecretKey, _ store: AccountStore, negentropy: Bool) async throws -> (Double, SyncStats) {
        let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        await engine.setNegentropy(enabled: negentropy)
        var stats = SyncStats()
        let seconds = try await Timing.secondsAsync {
            await pool.setRelays([(url, true)])
            try await engine.start()
            guard await engine.waitForBackfill(timeout: .seconds(600)) else { throw HarnessError(description: "backfill did not complete") }
            // The sender's profile too (read beside the history: over by now, in practice).
            await engine.waitForProfileHistory(timeout: .seconds(10))
            await engine.flush()
            stats = await engine.settledStats()
        }
        await engine.stop()
        return (seconds, stats)
    }

    static func negentropyWords(_ stats: SyncStats) -> String {
        guard stats.reconciledRelays + stats.reconcileFallbacks > 0 else { return "not used (paged: \(stats.backfillPages) pages of gift wraps)" }
        return "\(stats.reconciledRelays) relay(s) reconciled in \(stats.reconcileRounds) round(s), \(stats.reconcileBytes) hex bytes both ways, "
            + "\(stats.reconcileNeeded) ids fetched, \(stats.reconcileFallbacks) fallback(s) to paging"
            + (stats.lastReconcileFallback.map { " (last: \($0))" } ?? "")
            + (stats.preferencesReconciled + stats.preferencesReconcileFallbacks > 0
                ? "; preferences: \(stats.preferencesReconciled) reconciled, \(stats.preferencesReconcileBytes) bytes, "
                    + "\(stats.preferencesReconcileNeeded) fetched, \(stats.preferencesReconcileFallbacks) paged" : "")
            + (stats.profilesReconciled + stats.profilesReconcileFallbacks > 0
                ? "; profiles: \(stats.profilesReconciled) part(s) reconciled, \(stats.profilesReconcileBytes) bytes, "
                    + "\(stats.profilesReconcileNeeded) fetched, \(stats.profilesReconcileFallbacks) paged" : "")
    }

    /// Issue 31's goals, each said met or not.
    static func printGoals(_ rows: [Row], count: Int) {
        func said(_ ok: Bool) -> String { ok ? "met" : "NOT met" }
        print("goals (issue 31): cold ≥ 12 000 wraps/s on LocalRelay, ≥ 9 000 on nostr-relay; store ≤ 40 µs a message; "
              + "warm ≤ 0.25× fetch with NIP-77, ≤ 1.2× without; RSS ≤ 120 MB")
        for r in rows {
            let rate = Double(count) / r.cold, coldGoal = r.relay == "LocalRelay" ? 12_000.0 : 9_000.0
            let warmGoal = r.relay == "LocalRelay" ? 0.25 : 1.2
            print(String(format: "  %@: cold %.0f wraps/s %@; store %.1f µs %@; warm %.2f× fetch %@ (%d bytes of NIP-77); peak %.0f MiB %@", r.relay,
                         rate, said(rate >= coldGoal), r.storeMicros, said(r.storeMicros <= 40), r.warm / r.fetch, said(r.warm / r.fetch <= warmGoal),
                         r.warmBytes, r.peak, said(r.peak <= 120 / 1.048576)))
            if let paged = r.paged {
                print(String(format: "  %@ paged (NIP-77 off): cold %.2f s, warm %.2f s (%.2f× fetch); with NIP-77: cold %.2f s, warm %.2f s", r.relay,
                             paged.cold, paged.warm, paged.warm / r.fetch, r.cold, r.warm))
            }
            if let rust = r.rust {
                let empty = rust.empty.map { String(format: "%.2f s", $0) }
                    ?? "failed (“\(rust.emptyError ?? "?")”; learning what it lacks \(String(format: "%.2f s", rust.reconcileOnly ?? 0)))"
                print(String(format: "  %@, rust-nostr Client.sync (fetch and signature checks only): into an empty database %@ (ours cold %.2f s), "
                             + "every wrap held %.2f s (ours warm %.2f s)", r.relay, empty, r.cold, rust.full, r.warm))
            }
        }
    }

    static func residentMiB() -> Double { Double(JunkBench.status(getpid(), "VmRSS")) / 1024 }
    static func peakMiB() -> Double { Double(JunkBench.status(getpid(), "VmHWM")) / 1024 }
    /// The peak (VmHWM) starts again from the current size (Linux: 5 to clear_refs).
    static func resetPeakMemory() {
        do { try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8) } catch {
            print("  (the peak memory cannot be reset here: \(error); it counts from the process start)")
        }
    }
}
