import NostrProtocol

/// The front of the ingest pipeline as a pure state machine: gift wraps come in from relays, are
/// deduplicated against what is buffered or being opened and against known junk, and leave in
/// batches; the engine runs each batch (persisted-id check, parallel unwrap, one store transaction)
/// and reports back. No clock and no tasks here: the engine owns the flush timer and the workers.
///
/// Stages overlap: up to `maxBatchesInFlight` batches are opened and stored at once while more wraps
/// arrive. Beyond that a full buffer waits (`admit` says so), which bounds memory: at most
/// (`maxBatchesInFlight` + 1) × `batchSize` wraps are held.
struct IngestBatcher {
    struct Item: Sendable {
        let relay: String
        /// Arrived on the live subscription after that relay's EOSE for it: news, not history.
        let live: Bool
        let event: NostrEvent
        /// Fetched by id after a NIP-77 sync: if already processed, its row lacks `created_at`.
        var reconciled = false
    }

    enum Admission: Equatable {
        /// Buffered. `flush`: the buffer is full, take a batch now (or wait for a slot first).
        /// `startTimer`: the first wrap of a fresh buffer: flush it after the short delay.
        case buffered(flush: Bool, startTimer: Bool)
        /// Already buffered or being opened.
        case inFlight
        /// Failed to verify or open before (a bounded negative cache).
        case knownJunk
    }

    let batchSize: Int
    let maxBatchesInFlight: Int
    private(set) var buffer: [Item] = []
    private(set) var batchesInFlight = 0
    private var inFlight = Set<String>()
    private var junk: BoundedIDSet

    init(batchSize: Int = 256, maxBatchesInFlight: Int = 2, junkCapacity: Int = 50_000) {
        self.batchSize = batchSize
        self.maxBatchesInFlight = maxBatchesInFlight
        junk = BoundedIDSet(capacity: junkCapacity)
    }

    mutating func admit(_ item: Item) -> Admission {
        let id = item.event.id.hex
        if inFlight.contains(id) { return .inFlight }
        if junk.contains(item.event.id) { return .knownJunk }
        inFlight.insert(id)
        buffer.append(item)
        return .buffered(flush: buffer.count >= batchSize, startTimer: buffer.count == 1)
    }

    /// Whether another batch may start now.
    var hasSlot: Bool { batchesInFlight < maxBatchesInFlight }

    /// The buffered wraps as one batch (at most `batchSize`), counted in flight until `finished`.
    /// nil when the buffer is empty or every slot is taken.
    mutating func takeBatch() -> [Item]? {
        guard !buffer.isEmpty, hasSlot else { return nil }
        let count = min(batchSize, buffer.count)
        let batch = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        batchesInFlight += 1
        return batch
    }

    /// A batch is done: its ids may come again (the persisted set answers for stored ones), and those
    /// that failed to open are remembered as junk.
    mutating func finished(_ batch: [Item], junk failed: [EventID]) {
        batchesInFlight -= 1
        for item in batch { inFlight.remove(item.event.id.hex) }
        for id in failed { junk.insert(id) }
    }

    var isIdle: Bool { buffer.isEmpty && batchesInFlight == 0 }
}
