import Foundation
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Issue 31's memory goal: the peak resident memory of one cold sync of `wraps` gift wraps (100 000 by
/// default) into an empty store, against 120 MB. On nostr-relay (paged): rust-nostr's LocalRelay keeps
/// 75 000 events in its memory database and refuses NIP-77 over more items than it allows.
enum ColdMemoryBench {
    static func run(wraps count: Int) async throws {
        let relay = try TestRelay(maxLimit: 10_000)
        defer { relay.stop() }
        let me = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        // Only the count is kept: the seeded events would count in the sync's memory.
        let (seeded, seedSeconds) = try await { let s = try await SyncBench.seed(relay.url, for: me, wraps: count, now: now); return (s.events.count, s.seconds) }()
        print("cold-memory: nostr-relay (\(relay.url)): seeded \(seeded) wraps in \(String(format: "%.1f", seedSeconds)) s")
        // What the relay serves (LocalRelay's in-memory database would hold fewer than were sent).
        let held = try await SpeedBench.plainFetch(relay.url, for: me.publicKey.hex, expect: seeded).events
        print("  the relay serves \(held) of them")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-cold-memory-\(UUID().uuidString)")
        defer {
            do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
        }
        let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(me, now: now)
        MemoryTrim.now()
        SpeedBench.resetPeakMemory()
        let before = SpeedBench.residentMiB()
        let (seconds, stats) = try await SpeedBench.timedSync(relay.url, me, store, negentropy: true)
        let peak = SpeedBench.peakMiB()
        Timing.report("cold sync, end to end", String(format: "%.1f s, %.0f wraps/s (%d opened, %d applied)", seconds, Double(stats.wrapsReceived) / seconds,
                                                      stats.decryptions, stats.applied))
        Timing.report("  NIP-77", SpeedBench.negentropyWords(stats))
        Timing.report("  peak resident memory", String(format: "%.0f MiB = %.0f MB (%.0f MiB before); goal ≤ 120 MB %@", peak, peak * 1.048576, before,
                                                       peak * 1.048576 <= 120 ? "met" : "NOT met"))
    }
}
