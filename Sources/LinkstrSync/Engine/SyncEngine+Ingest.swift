import Dispatch
import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol
import Synchronization

/// The ingest pipeline's state: wraps buffered or being opened, batches in flight, junk counts.
struct IngestState {
    /// The pipeline's front (pure, tested alone): wraps buffered or being opened, known junk, and
    /// batches; the persisted processed set is asked per batch (`ingest`). Two batches are in flight at
    /// most (one opened while the other is written), and the pool's consumer waits once `queuedBatches`
    /// more are buffered, which bounds what is held. Batches grow from 256 to 1 024 during a burst.
    var batcher = IngestBatcher(batchSize: IngestBatchSizes.smallest, largestBatch: IngestBatchSizes.largest, maxBatchesInFlight: 2)
    /// Takes full batches while the pool's consumer goes on receiving (so the next history page is asked
    /// for while this one is opened and stored); nil when idle.
    var worker: Task<Void, Never>?
    var activeFlushes = 0
    /// Posts and reactions of sessions not met yet, held while the history is read.
    var hold = SessionlessHold()
    /// Relays whose live subscription reached EOSE: what comes on it after that is news.
    var liveEOSE = Set<String>()
    var stagedAtStart = 0
    var junkSinceTrim = 0
    /// Junk seen again (already known, not checked twice) per relay, not yet told to the pool.
    var knownJunk: [String: Int] = [:]
    /// The wrap each seal was opened from: another wrap around a seal already opened is a variant, junk
    /// (only its sender can make one now that the wrap's signature is checked; nothing is gained by it).
    var sealsOpened = BoundedIDMap<EventID>(capacity: 100_000)
    /// Batches the store refused (the disk full), tried again on a timer (`+StoreRetry`).
    var unstored = UnstoredBatches()
    /// When the allocator was last given memory back (the engine's monotonic time).
    var lastTrim: Duration = .zero
    static let queuedBatches = 2
    /// How long a partial batch waits for more (see `flushSoon`).
    static let newsDelay = Duration.milliseconds(40)
    static let historyDelay = Duration.milliseconds(200)
}

/// Ingest: wraps deduplicated before any decryption, opened on every core, stored one batch per
/// transaction off the actor, with backpressure on the pool's consumer.
extension SyncEngine {
    func enqueue(_ relay: String, live: Bool, _ e: NostrEvent, reconciled: Bool = false) async {
        stats.wrapsReceived += 1
        let received = Self.seconds(ContinuousClock.now)
        if stats.firstReceived == nil { stats.firstReceived = received }
        stats.lastReceived = received
        // `live` is decided on receipt: an event is news only when it came on the live subscription after
        // that relay's EOSE for it. (Deciding at flush time filed history received just before EOSE as live.)
        let item = IngestBatcher.Item(relay: relay, live: live && ingestion.liveEOSE.contains(relay), event: e, reconciled: reconciled)
        if !ingestion.hold.isEmpty, ingestion.hold.isHolding(wrap: e.id.hex) {
            stats.wrapsAlreadyProcessed += 1
            return
        }
        switch ingestion.batcher.admit(item) {
        case .inFlight: stats.wrapsAlreadyProcessed += 1
        case .knownJunk:
            stats.invalidWraps += 1
            ingestion.knownJunk[relay, default: 0] += 1
            if ingestion.knownJunk[relay, default: 0] >= 50 { await pool.eventsChecked(relay, 0, ingestion.knownJunk.removeValue(forKey: relay) ?? 0) }
        case .buffered(flush: true, _):
            kickWorker()
            // Backpressure: past a few batches the consumer of pool events waits for the worker.
            while ingestion.batcher.buffer.count >= ingestion.batcher.batchSize * IngestState.queuedBatches {
                await park(.space)
            }
        case .buffered:
            flushSoon(news: item.live)  // a trickle of wraps is still batched
        }
    }

    /// Flushes a partial batch after a short delay: news within 40 ms; history, which comes by the page,
    /// after 200 ms, so that a cold sync fed slower than it is opened still writes batches of hundreds
    /// (a transaction of 256 messages costs 1.2–1.4 times as much per message as one of 1 024).
    private func flushSoon(news: Bool) {
        if news { debounce(.flushNews, IngestState.newsDelay) } else { debounce(.flush, IngestState.historyDelay) }
    }

    /// The run's counts as the store ended up: a message that waited in a batch and was released by a
    /// later one (a post before its session) counts as applied, not pending.
    public func settledStats() -> SyncStats {
        var settled = stats
        guard let staged = read("the staged count", { try store.stagedCount() }) else { return settled }
        let stillWaiting = min(stats.pending, max(0, staged - ingestion.stagedAtStart))
        settled.applied += stats.pending - stillWaiting
        settled.pending = stillWaiting
        return settled
    }

    /// Each relay's share of junk, for its junk meter in the pool (a relay sending mostly junk is dropped).
    private func reportChecked(_ checked: [String: (valid: Int, junk: Int)]) async {
        for (relay, c) in checked { await pool.eventsChecked(relay, c.valid, c.junk) }
    }

    private func kickWorker() {
        guard ingestion.worker == nil else { return }
        ingestion.worker = tasks.start { await self.drainFullBatches() }
    }

    /// Full batches as long as there are some, up to `maxBatchesInFlight` at once (one is opened while
    /// the one before is written); a partial batch waits for the timer or `flush()`.
    private func drainFullBatches() async {
        // isolated body: it reads `ingestion` (captures self), so Swift runs it on the engine, and its children call back in
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            while true {
                if ingestion.batcher.buffer.count >= ingestion.batcher.batchSize, let batch = takeBatch() {
                    running += 1
                    group.addTask { await self.ingest(batch) }
                    continue
                }
                guard running > 0 else { break }
                await group.next()
                running -= 1
            }
        }
        ingestion.worker = nil
    }

    /// After a flood of junk the allocator keeps the freed batches: give them back (at most every 2 s),
    /// so resident memory returns to where it was.
    private func returnMemoryAfterJunk() {
        let now = time.monotonic()
        guard ingestion.junkSinceTrim >= 2_000, now - ingestion.lastTrim > .seconds(2) else { return }
        ingestion.junkSinceTrim = 0
        ingestion.lastTrim = now
        MemoryTrim.now()
    }

    /// Ingests everything buffered and returns once no flush is running any more (a flush started
    /// elsewhere may still be opening its batch: the actor lets others in while it awaits).
    /// What was held for sessions not met yet is written too (`writeHeld`).
    public func flush() async {
        repeat {
            await flushBuffer()
            await writeHeld()
        } while ingestion.activeFlushes > 0 || !ingestion.batcher.buffer.isEmpty || !ingestion.hold.isEmpty
    }

    /// Ingests everything buffered (what is held waits on).
    func flushBuffer() async {
        while ingestion.activeFlushes > 0 || !ingestion.batcher.buffer.isEmpty {
            if !ingestion.batcher.buffer.isEmpty, ingestion.batcher.hasSlot { await flushBuffered(); continue }
            await park(.flushed)
        }
    }

    /// Opens the buffered wraps (on every core) and ingests them in one transaction.
    func flushBuffered() async {
        undebounce(.flush)
        undebounce(.flushNews)
        guard let buffered = takeBatch() else { return }
        await ingest(buffered)
    }

    private func takeBatch() -> [IngestBatcher.Item]? {
        guard let batch = ingestion.batcher.takeBatch() else { return nil }
        ingestion.activeFlushes += 1
        release(.space)  // room again for the consumer of pool events
        return batch
    }

    /// Opens a taken batch (on every core) and ingests it in one transaction (off the actor).
    private func ingest(_ buffered: [IngestBatcher.Item]) async {
        var failed = [EventID]()
        defer {
            ingestion.batcher.finished(buffered, junk: failed)
            if ingestion.batcher.buffer.count >= ingestion.batcher.batchSize { kickWorker() } else if !ingestion.batcher.buffer.isEmpty {
                flushSoon(news: ingestion.batcher.buffer.contains(where: \.live))
            }
        }
        defer {
            ingestion.activeFlushes -= 1
            if ingestion.activeFlushes == 0 { release(.flushed) }
        }
        let bufferedIDs = buffered.map { $0.event.id.hex }
        // Dedup against the persisted set before any decryption. If that lookup fails, opening again is
        // only wasted work (ingest dedups by rumor id): this read decides no write.
        let known = (try? store.alreadyProcessed(bufferedIDs)) ?? []
        stats.wrapsAlreadyProcessed += known.count
        let batch = known.isEmpty ? buffered : buffered.filter { !known.contains($0.event.id.hex) }
        var checked = [String: (valid: Int, junk: Int)]()
        for item in buffered where known.contains(item.event.id.hex) { checked[item.relay, default: (0, 0)].valid += 1 }
        // Processed before their `created_at` was kept: a NIP-77 sync found them missing; now they are not.
        let untimed = buffered.filter { $0.reconciled && known.contains($0.event.id.hex) }.map { ProcessedWrap(id: $0.event.id.hex, createdAt: $0.event.createdAt) }
        if !untimed.isEmpty {
            // On the write queue like the batches (off the actor); a failure is reported as `write` does.
            let store = self.store
            do { try await Self.writing { try store.fillWrapTimes(untimed) } } catch { write("the times of processed wraps") { () throws -> Void in throw error } }
        }
        guard !batch.isEmpty else { return await reportChecked(checked) }
        let now = clock()
        let identity = identity, cache = keyCache
        let unwrapStart = ContinuousClock.now
        // Opened and decoded on every core: the actor only sorts the results.
        let opened = await Self.openAll(batch.map { ($0.event, $0.live ? MessageSource.live : .historical) }, receivedAt: now,
                                        identity: identity, cache: cache)
        stats.unwrapSeconds += Self.seconds(ContinuousClock.now) - Self.seconds(unwrapStart)
        stats.decryptions += batch.count
        var messages = [InboundMessage]()
        var variants = Set<EventID>()
        for (item, result) in zip(batch, opened) {
            if case .success(let wrap) = result {
                if let first = ingestion.sealsOpened[wrap.sealID], first != item.event.id {
                    variants.insert(item.event.id)
                } else {
                    ingestion.sealsOpened.insert(wrap.sealID, item.event.id)
                }
            }
            switch result {
            case .failure, .success where variants.contains(item.event.id):
                // Junk (a bad id or signature, not for us, undecryptable, a bad seal, another wrap around a
                // seal already opened) costs no disk: remembered in memory only.
                stats.invalidWraps += 1
                checked[item.relay, default: (0, 0)].junk += 1
                failed.append(item.event.id)
                ingestion.junkSinceTrim += 1
            case .success(let wrap):
                checked[item.relay, default: (0, 0)].valid += 1
                switch wrap.decoded {
                case .success(let m): messages.append(m)
                case .failure(.notLinkstr): stats.notLinkstr += 1
                case .failure: stats.rejectedPayloads += 1
                }
            }
        }
        returnMemoryAfterJunk()
        await reportChecked(checked)
        let processed = zip(batch, opened).compactMap { item, result in
            (try? result.get()) == nil || variants.contains(item.event.id) ? nil : ProcessedWrap(id: item.event.id.hex, createdAt: item.event.createdAt)
        }
        // Posts of sessions not met yet wait for them in memory while the history is read (`SessionlessHold`).
        let store = self.store
        let (ready, wraps) = ingestion.hold.route(messages, wraps: processed, holding: !history.settled) { sid in
            read("a session") { try store.session(sid) != nil } ?? true
        }
        await write(ready, wraps: wraps, wrapCount: batch.count)
    }

    /// Writes what was held for sessions that never came (the history settled, a flush, a stop).
    func writeHeld() async {
        guard !ingestion.hold.isEmpty else { return }
        let (messages, wraps) = ingestion.hold.releaseAll()
        ingestion.activeFlushes += 1
        defer {
            ingestion.activeFlushes -= 1
            if ingestion.activeFlushes == 0 { release(.flushed) }
        }
        await write(messages, wraps: wraps, wrapCount: wraps.count)
    }

    /// One store transaction: the messages and the wraps they came in (off the actor).
    /// Returns whether the batch was stored; one that was not is kept and tried again (`+StoreRetry`).
    @discardableResult
    func write(_ messages: [InboundMessage], wraps: [ProcessedWrap], wrapCount: Int) async -> Bool {
        guard !messages.isEmpty || !wraps.isEmpty else { return true }
        let now = clock()
        do {
            let store = self.store, restoring = history.restoring
            // Off the actor: pool events go on being received while the batch is written. Busy time is
            // the write itself, not the wait behind the batch before it.
            let (reports, busy, cpu) = try await Self.writing { () throws -> ([IngestReport], Double, Double) in
                let start = ContinuousClock.now, startCPU = Self.threadCPUSeconds()
                let reports = try store.ingest(messages, restoringHistory: restoring, wraps: wraps, now: now)
                return (reports, Self.seconds(ContinuousClock.now) - Self.seconds(start), Self.threadCPUSeconds() - startCPU)
            }
            stats.storeSeconds += busy
            stats.storeCPUSeconds += cpu
            stats.storeBatches += 1
            var touched = Set<String>(), notifications = [InboundNotification]()
            for r in reports {
                touched.formUnion(r.touchedSessions)
                notifications += r.notifications
                switch r.outcome {
                case .applied: stats.applied += 1
                case .duplicate: stats.duplicates += 1
                case .pending: stats.pending += 1
                case .ignored: stats.ignored += 1
                }
            }
            log.debug("batch ingested", metadata: ["wraps": "\(wrapCount)", "opened": "\(wraps.count)", "messages": "\(messages.count)",
                                                   "sessions": "\(touched.count)"])
            if !touched.isEmpty || !notifications.isEmpty { updateSink.yield(.ingested(touchedSessions: touched, notifications: notifications)) }
            if !restoring {
                let deleted = zip(messages, reports).compactMap { m, r -> DeletedPost? in
                    guard r.outcome == .applied, m.payload.kind == .rootDelete, m.sender != me else { return nil }
                    return DeletedPost(postID: m.payload.rootID, sessionID: m.payload.conversationID, author: m.sender)
                }
                if !deleted.isEmpty { updateSink.yield(.postsDeleted(deleted)) }
            }
            if !touched.isEmpty { scheduleProfileRefresh() }
            return true
        } catch {
            // Nothing was written (the run is not complete): the batch is kept and stored again once the
            // store takes writes (the disk has room again), without waiting for the next sync.
            log.error("could not store incoming messages", metadata: ["error": "\(type(of: error))", "wraps": "\(wrapCount)"])
            let words = "\(error)"
            stats.storeFailures += 1
            stats.lastStoreError = words
            keepUnstored(UnstoredBatch(messages: messages, wraps: wraps, wrapCount: wrapCount))
            updateSink.yield(.storeFailed(StoreFailure(.incoming(messages: wrapCount), what: "incoming messages", detail: words)))
            return false
        }
    }

    /// Seconds since the process's first use of it, on the continuous clock (for stage figures).
    public static func seconds(_ instant: ContinuousClock.Instant) -> Double {
        let d = epoch.duration(to: instant)
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    private static let epoch = ContinuousClock.now

    /// The calling thread's CPU time in seconds (0 where the clock is not available).
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Batches are written on one queue of their own, in the order they were opened.
    private static let writeQueue = DispatchQueue(label: "linkstr.sync.ingest-writes", qos: .userInitiated)

    static func writing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// A wrap fully checked and unwrapped (or why not), then its rumor decoded (or why not).
    /// A wrap opened: its seal (to tell variants apart) and its payload decoded, or why it is junk.
    struct OpenedWrap: Sendable {
        let sealID: EventID
        let decoded: Result<InboundMessage, InboundDecoder.Rejection>
    }
    typealias Opened = Result<OpenedWrap, GiftWrapError>

    /// Fully checked unwraps and payload decoding, spread over the cores (each unwrap is ~200 µs of
    /// elliptic-curve work).
    static func openAll(_ wraps: [(event: NostrEvent, source: MessageSource)], receivedAt: Int64, identity: SecretKey,
                        cache: ConversationKeyCache) async -> [Opened] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let results = ResultSlots(count: wraps.count)
                let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, wraps.count / 8))
                // Each worker takes the next wrap not yet taken: the cores are shared with the writer and
                // the receiving, so a fixed half each left one core idle while the other finished its half.
                let next = Atomic<Int>(0)
                // Below everything else of ours and below other programs (`LowPriorityWorkers`).
                LowPriorityWorkers.shared.perform(workers) {
                    while true {
                        let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard i < wraps.count else { break }
                        let (event, source) = wraps[i]
                        results.set(i, Result { () throws(GiftWrapError) in try NIP59.unwrap(event, recipient: identity, cache: cache) }.map { gift in
                            OpenedWrap(sealID: gift.seal.id, decoded: InboundDecoder.decode(rumor: gift.rumor, rumorID: gift.rumorID, sender: gift.sender,
                                                                                             wrapID: event.id.hex, source: source, receivedAt: receivedAt))
                        })
                    }
                }
                continuation.resume(returning: results.values)
            }
        }
    }
}

/// One slot per wrap; each index is written by exactly one worker, then read after all of them finished.
/// (A lock per wrap costs nanoseconds beside the ECDH and the seal's signature check each wrap needs.)
private final class ResultSlots: Sendable {
    private let slots: Mutex<[SyncEngine.Opened?]>
    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    func set(_ i: Int, _ r: SyncEngine.Opened) { slots.withLock { $0[i] = r } }
    var values: [SyncEngine.Opened] { slots.withLock { $0.map { $0! } } }
}
