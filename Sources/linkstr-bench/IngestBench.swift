import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// The store alone, as a sync drives it: 20 friends' sessions, then `messages` link posts
/// spread over them, written in the sync's batches (growing from 256 to 1 024 as a burst goes on; and,
/// to compare, all of 256) with each message's wrap recorded as processed. No relay and no decryption:
/// this is the writer's own cost per message, the figure the speed bench can only show mixed with two
/// cores of unwrapping. Twice, each into a new store: as
/// history (a cold sync into an empty store restores it: posts arrive read) and as news (unread).
enum IngestBench {
    static func run(messages count: Int) throws {
        let me = SecretKey.generate(using: SeededRandom(seed: 42)).publicKey.hex
        let friends = (0..<20).map { SecretKey.generate(using: SeededRandom(seed: UInt64(100 + $0))).publicKey.hex }
        let sessions = friends.indices.map { LinkstrID.make(SeededRandom(seed: UInt64(200 + $0))) }
        var stream = zip(sessions, friends).map { MessageFactory.create($0, by: $1, members: [$1, me], at: 1_000) }
        for i in 0..<max(0, count - stream.count) {
            let s = i % friends.count
            stream.append(MessageFactory.root(sessions[s], by: friends[s], at: 10_000 + Int64(i), url: "https://example.com/\(i)", note: "post \(i)"))
        }
        let growing = IngestBatchSizes.burst(stream.count)
        let fixed = stride(from: 0, to: stream.count, by: IngestBatchSizes.smallest).map { min(IngestBatchSizes.smallest, stream.count - $0) }
        for (label, restoring) in [("history (read)", true), ("news (unread)", false)] {
            try run(stream, as: label, restoringHistory: restoring, sizes: growing,
                    "batches \(IngestBatchSizes.smallest)…\(IngestBatchSizes.largest)")
            try run(stream, as: label, restoringHistory: restoring, sizes: fixed, "batches of \(IngestBatchSizes.smallest)")
        }
        // As a cold sync meets them: in the order of the wraps' dates, which NIP-59 randomises, so that a
        // session's posts come before or after the message that creates it, and the ones before wait.
        var rng = SplitMix(seed: 7)
        let mark = Timing.monotonicMark()
        defer { if let mark { print(String(format: "  (in wrap order on CLOCK_MONOTONIC: from %.3f s)", mark)) } }
        try run(stream.shuffled(using: &rng), as: "history, wrap order", restoringHistory: true, sizes: growing,
                "batches \(IngestBatchSizes.smallest)…\(IngestBatchSizes.largest)")
    }

    private static func run(_ stream: [InboundMessage], as label: String, restoringHistory: Bool, sizes: [Int], _ batches: String) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-ingest-\(UUID().uuidString)")
        defer {
            do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
        }
        let store = try LocalStore(paths: DataPaths.resolve(home: home.path)).account(SecretKey.generate(using: SeededRandom(seed: 42)), now: 1)
        var perBatch = [Double]()
        var start = 0
        for size in sizes {
            let batch = Array(stream[start..<start + size])
            start += size
            let wraps = batch.flatMap { m in m.wrapIDs.map { ProcessedWrap(id: $0, createdAt: m.createdAt) } }
            perBatch.append(try Timing.seconds { _ = try store.ingest(batch, restoringHistory: restoringHistory, wraps: wraps, now: 1) })
        }
        let total = perBatch.reduce(0, +)
        let sorted = perBatch.sorted()
        Timing.report("\(stream.count) \(label), \(batches)",
                      String(format: "%.2f s, %.1f µs a message (%.0f/s); batch median %.1f ms, slowest %.1f ms", total, total / Double(stream.count) * 1e6,
                             Double(stream.count) / total, sorted[sorted.count / 2] * 1000, sorted.last! * 1000))
        // The same messages again (a relay that sends everything twice): dedup by rumor id only.
        let again = try Timing.seconds {
            var start = 0
            for size in sizes {
                _ = try store.ingest(Array(stream[start..<start + size]), restoringHistory: restoringHistory, wraps: [], now: 1)
                start += size
            }
        }
        Timing.report("  the same messages again (duplicates)", String(format: "%.2f s, %.1f µs a message", again, again / Double(stream.count) * 1e6))
    }
}
