import NostrProtocol

/// The front of the ingest pipeline as a pure state machine: gift wraps come in from relays, are
/// deduplicated against what is buffered or being opened and against known junk, and leave in
/// batches; the engine runs each batch (persisted-id check, parallel unwrap, one store transaction)
/// and reports back. No clock and no tasks here: the engine owns the flush timer and the workers.
///
/// Stages overlap: up to `maxBatchesInFlight` batches are opened and stored at once while more wraps
/// arrive. Beyond that a full buffer waits (`admit` says so), which bounds memory: at most
/// (`maxBatchesInFlight` + 1) × `largestBatch` wraps are held.
///
/// Batches grow during a burst: each full batch doubles the next one's size up to
/// `largestBatch`, and once the pipeline is idle again the next starts at the smallest. A trickle of
/// news is written within the timer's delay and the first page of a cold sync shows as soon as 256
/// wraps are open, while history streaming in is stored in transactions of up to 1 024: a store
/// transaction's cost is mostly its commit and the index pages it touches, so 1 024 messages a
/// transaction cost a third less each than 256 (`linkstr-bench ingest`; 2 048 saves a little more,
/// but the wraps held while batches wait grow with it).
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

    /// The size the next batch is taken at (and the buffer counts as full at).
    private(set) var batchSize: Int
    let smallestBatch: Int
    let largestBatch: Int
    let maxBatchesInFlight: Int
    private(set) var buffer: [Item] = []
    private(set) var batchesInFlight = 0
    private var inFlight = Set<String>()
    private var junk: BoundedIDSet

    init(batchSize: Int = IngestBatchSizes.smallest, largestBatch: Int? = nil, maxBatchesInFlight: Int = 2, junkCapacity: Int = 50_000) {
        self.batchSize = max(1, batchSize)
        smallestBatch = self.batchSize
        self.largestBatch = max(self.batchSize, largestBatch ?? self.batchSize)
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
    /// nil when the buffer is empty or every slot is taken. A full batch makes the next one larger.
    mutating func takeBatch() -> [Item]? {
        guard !buffer.isEmpty, hasSlot else { return nil }
        let count = min(batchSize, buffer.count)
        let batch = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        batchesInFlight += 1
        if count == batchSize { batchSize = IngestBatchSizes.next(after: batchSize, largest: largestBatch) }
        return batch
    }

    /// A batch is done: its ids may come again (the persisted set answers for stored ones), and those
    /// that failed to open are remembered as junk.
    mutating func finished(_ batch: [Item], junk failed: [EventID]) {
        batchesInFlight -= 1
        for item in batch { inFlight.remove(item.event.id.hex) }
        for id in failed { junk.insert(id) }
        if isIdle { batchSize = smallestBatch }  // the burst is over
    }

    var isIdle: Bool { buffer.isEmpty && batchesInFlight == 0 }
}

/// The ingest pipeline's batch sizes: where a burst starts and how far it grows (see `IngestBatcher`).
public enum IngestBatchSizes {
    public static let smallest = 256
    public static let largest = 1_024

    /// The size after a full batch of `size`.
    public static func next(after size: Int, largest: Int = largest) -> Int { min(largest, size * 2) }

    /// The sizes a burst of `count` messages is taken in when none of them waits for a slot.
    public static func burst(_ count: Int) -> [Int] {
        var sizes = [Int](), size = smallest, left = count
        while left > 0 {
            sizes.append(min(size, left))
            left -= size
            size = next(after: size)
        }
        return sizes
    }
}
