import LinkstrDomain
import LinkstrStorage

/// One batch the store refused: what it would have written.
struct UnstoredBatch: Sendable {
    var messages: [InboundMessage]
    var wraps: [ProcessedWrap]
    var wrapCount: Int
}

/// Batches the store refused (the disk full, the database read-only for a moment), kept in memory and
/// written again on a timer: freeing disk space brought nothing back until the next sync (a restart, in
/// the app). Bounded: past `limit` messages the oldest batches go, and once the store takes writes again
/// every relay's history is read again, which brings them back (only what was stored counts as processed).
struct UnstoredBatches {
    static let limit = 20_000
    static let firstWait: Duration = .seconds(5)
    static let longestWait: Duration = .seconds(60)
    var batches: [UnstoredBatch] = []
    var messages = 0
    /// Some were let go: the history is read again once writing works.
    var dropped = false
    var wait = firstWait
    var retry: Task<Void, Never>?

    mutating func keep(_ batch: UnstoredBatch) {
        batches.append(batch)
        messages += batch.messages.count
        while messages > Self.limit, batches.count > 1 {
            messages -= batches.removeFirst().messages.count
            dropped = true
        }
    }

    mutating func takeAll() -> [UnstoredBatch] {
        defer { batches = []; messages = 0 }
        return batches
    }
}

extension SyncEngine {
    func keepUnstored(_ batch: UnstoredBatch) {
        ingestion.unstored.keep(batch)
        guard ingestion.unstored.retry == nil else { return }
        let wait = ingestion.unstored.wait, sleep = self.sleep
        ingestion.unstored.retry = tasks.start { [weak self] in
            await sleep(wait)
            guard !Task.isCancelled else { return }
            await self?.retryUnstored()
        }
    }

    /// Writes what was kept, oldest first; a batch refused again is kept again, with a longer wait.
    func retryUnstored() async {
        ingestion.unstored.retry = nil
        let batches = ingestion.unstored.takeAll()
        // Longer before the next try, should this one fail too (it is scheduled by `write`).
        ingestion.unstored.wait = min(ingestion.unstored.wait * 2, UnstoredBatches.longestWait)
        var stored = 0
        for (i, batch) in batches.enumerated() {
            guard await write(batch.messages, wraps: batch.wraps, wrapCount: batch.wrapCount) else {
                // The rest wait with it (the failed one was kept again by `write`).
                for rest in batches[(i + 1)...] { ingestion.unstored.keep(rest) }
                return
            }
            stored += batch.wrapCount
        }
        ingestion.unstored.wait = UnstoredBatches.firstWait
        log.info("stored what had waited for the store", metadata: ["wraps": "\(stored)"])
        updateSink.yield(.storedAfterWaiting(stored))
        if ingestion.unstored.dropped {
            ingestion.unstored.dropped = false
            let connected = Set(await pool.snapshots().filter { $0.status == .connected }.map(\.url))
            for relay in history.relayIndex.keys.sorted() where connected.contains(relay) { await restartHistory(relay) }
        }
    }

    func cancelUnstoredRetry() {
        ingestion.unstored.retry?.cancel()
        ingestion.unstored.retry = nil
    }
}
