import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrRelay
import LinkstrStorage
import Logging
import NostrProtocol

/// Keeps one account in sync: installs the live subscription on every relay, backfills each relay in
/// pages, opens gift wraps (deduplicated by wrap id before any decryption, persisted), ingests them in
/// batches (one transaction each), and sends the user's actions.
///
/// One actor, one concern per file, each concern's state in one struct: history chains
/// (`+History`, `HistoryState`), the ingest pipeline (`+Ingest`), one-shot queries (`+Queries`),
/// "added you" (`+AddedYou`), private preferences (`+Preferences`), profiles (`+Profiles`), our follow
/// list (`+FollowList`) and sending (`+Send`). This file holds the lifecycle and routes the pool's events
/// by their typed subscription (`SyncSubscription`). The pool is a `PoolClient` and every timer waits
/// through the injected `sleep`, so each concern is tested with a fake pool and a fake clock.
public actor SyncEngine {
    /// Authors per filter in the profiles request, well under common relay limits on filter size.
    public static let authorsPerFilter = 250
    public static let pageSize = 500
    /// Live events may be backdated by the 0–2 day wrap tweak; allow ten minutes of clock skew too.
    public static let liveWindow: Int64 = NIP59.maxTimestampTweak + 600
    public static let pageDeadline: Duration = .seconds(15)

    public nonisolated let updates: AsyncStream<SyncUpdate>
    let updateSink: AsyncStream<SyncUpdate>.Continuation

    public let identity: SecretKey
    public let store: AccountStore
    let pool: PoolClient
    let clock: @Sendable () -> Int64
    let random: any RandomSource
    let time: TimeSource
    let sleep: @Sendable (Duration) async -> Void
    let keyCache: ConversationKeyCache
    let delivery: InboxDelivery
    var me: Pubkey { identity.publicKey.hex }
    /// Counts and relay URLs only: never keys, notes, links or names.
    let log = LinkstrLogging.logger("sync")

    // Each concern's state, declared beside its code.
    var history = HistoryState()
    var ingestion = IngestState()
    var queries = QueryState()
    var addedYou = AddedYouState()
    var preferences = PreferencesState()
    var profiles = ProfilesState()
    var followList = FollowListState()
    var outbox = OutboxState()
    var sendQueue = SendQueueState()
    var discovery = DiscoveryState()
    var ownLists = OwnListsState()
    var waiters = Waiters<EngineWait>()
    /// Debounced work waiting to fire, each on its own task (cancelled by `stop()`).
    var debounced: [Debounced: Task<Void, Never>] = [:]
    /// Every task the engine starts: `stop()` cancels what is left of them.
    nonisolated let tasks = EngineTasks()
    public internal(set) var stats = SyncStats()

    /// `start()` ran: history and the live subscription are wanted (an engine made only to publish,
    /// as the CLI's, asks for nothing else).
    var started = false
    private var consumer: Task<Void, Never>?
    /// The subscriptions asked for, by the id the pool and relays know them by.
    private var subscriptions: [String: SyncSubscription] = [:]

    /// `time`: the engine's clock, for what it stamps and for every timer it has (a batch's flush, page
    /// deadlines, query and backfill timeouts, the profile debounces): real time, or a test's own, so a
    /// 15 s deadline can pass at once.
    public init(identity: SecretKey, store: AccountStore, pool: PoolClient, time: TimeSource = .live,
                random: any RandomSource = SystemRandom(), delivery: InboxDelivery = .configured(), indexers: [String] = [],
                queueHoldAfterDays: Int = SendQueuePolicy.defaultHoldAfterDays) {
        self.time = time
        sendQueue.holdAfterDays = max(0, queueHoldAfterDays)
        self.sleep = time.sleep
        var delivery = delivery
        if delivery.signer == nil { delivery.signer = Self.authSigner(for: identity, time: time) }
        self.delivery = delivery
        self.identity = identity
        self.store = store
        self.pool = pool
        self.clock = time.wallSeconds
        self.random = random
        keyCache = ConversationKeyCache(secretKey: identity)
        discovery.indexers = indexers.compactMap(RelayURL.normalized)
        (updates, updateSink) = AsyncStream<SyncUpdate>.makeStream(bufferingPolicy: .unbounded)
    }

    /// An engine over a live `RelayPool`.
    public init(identity: SecretKey, store: AccountStore, pool: RelayPool, time: TimeSource = .live,
                random: any RandomSource = SystemRandom(), delivery: InboxDelivery = .configured(), indexers: [String] = [],
                queueHoldAfterDays: Int = SendQueuePolicy.defaultHoldAfterDays) {
        self.init(identity: identity, store: store, pool: .live(pool), time: time, random: random, delivery: delivery, indexers: indexers,
                  queueHoldAfterDays: queueHoldAfterDays)
    }

    /// The NIP-42 signer the pool should use for this identity.
    public static func authSigner(for identity: SecretKey, time: TimeSource = .live) -> AuthSigner {
        { relay, challenge in
            UnsignedEvent(pubkey: identity.publicKey, createdAt: time.wallSeconds(), kind: 22242,
                          tags: [["relay", relay], ["challenge", challenge]], content: "").signed(with: identity)
        }
    }

    /// The pool's relays as they stand.
    public func relaySnapshots() async -> [RelaySnapshot] { await pool.snapshots() }

    // MARK: lifecycle

    public func start() async throws {
        history.restoring = try store.isConversationStoreEmpty() && !(try store.historyRestored())
        ingestion.stagedAtStart = try store.stagedCount()
        log.info("sync started", metadata: ["restoring_history": "\(history.restoring)", "staged": "\(ingestion.stagedAtStart)"])
        if history.restoring { updateSink.yield(.restoringHistory) }
        started = true
        ensureConsuming()
        let now = clock()
        // New wraps, and at most one stored: what relays hold comes with each relay's history, paged or by
        // NIP-77. Asking for it here as well (the iOS app's limit 500) downloaded up to 500 wraps we hold
        // on every start and reconnect, dropped unopened. Not `limit: 0`: nostr-relay reads it as no limit.
        // Into an empty store the newest 500 still come here, at once: NIP-77 fetches only once its
        // rounds are over, and the first screen should not wait for them.
        let live = history.restoring ? Self.pageSize : 1
        await subscribe(.live, [Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [me]], since: now - Self.liveWindow, limit: live)])
        await subscribeFollowList()
        // New ones (one stored at most, as above): the stored ones are read per relay with the history,
        // paged or by NIP-77 (`HistoryChain.preferences`).
        await subscribe(.preferences, [Filter(authors: [me], kinds: [PrivatePreference.kind], limit: 1)])
        await refreshProfileSubscription()
        // What was queued before (offline, or by a command that ended) goes as soon as a relay takes it.
        kickSendQueue()
    }

    /// Pool events are handled from here on (`start`, or an edit of the follow list from the CLI).
    func ensureConsuming() {
        guard consumer == nil else { return }
        let events = pool.events()
        consumer = tasks.start { [weak self] in
            for await event in events { await self?.handle(event) }
        }
    }

    public func stop() async {
        consumer?.cancel()
        preferences.uploadTask?.cancel()
        profiles.pendingNameTask?.cancel()
        cancelUnstoredRetry()
        stopSendQueue()
        debounced.values.forEach { $0.cancel() }
        debounced = [:]
        history.pageTimers.values.forEach { $0.cancel() }
        history.reconcile.answerTimers.values.forEach { $0.cancel() }
        history.reconcile.fetchTimers.values.forEach { $0.values.forEach { $0.cancel() } }
        // Stop receiving first: a relay that keeps streaming must not hold the caller past its deadline.
        // What is buffered is ingested; what was still on the wire is fetched again next time (only
        // ingested wraps are recorded as processed).
        log.debug("stopping", metadata: ["buffered": "\(ingestion.batcher.buffer.count)", "flushing": "\(ingestion.activeFlushes)"])
        await pool.stop()
        await flush()
        // Best-effort inbox deliveries still under way are dropped (the CLI waits for them first).
        cancelDeliveries()
        // Whatever else still runs (a deletion's follow-up, a caller's deadline, the ingest worker once the
        // flush above emptied its buffer) ends here, and nothing starts afterwards.
        tasks.cancelAll(stopping: true)
        log.debug("stopped")
        updateSink.finish()
        waiters.releaseAll()
    }

    func subscribe(_ subscription: SyncSubscription, _ filters: [Filter], relays: Set<String>? = nil) async {
        subscriptions[subscription.id] = subscription
        await pool.subscribe(subscription.id, filters, relays)
    }

    func unsubscribe(_ subscription: SyncSubscription, relays: Set<String>? = nil) async {
        // A late event of a closed one (or of one still open elsewhere) is parsed instead (`subscription(_:)`).
        subscriptions[subscription.id] = nil
        await pool.unsubscribe(subscription.id, relays)
    }

    /// The typed subscription of a pool event's id: looked up for what the engine asked for; parsed only
    /// for an id not asked for now (a late event of a closed page, a relay's own).
    func subscription(_ id: String) -> SyncSubscription? { subscriptions[id] ?? SyncSubscription(id: id) }

    /// Parks the caller until `wait` is released, or `deadline` passed (on the injected clock).
    func park(_ wait: EngineWait, upTo deadline: Duration? = nil) async {
        let ticket = waiters.ticket()
        var timer: Task<Void, Never>?
        if let deadline {
            let sleep = self.sleep
            timer = tasks.start { [weak self] in
                await sleep(deadline)
                if Task.isCancelled { return }
                await self?.expire(wait, ticket: ticket)
            }
        }
        await withCheckedContinuation { waiters.park(wait, ticket: ticket, $0) }
        timer?.cancel()
        waiters.done(ticket)
    }

    func release(_ wait: EngineWait) { waiters.release(wait) }

    /// One caller's deadline passed (`park`): only that caller goes on.
    func expire(_ wait: EngineWait, ticket: Int) { waiters.expire(wait, ticket: ticket) }

    /// How many callers wait for `wait` (tests).
    func waiting(_ wait: EngineWait) -> Int { waiters.count(wait) }

    /// A write whose failure must be seen: logged and reported on the update stream (the status line, the
    /// CLI's stderr), never swallowed. nil when it failed.
    @discardableResult
    func write<T>(_ what: String, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            log.error("could not save", metadata: ["what": "\(what)", "error": "\(type(of: error))"])
            updateSink.yield(.storeFailed(StoreFailure(.save, what: what, detail: "\(error)")))
            return nil
        }
    }

    /// A read that decides a write: a failure is reported like a failed write and answers nil, so the
    /// caller leaves the write alone instead of acting on a guess (a stored value that is absent is
    /// `.some(nil)`).
    func read<T>(_ what: String, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            log.error("could not read", metadata: ["what": "\(what)", "error": "\(type(of: error))"])
            updateSink.yield(.storeFailed(StoreFailure(.read, what: what, detail: "\(error)")))
            return nil
        }
    }

    // MARK: pool events, routed by subscription

    func handle(_ event: PoolEvent) async {
        switch event {
        case .event(let relay, let id, let e):
            // Still queued from a relay dropped for junk: not worth checking.
            if pool.isDroppedForJunk(relay) { return }
            guard let subscription = subscription(id) else { return }
            if case .reconcileFetch(let chain, _, let batch) = subscription {
                reconcileDelivered(HistoryKey(relay: relay, chain: chain), batch: batch, e)
            }
            switch subscription {
            case .followList: ingestFollowList(e)
            case .preferences: ingestPreference(e)
            case .history(.preferences, _, _):
                historyPageEvent(relay, subscription, e, matches: e.kind == PrivatePreference.kind && e.pubkey.hex == me)
                ingestPreference(e)
            case .profiles, .reconcileFetch(.profiles, _, _): ingestProfile(e, from: relay)
            case .history(.profiles(let part), _, _):
                historyPageEvent(relay, subscription, e, matches: isInProfilePart(e, part))
                ingestProfile(e, from: relay)
            case .addedYouNew, .addedYouRows: await addedYouListArrived(e)
            case .query(let n): queryEvent(n, relay, e)
            case .live:
                await enqueue(relay, live: true, e)
            case .history(.giftWraps, _, _):
                let matches = e.kind == NIP59.giftWrapKind && isAddressedToUs(e)
                historyPageEvent(relay, subscription, e, matches: matches)
                await enqueue(relay, live: false, e)
            case .reconcileFetch(.giftWraps, _, _):
                // The pool passed only what the fetch's filter matches (these ids, gift wraps, to us).
                await enqueue(relay, live: false, e, reconciled: true)
            case .reconcileFetch(.preferences, _, _): ingestPreference(e)
            case .reconcile: break
            }
        case .eose(let relay, let id):
            guard let subscription = subscription(id) else { return }
            switch subscription {
            case .live: ingestion.liveEOSE.insert(relay)
            case .profiles:
                profiles.answered.insert(relay)
                release(.profilesAnswered)
            case .followList:
                followList.answered.insert(relay)
                release(.followListAnswered)
            case .history(let chain, _, _): await pageEnded(HistoryKey(relay: relay, chain: chain), subscription, .eose)
            case .query(let n): queryEnded(n, relay, .eose)
            case .reconcileFetch(let chain, _, let batch): await reconcileFetchEnded(HistoryKey(relay: relay, chain: chain), batch: batch)
            default: break
            }
            // A history page's tail joins the next page's batch (or is flushed when the history settles).
            if !subscription.isGiftWrapHistory { await flushBuffer() }
        case .closed(let relay, let id, let reason):
            switch subscription(id) {
            case .history(let chain, let r, let page)?:
                await pageEnded(HistoryKey(relay: relay, chain: chain), .history(chain, relay: r, page: page), .closed(reason.raw))
            case .query(let n)?: queryEnded(n, relay, .closed(reason.raw))
            case .reconcileFetch(let chain, _, let batch)?:
                await reconcileFetchEnded(HistoryKey(relay: relay, chain: chain), batch: batch, failed: reason.raw)
            case .reconcile(let chain, _)?:  // a refusal of NEG-OPEN, said as CLOSED
                await reconcileRefused(HistoryKey(relay: relay, chain: chain), reason.raw)
            default: break
            }
        case .notice(let relay, let text):
            await reconcileNoticed(relay, text)
            updateSink.yield(.notice(relay: relay, text))
        case .negentropy(let relay, let id, let answer):
            await reconcileAnswered(relay, id, answer)
        case .ready(let relay):
            ingestion.liveEOSE.remove(relay)
            if started {
                await restartHistory(relay)
                // Records made offline go out once a relay is back (wire 2026 §3.5).
                if preferences.sync.answered { scheduleUpload() }
            }
        case .status(let snapshot):
            updateSink.yield(.relay(snapshot))
            // What waited to be sent goes once a relay takes writes again.
            if snapshot.enabled && snapshot.status == .connected { kickSendQueue() }
            await relayStatusChanged(snapshot)
        }
    }

    /// The event names our key in a `p` tag (our history filter's `#p`).
    func isAddressedToUs(_ e: NostrEvent) -> Bool { e.tags.contains { $0.count >= 2 && $0[0] == "p" && $0[1] == me } }

    // MARK: debounced work

    /// Work done once after a burst: the first call starts the wait, the others in it join that one.
    enum Debounced: Hashable { case flush, flushNews, profileRefresh, profilesChanged }

    func debounce(_ what: Debounced, _ delay: Duration) {
        guard debounced[what] == nil else { return }
        let sleep = self.sleep
        // Held weakly and cancelled by `stop()`: a burst's wait does not outlive the engine.
        debounced[what] = tasks.start { [weak self] in
            await sleep(delay)
            guard !Task.isCancelled else { return }
            await self?.fire(what)
        }
    }

    /// The work is done now: a wait for it still pending is dropped (from within its own firing, a no-op).
    func undebounce(_ what: Debounced) { debounced.removeValue(forKey: what)?.cancel() }

    /// Debounced work still waiting (tests).
    var debouncedWaiting: Int { debounced.count }

    private func fire(_ what: Debounced) async {
        guard debounced.removeValue(forKey: what) != nil else { return }
        switch what {
        case .flush, .flushNews: await flushBuffered()
        case .profileRefresh: await refreshProfileSubscription()
        case .profilesChanged: announceProfilesChanged()
        }
    }
}

extension SyncSubscription {
    var isGiftWrapHistory: Bool {
        switch self {
        case .history(.giftWraps, _, _), .reconcileFetch(.giftWraps, _, _): return true
        default: return false
        }
    }
}
