// Over 400 lines: the engine still does about ten jobs in one actor; issue 28 splits it by concern
// (live subscription, history chains, ingest, queries, preferences, profiles, sending). New concerns
// go to files of their own meanwhile (SyncEngine+FollowList).
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrLogging
import Logging
import NostrProtocol
import Synchronization

/// What the sync engine tells its owner (the CLI or the app runtime).
public enum SyncUpdate: Sendable {
    case ingested(touchedSessions: Set<String>, notifications: [InboundNotification])
    case contactsChanged
    /// Someone's profile name (kind 0) arrived or changed: reload `AccountStore.profileNames()`.
    case profilesChanged
    case relay(RelaySnapshot)
    case notice(relay: String, String)
    /// Every relay that connected has been backfilled (late relays get their own later).
    case backfillComplete
    /// While "added you" is watched: who follows us now, after a follow list arrived live.
    case addedYouChanged([Pubkey])
    /// A relay's history is not (yet) read to its end: why, in words; nil once it is.
    case historyChanged(relay: String, note: String?)
}

/// Counters of one engine's life (`sync --json` prints them).
public struct SyncStats: Sendable, Equatable {
    public var wrapsReceived = 0
    /// Skipped before decrypting: already processed (persisted) or already in flight.
    public var wrapsAlreadyProcessed = 0
    /// Unwrap attempts: every one costs ECDH and signature checks.
    public var decryptions = 0
    public var invalidWraps = 0
    public var notLinkstr = 0
    public var rejectedPayloads = 0
    public var applied = 0
    public var duplicates = 0
    public var pending = 0
    public var ignored = 0
    public var backfillPages = 0
    /// Gift wraps delivered to recipients' own inbox relays (outside our pool), and those that were not.
    public var inboxDelivered = 0
    public var inboxUndelivered = 0
    /// Stage figures for the benchmark: the first and last wrap received (seconds on the continuous
    /// clock), and the time spent unwrapping (all cores at once) and storing.
    public var firstReceived: Double?
    public var lastReceived: Double?
    public var unwrapSeconds = 0.0
    public var storeSeconds = 0.0
    /// Batches that could not be stored (a full disk, an I/O error), and the last such error in words:
    /// their wraps are read again on the next sync, and a run with any is not complete.
    public var storeFailures = 0
    public var lastStoreError: String?
    public init() {}
}

/// Keeps one account in sync: installs the live subscription on every relay, backfills each relay in
/// pages, opens gift wraps (deduplicated by wrap id before any decryption, persisted), ingests them in
/// batches (one transaction each), and sends the user's actions.
public actor SyncEngine {
    public static let livePrefix = "linkstr-live"
    public static let backfillPrefix = "linkstr-backfill-"
    public static let followListSubscription = "linkstr-follow-list"
    public static let profilesSubscription = "linkstr-profiles"
    /// "Added you" live (wire 2026 §7.2): new lists naming us, and the newest lists of who is listed.
    public static let addedYouNewSubscription = "linkstr-contact-new"
    public static let addedYouRowsSubscription = "linkstr-contact-rows"
    /// Our private preferences (kind 30078, wire 2026 §3): stored ones, then live.
    public static let preferencesSubscription = "linkstr-private-preferences"
    /// Pages of our stored preferences, per relay (the second history chain, wire 2026 §3.6).
    public static let preferencesHistoryPrefix = "linkstr-preferences-history-"
    /// One-shot read-only requests (`query`), numbered.
    public static let queryPrefix = "linkstr-query-"
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
    public let pool: RelayPool
    let clock: @Sendable () -> Int64
    private let random: any RandomSource
    let sleep: Sleep
    private let keyCache: ConversationKeyCache
    private let delivery: InboxDelivery
    var me: Pubkey { identity.publicKey.hex }

    /// The ingest pipeline's front (pure, tested alone): wraps buffered or being opened, known junk, and
    /// batches; the persisted processed set is asked per batch (`ingest`). Two batches are in flight at
    /// most (one opened while the other is written), and the pool's consumer waits once `queuedBatches`
    /// more are buffered, which bounds what is held.
    private var batcher = IngestBatcher(batchSize: 256, maxBatchesInFlight: 2)
    /// Takes full batches while the pool's consumer goes on receiving (so the next history page is asked
    /// for while this one is opened and stored); nil when idle.
    private var worker: Task<Void, Never>?
    /// The pool's consumer waiting for room (more than `queuedBatches` full batches buffered).
    private var spaceWaiters: [CheckedContinuation<Void, Never>] = []
    private static let queuedBatches = 2
    /// Whose kind 0 the profiles subscription asks for (contacts and session members).
    private var profileAuthors = Set<Pubkey>()
    private var profilesSubscribed = false
    /// Relays that answered the profiles request (EOSE): our own kind 0 is known from them.
    private var profilesAnswered = Set<String>()
    /// Queries a caller may wait for (bounded) until a relay answered them.
    private enum Query: Hashable { case profiles, followList }
    private var queryWaiters: [Query: [CheckedContinuation<Void, Never>]] = [:]
    /// Relays that answered the follow-list query (EOSE): our applied list is as new as they know.
    private var followListAnswered = Set<String>()
    private var liveEOSE = Set<String>()
    private var restoringHistory = false
    /// Counts and relay URLs only: never keys, notes, links or names.
    let log = LinkstrLogging.logger("sync")
    private var stagedAtStart = 0
    private var consumer: Task<Void, Never>?
    /// `start()` ran: history and the live subscription are wanted (an engine made only to publish,
    /// as the CLI's, asks for nothing else).
    private var started = false
    private var followListSubscribed = false
    private var preferencesAnswered = false
    private var preferencesSeeded = false
    /// The upload of pending preference records running now, and whether another pass is wanted.
    private var uploadTask: Task<Void, Never>?
    private var uploadAgain = false
    /// One-shot requests in flight: what came, which relays still owe an end, who waits.
    private struct PendingQuery {
        var events: [String: NostrEvent] = [:]
        /// Which relay sent each event (a paged query accounts its pages per relay).
        var sources: [String: Set<String>] = [:]
        var relays: Set<String>
        /// How each relay ended the request (a relay missing here timed out).
        var ends: [String: HistoryPager.PageEnd] = [:]
        var waiter: CheckedContinuation<Void, Never>?
    }
    private var queries: [String: PendingQuery] = [:]
    private var queryCount = 0
    /// The newest follow list per author seen by the last "added you" (and live since, when watched).
    private var addedYouLists: [Pubkey: AddedYouRule.FollowList] = [:]
    private var watchingAddedYou = false
    public private(set) var stats = SyncStats()

    /// The history chains of each relay (wire 2026 §6): our gift wraps, and our private preferences.
    private enum Chain: Hashable, CaseIterable { case giftWraps, preferences }
    private struct ChainKey: Hashable { let relay: String; let chain: Chain }
    /// Each chain's pager (`HistoryPager`, pure); the engine carries out what it decides.
    private var pagers: [ChainKey: HistoryPager] = [:]
    /// Relays whose chain a disconnect cut short, until their next connection attempt tells: true once
    /// that attempt started. A reconnect restarts the chain; a failed attempt settles it as incomplete.
    private var awaitingRetry: [String: Bool] = [:]
    private var relayIndex: [String: Int] = [:]
    private var pageTimers: [ChainKey: Task<Void, Never>] = [:]
    private var relayStatus: [String: RelayStatus] = [:]
    private var backfillWaiters: [CheckedContinuation<Void, Never>] = []
    private var completedOnce = false

    /// How the engine waits, for every timer it has (a batch's flush, page deadlines, query and backfill
    /// timeouts, the profile debounces): real time, or a test's own, so a 15 s deadline can pass at once.
    public typealias Sleep = @Sendable (Duration) async -> Void
    public static let realSleep: Sleep = { try? await Task.sleep(for: $0) }

    public init(identity: SecretKey, store: AccountStore, pool: RelayPool, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
                sleep: @escaping Sleep = SyncEngine.realSleep, random: any RandomSource = SystemRandom(), delivery: InboxDelivery = .configured()) {
        self.sleep = sleep
        self.delivery = delivery
        self.identity = identity
        self.store = store
        self.pool = pool
        self.clock = clock
        self.random = random
        keyCache = ConversationKeyCache(secretKey: identity)
        (updates, updateSink) = AsyncStream<SyncUpdate>.makeStream(bufferingPolicy: .unbounded)
    }

    /// The NIP-42 signer the pool should use for this identity.
    public static func authSigner(for identity: SecretKey) -> AuthSigner {
        { relay, challenge in
            UnsignedEvent(pubkey: identity.publicKey, createdAt: Int64(Date().timeIntervalSince1970), kind: 22242,
                          tags: [["relay", relay], ["challenge", challenge]], content: "").signed(with: identity)
        }
    }

    // MARK: lifecycle

    public func start() async throws {
        restoringHistory = try store.isConversationStoreEmpty() && !(try store.historyRestored())
        stagedAtStart = try store.stagedCount()
        log.info("sync started", metadata: ["restoring_history": "\(restoringHistory)", "staged": "\(stagedAtStart)"])
        started = true
        ensureConsuming()
        let now = clock()
        await pool.subscribe(Self.livePrefix, filters: [Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [me]], since: now - Self.liveWindow,
                                                               limit: Self.pageSize)])
        await subscribeFollowList()
        // Live only: the stored ones are paged per relay with the history (`Chain.preferences`).
        await pool.subscribe(Self.preferencesSubscription, filters: [Filter(authors: [me], kinds: [PrivatePreference.kind], limit: 0)])
        await refreshProfileSubscription()
    }

    /// Pool events are handled from here on (`start`, or an edit of the follow list from the CLI).
    private func ensureConsuming() {
        guard consumer == nil else { return }
        let events = pool.events
        consumer = Task { [weak self] in
            for await event in events { await self?.handle(event) }
        }
    }

    private func subscribeFollowList() async {
        guard !followListSubscribed else { return }
        followListSubscribed = true
        await pool.subscribe(Self.followListSubscription, filters: [Filter(authors: [me], kinds: [3], limit: 1)])
    }

    public func stop() async {
        consumer?.cancel()
        uploadTask?.cancel()
        pageTimers.values.forEach { $0.cancel() }
        // Stop receiving first: a relay that keeps streaming must not hold the caller past its deadline.
        // What is buffered is ingested; what was still on the wire is fetched again next time (only
        // ingested wraps are recorded as processed).
        log.debug("stopping", metadata: ["buffered": "\(batcher.buffer.count)", "flushing": "\(activeFlushes)"])
        await pool.stop()
        log.debug("receiving stopped", metadata: ["buffered": "\(batcher.buffer.count)", "flushing": "\(activeFlushes)"])
        await flush()
        log.debug("stopped")
        updateSink.finish()
        for w in backfillWaiters { w.resume() }
        backfillWaiters.removeAll()
        release(.profiles)
        release(.followList)
    }

    private func release(_ query: Query) {
        for w in queryWaiters.removeValue(forKey: query) ?? [] { w.resume() }
    }

    /// Returns once a relay answered `query`, or after `wait`.
    private func waitForAnswer(_ query: Query, answered: () -> Bool, upTo wait: Duration) async {
        guard !answered() else { return }
        let sleep = self.sleep
        let timer = Task { [weak self] in
            await sleep(wait)
            await self?.release(query)
        }
        await withCheckedContinuation { queryWaiters[query, default: []].append($0) }
        timer.cancel()
    }

    /// An edit starts from the newest list a relay knows, never from a guess: wait (bounded) until one
    /// answered the follow-list query; none ⇒ the list is unavailable and nothing is published.
    func waitForFollowList(upTo wait: Duration) async throws {
        ensureConsuming()
        await subscribeFollowList()
        await waitForAnswer(.followList, answered: { !followListAnswered.isEmpty }, upTo: wait)
        guard !followListAnswered.isEmpty else {
            throw DomainError.message("your contact list is unavailable: no relay answered in time. try again.")
        }
    }

    /// A write whose failure must be seen: logged and reported on the update stream (the status line, the
    /// CLI's stderr), never swallowed. nil when it failed.
    @discardableResult
    private func write<T>(_ what: String, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            log.error("could not save", metadata: ["what": "\(what)", "error": "\(type(of: error))"])
            updateSink.yield(.notice(relay: "", "could not save \(what): \(error)"))
            return nil
        }
    }

    /// A read that decides a write: a failure is reported like a failed write and answers nil, so the
    /// caller leaves the write alone instead of acting on a guess (a stored value that is absent is
    /// `.some(nil)`).
    private func read<T>(_ what: String, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            log.error("could not read", metadata: ["what": "\(what)", "error": "\(type(of: error))"])
            updateSink.yield(.notice(relay: "", "could not read \(what): \(error)"))
            return nil
        }
    }

    /// The run's counts as the store ended up: a message that waited in a batch and was released by a
    /// later one (a post before its session) counts as applied, not pending.
    public func settledStats() -> SyncStats {
        var settled = stats
        guard let staged = try? store.stagedCount() else { return settled }
        let stillWaiting = min(stats.pending, max(0, staged - stagedAtStart))
        settled.applied += stats.pending - stillWaiting
        settled.pending = stillWaiting
        return settled
    }

    /// Waits until every relay that connected has been backfilled, or `timeout`. True when complete:
    /// each history chain read to its end on at least one relay (a relay that refused, cut its history
    /// short or is still paging at the deadline does not count against it; one that finished is enough).
    public func waitForBackfill(timeout: Duration) async -> Bool {
        if backfillComplete { return historyRead }
        let sleep = self.sleep
        let timer = Task { [weak self] in
            await sleep(timeout)
            await self?.releaseWaiters()
        }
        await withCheckedContinuation { backfillWaiters.append($0) }
        timer.cancel()
        // At the deadline, relays still paging do not undo a history another relay read to its end.
        return historyRead
    }

    private var historyRead: Bool {
        Chain.allCases.allSatisfy { chain in pagers.contains { $0.key.chain == chain && $0.value.outcome == .finished } }
    }

    /// How each relay's gift-wrap history ended: nil while it runs (or never started).
    public func historyOutcomes() -> [String: HistoryPager.Outcome] {
        var outcomes = [String: HistoryPager.Outcome]()
        for (key, pager) in pagers where key.chain == .giftWraps { if let o = pager.outcome { outcomes[key.relay] = o } }
        return outcomes
    }

    private func releaseWaiters() {
        for w in backfillWaiters { w.resume() }
        backfillWaiters.removeAll()
    }

    /// The initial history is settled when no page is running, at least one relay's chain settled
    /// (finished or incomplete), and every relay still trying to connect has given up for now.
    private var backfillComplete: Bool {
        let settled = pagers.contains { $0.key.chain == .giftWraps && $0.value.outcome != nil }
        let running = pagers.values.contains(where: \.isRunning)
        let connecting = relayStatus.contains { url, status in status == .connecting && pagers[ChainKey(relay: url, chain: .giftWraps)] == nil }
        return settled && !running && !connecting && awaitingRetry.isEmpty
    }

    // MARK: pool events

    private func handle(_ event: PoolEvent) async {
        switch event {
        case .event(let relay, let sub, let e):
            // Still queued from a relay dropped for junk: not worth checking (issue 32, item 12).
            if pool.isDroppedForJunk(relay) { return }
            if sub == Self.followListSubscription {
                ingestFollowList(e)
            } else if sub == Self.preferencesSubscription {
                ingestPreference(e)
            } else if sub.hasPrefix(Self.preferencesHistoryPrefix) {
                let key = ChainKey(relay: relay, chain: .preferences)
                if let page = pagers[key]?.page, sub == subscription(key, page) {
                    pagers[key]?.received(id: e.id.hex, createdAt: e.createdAt,
                                          matchesFilter: e.kind == PrivatePreference.kind && e.pubkey.hex == me, page: page.number)
                }
                ingestPreference(e)
            } else if sub == Self.profilesSubscription {
                ingestProfile(e)
            } else if sub == Self.addedYouNewSubscription || sub == Self.addedYouRowsSubscription {
                await addedYouListArrived(e)
            } else if sub.hasPrefix(Self.queryPrefix) {
                queries[sub]?.events[e.id.hex] = e
                queries[sub]?.sources[relay, default: []].insert(e.id.hex)
            } else if sub == Self.livePrefix || sub.hasPrefix(Self.backfillPrefix) {
                let key = ChainKey(relay: relay, chain: .giftWraps)
                if let page = pagers[key]?.page, sub == subscription(key, page) {
                    let matches = e.kind == NIP59.giftWrapKind && e.tags.contains { $0.count >= 2 && $0[0] == "p" && $0[1] == me }
                    pagers[key]?.received(id: e.id.hex, createdAt: e.createdAt, matchesFilter: matches, page: page.number)
                }
                await enqueue(relay, sub, e)
            }
        case .eose(let relay, let sub):
            if sub == Self.livePrefix { liveEOSE.insert(relay) }
            if sub == Self.profilesSubscription { profilesAnswered.insert(relay); release(.profiles) }
            if sub == Self.followListSubscription { followListAnswered.insert(relay); release(.followList) }
            if sub.hasPrefix(Self.backfillPrefix) { await pageEnded(ChainKey(relay: relay, chain: .giftWraps), sub, .eose) }
            if sub.hasPrefix(Self.preferencesHistoryPrefix) { await pageEnded(ChainKey(relay: relay, chain: .preferences), sub, .eose) }
            if sub.hasPrefix(Self.queryPrefix) { queryEnded(sub, relay, .eose) }
            // A history page's tail joins the next page's batch (or is flushed when the history settles).
            if !sub.hasPrefix(Self.backfillPrefix) { await flush() }
        case .closed(let relay, let sub, let reason):
            if sub.hasPrefix(Self.backfillPrefix) { await pageEnded(ChainKey(relay: relay, chain: .giftWraps), sub, .closed(reason.raw)) }
            if sub.hasPrefix(Self.preferencesHistoryPrefix) { await pageEnded(ChainKey(relay: relay, chain: .preferences), sub, .closed(reason.raw)) }
            if sub.hasPrefix(Self.queryPrefix) { queryEnded(sub, relay, .closed(reason.raw)) }
        case .notice(let relay, let text):
            updateSink.yield(.notice(relay: relay, text))
        case .ready(let relay):
            liveEOSE.remove(relay)
            if started {
                await restartHistory(relay)
                // Records made offline go out once a relay is back (wire 2026 §3.5).
                if preferencesAnswered { scheduleUpload() }
            }
        case .status(let snapshot):
            relayStatus[snapshot.url] = snapshot.status
            updateSink.yield(.relay(snapshot))
            if let started = awaitingRetry[snapshot.url] {
                if snapshot.status == .connecting {
                    awaitingRetry[snapshot.url] = true
                } else if started, snapshot.status == .failed || snapshot.status == .disabled {
                    awaitingRetry[snapshot.url] = nil
                    await historyIncomplete(snapshot.url, .disconnected)
                }
            }
            for chain in Chain.allCases where snapshot.status != .connected {
                let key = ChainKey(relay: snapshot.url, chain: chain)
                if let page = pagers[key]?.page { await pageEnded(key, subscription(key, page), .disconnected) }
            }
            await checkBackfillComplete()
        }
    }

    // MARK: backfill

    private func subscription(_ key: ChainKey, _ page: HistoryPager.Page) -> String {
        let prefix = key.chain == .giftWraps ? Self.backfillPrefix : Self.preferencesHistoryPrefix
        return "\(prefix)\(relayIndex[key.relay] ?? 0)-\(page.number)"
    }

    private func filter(_ key: ChainKey, _ page: HistoryPager.Page) -> Filter {
        switch key.chain {
        case .giftWraps: return Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [me]], until: page.wireUntil, limit: page.limit)
        case .preferences: return Filter(authors: [me], kinds: [PrivatePreference.kind], until: page.wireUntil, limit: page.limit)
        }
    }

    /// On every (re)connect the relay's history chains start again from their newest events (wire 2026
    /// §6): what a disconnect cut short is read again; what was read already costs no decryption.
    private func restartHistory(_ relay: String) async {
        if relayIndex[relay] == nil { relayIndex[relay] = relayIndex.count }
        awaitingRetry[relay] = nil
        for chain in Chain.allCases {
            let key = ChainKey(relay: relay, chain: chain)
            if pagers[key] == nil { pagers[key] = HistoryPager(relayLimit: await pool.effectiveLimit(Self.pageSize, relay: relay)) }
            guard let actions = pagers[key]?.start() else { continue }
            await carryOut(actions, key)
        }
    }

    /// A page ends on EOSE, CLOSED, a disconnect or its deadline; the chain's pager decides what follows.
    private func pageEnded(_ key: ChainKey, _ sub: String, _ end: HistoryPager.PageEnd) async {
        guard let page = pagers[key]?.page, sub == subscription(key, page),
              let actions = pagers[key]?.ended(end, page: page.number) else { return }
        await carryOut(actions, key)
    }

    private func carryOut(_ actions: [HistoryPager.Action], _ key: ChainKey) async {
        let relay = key.relay
        for action in actions {
            switch action {
            case .close(let page):
                pageTimers[key]?.cancel()
                pageTimers[key] = nil
                await pool.unsubscribe(subscription(key, page), relays: [relay])
                // The next page is asked for while this one is still opened and stored (the ingest worker);
                // `enqueue` holds the consumer once a few batches wait, which bounds memory.
            case .request(let page):
                await request(page, key)
            case .requestLater(let page, let wait, let reason):
                // The page stays running (the history unsettled) while it waits; a reconnect or stop
                // cancels the wait with the page's timer.
                log.info("history page refused; asking again", metadata: ["relay": "\(relay)", "chain": "\(key.chain)",
                                                                         "reason": "\(RelayStatusMessage(reason).prefix?.rawValue ?? "none")"])
                let note = "history page refused (\(DisplayText.singleLine(reason).prefix(80))); asking again in \(wait.components.seconds) s"
                updateSink.yield(.notice(relay: relay, note))
                if key.chain == .giftWraps { updateSink.yield(.historyChanged(relay: relay, note: note)) }
                pageTimers[key]?.cancel()
                let sleep = self.sleep
                pageTimers[key] = Task { [weak self] in
                    await sleep(wait)
                    if Task.isCancelled { return }
                    await self?.requestIfStillRunning(page, key)
                }
            case .settled(.incomplete(.disconnected)):
                // The pool reconnects by itself: the chain starts again then; said only if that fails.
                awaitingRetry[relay] = false
            case .settled(let outcome):
                if key.chain == .giftWraps { updateSink.yield(.historyChanged(relay: relay, note: outcome == .finished ? nil : "history " + outcome.words)) }
                if case .incomplete(let why) = outcome { await historyIncomplete(relay, why) } else {
                    log.debug("history finished", metadata: ["relay": "\(relay)", "chain": "\(key.chain)"])
                    await checkBackfillComplete()
                }
                // Seeding and uploading wait for the stored preferences (wire 2026 §3.5).
                if key.chain == .preferences { await preferencesHistoryAnswered() }
            }
        }
    }

    private func request(_ page: HistoryPager.Page, _ key: ChainKey) async {
        let sub = subscription(key, page)
        stats.backfillPages += key.chain == .giftWraps ? 1 : 0
        log.debug("history page", metadata: ["relay": "\(key.relay)", "chain": "\(key.chain)", "page": "\(page.number)", "limit": "\(page.limit)"])
        await pool.subscribe(sub, filters: [filter(key, page)], relays: [key.relay])
        pageTimers[key]?.cancel()
        let sleep = self.sleep
        pageTimers[key] = Task { [weak self] in
            await sleep(Self.pageDeadline)
            if Task.isCancelled { return }
            await self?.pageEnded(key, sub, .timedOut)
        }
    }

    /// A refused page asked again after its wait, unless the chain moved on (restarted or stopped).
    private func requestIfStillRunning(_ page: HistoryPager.Page, _ key: ChainKey) async {
        guard pagers[key]?.page == page else { return }
        await request(page, key)
    }

    private func historyIncomplete(_ relay: String, _ why: HistoryPager.Incomplete) async {
        log.info("history incomplete", metadata: ["relay": "\(relay)", "why": "\(why)"])
        updateSink.yield(.notice(relay: relay, "couldn't finish loading relay history. reconnect to try again."))
        await checkBackfillComplete()
    }

    private func checkBackfillComplete() async {
        guard backfillComplete else { return }
        // Complete means stored: history still being opened is ingested first (and while restoring).
        await flush()
        guard backfillComplete else { return }
        if !completedOnce {
            completedOnce = true
            if restoringHistory {
                restoringHistory = false
                write("the restored-history mark") { try store.setHistoryRestored() }
            }
            updateSink.yield(.backfillComplete)
        }
        releaseWaiters()
    }

    // MARK: ingest

    private func enqueue(_ relay: String, _ sub: String, _ e: NostrEvent) async {
        stats.wrapsReceived += 1
        let received = Self.seconds(ContinuousClock.now)
        if stats.firstReceived == nil { stats.firstReceived = received }
        stats.lastReceived = received
        // `live` is decided on receipt: an event is news only when it came on the live subscription after
        // that relay's EOSE for it. (Deciding at flush time filed history received just before EOSE as live.)
        switch batcher.admit(IngestBatcher.Item(relay: relay, live: sub == Self.livePrefix && liveEOSE.contains(relay), event: e)) {
        case .inFlight: stats.wrapsAlreadyProcessed += 1
        case .knownJunk:
            stats.invalidWraps += 1
            knownJunk[relay, default: 0] += 1
            if knownJunk[relay, default: 0] >= 50 { await pool.eventsChecked(relay: relay, valid: 0, junk: knownJunk.removeValue(forKey: relay) ?? 0) }
        case .buffered(flush: true, _):
            kickWorker()
            // Backpressure: past a few batches the consumer of pool events waits for the worker.
            while batcher.buffer.count >= batcher.batchSize * Self.queuedBatches {
                await withCheckedContinuation { spaceWaiters.append($0) }
            }
        case .buffered:
            scheduleFlush()
        }
    }

    /// Each relay's share of junk, for its junk meter in the pool (a relay sending mostly junk is dropped).
    private func reportChecked(_ checked: [String: (valid: Int, junk: Int)]) async {
        for (relay, c) in checked { await pool.eventsChecked(relay: relay, valid: c.valid, junk: c.junk) }
    }

    private func kickWorker() {
        guard worker == nil else { return }
        worker = Task { await self.drainFullBatches() }
    }

    /// Full batches as long as there are some, up to `maxBatchesInFlight` at once (one is opened while
    /// the one before is written); a partial batch waits for the timer or `flush()`.
    private func drainFullBatches() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            while true {
                if batcher.buffer.count >= batcher.batchSize, let batch = takeBatch() {
                    running += 1
                    group.addTask { await self.ingest(batch) }
                    continue
                }
                guard running > 0 else { break }
                await group.next()
                running -= 1
            }
        }
        worker = nil
    }

    /// A partial batch goes after a short wait (40 ms), so a trickle of wraps is still batched.
    private func scheduleFlush() { debounce(.flush, .milliseconds(40)) }

    /// Work done once after a burst: the first call starts the wait, the others in it join that one.
    private enum Debounced: Hashable { case flush, profileRefresh, profilesChanged }
    private var debounced = Set<Debounced>()

    private func debounce(_ what: Debounced, _ delay: Duration) {
        guard debounced.insert(what).inserted else { return }
        let sleep = self.sleep
        Task {
            await sleep(delay)
            await self.fire(what)
        }
    }

    private func fire(_ what: Debounced) async {
        debounced.remove(what)
        switch what {
        case .flush: await flushBuffered()
        case .profileRefresh: await refreshProfileSubscription()
        case .profilesChanged: announceProfilesChanged()
        }
    }

    private var junkSinceTrim = 0
    /// Junk seen again (already known, not checked twice) per relay, not yet told to the pool.
    private var knownJunk: [String: Int] = [:]
    private var lastTrim = ContinuousClock.now
    private var activeFlushes = 0

    /// After a flood of junk the allocator keeps the freed batches: give them back (at most every 2 s),
    /// so resident memory returns to where it was.
    private func returnMemoryAfterJunk() {
        guard junkSinceTrim >= 2_000, ContinuousClock.now - lastTrim > .seconds(2) else { return }
        junkSinceTrim = 0
        lastTrim = ContinuousClock.now
        MemoryTrim.now()
    }
    private var flushWaiters: [CheckedContinuation<Void, Never>] = []

    /// Ingests everything buffered and returns once no flush is running any more (a flush started
    /// elsewhere may still be opening its batch: the actor lets others in while it awaits).
    public func flush() async {
        while activeFlushes > 0 || !batcher.buffer.isEmpty {
            if !batcher.buffer.isEmpty, batcher.hasSlot { await flushBuffered(); continue }
            await withCheckedContinuation { flushWaiters.append($0) }
        }
    }

    /// Opens the buffered wraps (on every core) and ingests them in one transaction.
    private func flushBuffered() async {
        debounced.remove(.flush)
        guard let buffered = takeBatch() else { return }
        await ingest(buffered)
    }

    private func takeBatch() -> [IngestBatcher.Item]? {
        guard let batch = batcher.takeBatch() else { return nil }
        activeFlushes += 1
        // Room again for the consumer of pool events.
        for w in spaceWaiters { w.resume() }
        spaceWaiters.removeAll()
        return batch
    }

    /// Opens a taken batch (on every core) and ingests it in one transaction (off the actor).
    private func ingest(_ buffered: [IngestBatcher.Item]) async {
        var failed = [EventID]()
        defer {
            batcher.finished(buffered, junk: failed)
            if batcher.buffer.count >= batcher.batchSize { kickWorker() } else if !batcher.buffer.isEmpty { scheduleFlush() }
        }
        defer {
            activeFlushes -= 1
            if activeFlushes == 0 {
                for w in flushWaiters { w.resume() }
                flushWaiters.removeAll()
            }
        }
        let bufferedIDs = buffered.map { $0.event.id.hex }
        // Dedup against the persisted set before any decryption; if that lookup fails, opening again is
        // only wasted work (ingest dedups by rumor id).
        let known = (try? store.alreadyProcessed(bufferedIDs)) ?? []
        stats.wrapsAlreadyProcessed += known.count
        let batch = known.isEmpty ? buffered : buffered.filter { !known.contains($0.event.id.hex) }
        var checked = [String: (valid: Int, junk: Int)]()
        for item in buffered where known.contains(item.event.id.hex) { checked[item.relay, default: (0, 0)].valid += 1 }
        guard !batch.isEmpty else { return await reportChecked(checked) }
        let now = clock()
        let identity = identity, cache = keyCache
        let unwrapStart = ContinuousClock.now
        let opened = await Self.unwrapAll(batch.map(\.event), identity: identity, cache: cache)
        stats.unwrapSeconds += Self.seconds(ContinuousClock.now) - Self.seconds(unwrapStart)
        stats.decryptions += batch.count
        var messages = [InboundMessage]()
        for (item, result) in zip(batch, opened) {
            switch result {
            case .failure:
                // Junk (bad signature, not for us, undecryptable) costs no disk: remembered in memory only.
                stats.invalidWraps += 1
                checked[item.relay, default: (0, 0)].junk += 1
                failed.append(item.event.id)
                junkSinceTrim += 1
            case .success(let gift):
                checked[item.relay, default: (0, 0)].valid += 1
                switch InboundDecoder.decode(rumor: gift.rumor, rumorID: gift.rumorID, sender: gift.sender, wrapID: item.event.id.hex,
                                             source: item.live ? .live : .historical, receivedAt: now) {
                case .success(let m): messages.append(m)
                case .failure(.notLinkstr): stats.notLinkstr += 1
                case .failure: stats.rejectedPayloads += 1
                }
            }
        }
        returnMemoryAfterJunk()
        await reportChecked(checked)
        let wrapIDs = zip(batch, opened).compactMap { item, result in (try? result.get()) == nil ? nil : item.event.id.hex }
        do {
            let storeStart = ContinuousClock.now
            defer { stats.storeSeconds += Self.seconds(ContinuousClock.now) - Self.seconds(storeStart) }
            let store = self.store, restoring = restoringHistory, messages = messages
            // Off the actor: pool events go on being received while the batch is written.
            let reports = try await Self.writing { try store.ingest(messages, restoringHistory: restoring, processedWraps: wrapIDs, now: now) }
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
            log.debug("batch ingested", metadata: ["wraps": "\(batch.count)", "opened": "\(wrapIDs.count)", "messages": "\(messages.count)",
                                                   "sessions": "\(touched.count)"])
            if !touched.isEmpty || !notifications.isEmpty { updateSink.yield(.ingested(touchedSessions: touched, notifications: notifications)) }
            if !touched.isEmpty { scheduleProfileRefresh() }
        } catch {
            // Nothing was written; these wraps are opened again next time (the run is not complete).
            log.error("could not store incoming messages", metadata: ["error": "\(type(of: error))", "wraps": "\(batch.count)"])
            let words = "\(error)"
            stats.storeFailures += 1
            stats.lastStoreError = words
            updateSink.yield(.notice(relay: "", "could not store \(batch.count) incoming message\(batch.count == 1 ? "" : "s"): \(words) they are read again on the next sync."))
        }
    }

    /// Seconds since the process's first use of it, on the continuous clock (for stage figures).
    public static func seconds(_ instant: ContinuousClock.Instant) -> Double {
        let d = epoch.duration(to: instant)
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    private static let epoch = ContinuousClock.now

    /// Batches are written on one queue of their own, in the order they were opened.
    private static let writeQueue = DispatchQueue(label: "linkstr.sync.ingest-writes", qos: .userInitiated)

    static func writing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Fully checked unwraps, spread over the cores (each unwrap is ~200 µs of elliptic-curve work).
    static func unwrapAll(_ wraps: [NostrEvent], identity: SecretKey, cache: ConversationKeyCache) async -> [Result<NIP59.UnwrappedGift, GiftWrapError>] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let results = ResultSlots(count: wraps.count)
                let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, wraps.count / 8))
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    var i = w
                    while i < wraps.count {
                        results.set(i, Result { () throws(GiftWrapError) in try NIP59.unwrap(wraps[i], recipient: identity, cache: cache) })
                        i += workers
                    }
                }
                continuation.resume(returning: results.values)
            }
        }
    }

    func ingestFollowList(_ e: NostrEvent) {
        guard e.kind == 3, e.pubkey.hex == me, e.isValid else { return }
        if write("the follow list", { try store.ingestFollowList(author: me, createdAt: e.createdAt, eventID: e.id.hex, tags: e.tags, now: clock()) }) == .applied {
            updateSink.yield(.contactsChanged)
            scheduleProfileRefresh()
        }
    }

    // MARK: one-shot queries

    /// Asks every connected relay once and returns the events they sent (each once) when all of them
    /// ended the request (EOSE or CLOSED) or `timeout` passed. Nothing is stored; the caller verifies.
    /// nil: no relay could be reached.
    public func query(_ filters: [Filter], timeout: Duration = .seconds(10)) async -> [NostrEvent]? {
        await queryEach(filters, timeout: timeout)?.events
    }

    /// What a one-shot request brought: the events, which relay sent which, and how each relay ended
    /// it (a relay missing from `ends` did not answer in time).
    public struct QueryAnswer: Sendable {
        public var events: [NostrEvent]
        public var sources: [String: Set<String>]
        public var ends: [String: HistoryPager.PageEnd]
        public var relays: Set<String>
    }

    /// `query`, with each relay's part of the answer; `relays`: only these (when connected).
    public func queryEach(_ filters: [Filter], relays only: Set<String>? = nil, timeout: Duration = .seconds(10)) async -> QueryAnswer? {
        ensureConsuming()
        if await pool.waitForWritableRelay() != nil { return nil }
        var relays = Set(await pool.snapshots().filter { $0.status == .connected || $0.status == .readOnly }.map(\.url))
        if let only { relays.formIntersection(only) }
        guard !relays.isEmpty else { return nil }
        queryCount += 1
        let sub = "\(Self.queryPrefix)\(queryCount)"
        queries[sub] = PendingQuery(relays: relays)
        await pool.subscribe(sub, filters: filters, relays: relays)
        let sleep = self.sleep
        let timer = Task { [weak self] in
            await sleep(timeout)
            await self?.finishQuery(sub)
        }
        await withCheckedContinuation { continuation in
            if queries[sub]?.relays.isEmpty == true { continuation.resume() } else { queries[sub]?.waiter = continuation }
        }
        timer.cancel()
        let pending = queries[sub]
        queries[sub] = nil
        await pool.unsubscribe(sub, relays: relays)
        return QueryAnswer(events: pending.map { Array($0.events.values) } ?? [], sources: pending?.sources ?? [:],
                           ends: pending?.ends ?? [:], relays: relays)
    }

    private func queryEnded(_ sub: String, _ relay: String, _ end: HistoryPager.PageEnd) {
        guard queries[sub]?.relays.remove(relay) != nil else { return }
        queries[sub]?.ends[relay] = end
        if queries[sub]?.relays.isEmpty == true { finishQuery(sub) }
    }

    private func finishQuery(_ sub: String) {
        guard let waiter = queries[sub]?.waiter else { return }
        queries[sub]?.waiter = nil
        waiter.resume()
    }

    /// "Added you" (wire 2026 §7.2): who follows you now, by their newest verified follow list. nil: no
    /// relay answered. Read-only. Each relay's lists naming us are paged (200 at a time, doubling to
    /// 1 600 on a crowded second, `HistoryPager`); `complete` is false when a relay's pages did not all
    /// come (closed, timed out, a second too crowded to read): the list may then be short.
    public func addedYou(timeout: Duration = .seconds(10)) async -> (followers: [Pubkey], complete: Bool)? {
        func lists(_ events: [NostrEvent]) -> [AddedYouRule.FollowList] { events.compactMap(Self.followList) }
        guard let relays = await connectedRelays(), !relays.isEmpty else { return nil }
        var found: [AddedYouRule.FollowList] = []
        var complete = true
        var answered = false
        for relay in relays.sorted() {
            guard let paged = await pagedFollowLists(relay: relay, timeout: timeout) else { continue }
            answered = true
            found += lists(paged.events)
            if paged.outcome != .finished { complete = false }
        }
        guard answered else { return nil }
        let authors = Array(Set(found.map(\.author))).sorted()
        // Their newest lists, which may no longer name us (an unfollow a relay has not caught up with).
        for start in stride(from: 0, to: authors.count, by: AddedYouRule.authorsPerQuery) {
            let batch = Array(authors[start..<min(start + AddedYouRule.authorsPerQuery, authors.count)])
            found += lists(await query([Filter(authors: batch, kinds: [3], limit: 2 * batch.count)], timeout: timeout) ?? [])
        }
        addedYouLists = [:]
        for list in found { keepNewer(list) }
        let followers = AddedYouRule.followers(Array(addedYouLists.values), me: me)
        if watchingAddedYou { await subscribeAddedYouRows(followers) }
        return (followers, complete)
    }

    /// A verified kind 3 as a follow list; nil for anything else.
    private static func followList(_ e: NostrEvent) -> AddedYouRule.FollowList? {
        guard e.kind == 3, e.isValid else { return nil }
        return AddedYouRule.FollowList(author: e.pubkey.hex, stamp: LWWStamp(createdAt: e.createdAt, eventID: e.id.hex), tags: e.tags)
    }

    @discardableResult
    private func keepNewer(_ list: AddedYouRule.FollowList) -> Bool {
        if let current = addedYouLists[list.author], !FollowListRule.shouldApply(list.stamp, over: current.stamp) || current == list { return false }
        addedYouLists[list.author] = list
        return true
    }

    /// Keeps "added you" current while it is shown: new lists naming us (`limit: 0`, only what comes from
    /// now on) and the newest lists of the people listed (an unfollow). Off again: both closed.
    public func watchAddedYou(_ on: Bool) async {
        guard on != watchingAddedYou else { return }
        watchingAddedYou = on
        if on {
            ensureConsuming()
            await pool.subscribe(Self.addedYouNewSubscription, filters: [Filter(kinds: [3], tags: ["p": [me]], limit: 0)])
            await subscribeAddedYouRows(AddedYouRule.followers(Array(addedYouLists.values), me: me))
        } else {
            await pool.unsubscribe(Self.addedYouNewSubscription)
            await pool.unsubscribe(Self.addedYouRowsSubscription)
        }
    }

    private func subscribeAddedYouRows(_ followers: [Pubkey]) async {
        let shown = Array(followers.prefix(AddedYouRule.watchedRows))
        guard !shown.isEmpty else { return await pool.unsubscribe(Self.addedYouRowsSubscription) }
        var filters: [Filter] = []
        for start in stride(from: 0, to: shown.count, by: AddedYouRule.authorsPerQuery) {
            let batch = Array(shown[start..<min(start + AddedYouRule.authorsPerQuery, shown.count)])
            filters.append(Filter(authors: batch, kinds: [3], limit: 2 * batch.count))
        }
        await pool.subscribe(Self.addedYouRowsSubscription, filters: filters)
    }

    private func addedYouListArrived(_ e: NostrEvent) async {
        guard watchingAddedYou, let list = Self.followList(e), list.author != me else { return }
        let before = AddedYouRule.followers(Array(addedYouLists.values), me: me)
        guard keepNewer(list) else { return }
        let after = AddedYouRule.followers(Array(addedYouLists.values), me: me)
        guard after != before else { return }
        updateSink.yield(.addedYouChanged(after))
        // A new follower's later lists are watched too (an unfollow).
        if !Set(after).isSubset(of: before) { await subscribeAddedYouRows(after) }
    }

    private func connectedRelays() async -> Set<String>? {
        if await pool.waitForWritableRelay() != nil { return nil }
        return Set(await pool.snapshots().filter { $0.status == .connected || $0.status == .readOnly }.map(\.url))
    }

    /// One relay's kind 3 lists naming us, page by page. nil: the relay did not take the first page.
    private func pagedFollowLists(relay: String, timeout: Duration) async -> (events: [NostrEvent], outcome: HistoryPager.Outcome)? {
        var pager = HistoryPager(relayLimit: await pool.effectiveLimit(HistoryPager.Limits.followLists.first, relay: relay), limits: .followLists)
        var events: [String: NostrEvent] = [:]
        var actions = pager.start()
        var pages = 0
        while let action = actions.first {
            actions.removeFirst()
            switch action {
            case .close: continue
            case .settled(let outcome): return (Array(events.values), outcome)
            case .request(let page), .requestLater(let page, _, _):
                if case .requestLater(_, let wait, _) = action { await sleep(wait) }
                pages += 1
                guard let answer = await queryEach([Filter(kinds: [3], tags: ["p": [me]], until: page.wireUntil, limit: page.limit)],
                                                   relays: [relay], timeout: timeout) else {
                    return pages == 1 ? nil : (Array(events.values), .incomplete(.disconnected))
                }
                let sent = answer.sources[relay] ?? []
                for e in answer.events where sent.contains(e.id.hex) {
                    let names = e.tags.contains { $0.count >= 2 && $0[0] == "p" && $0[1] == me }
                    pager.received(id: e.id.hex, createdAt: e.createdAt, matchesFilter: e.kind == 3 && names, page: page.number)
                    events[e.id.hex] = e
                }
                actions += pager.ended(answer.ends[relay] ?? .timedOut, page: page.number)
            }
        }
        return (Array(events.values), pager.outcome ?? .incomplete(.timedOut))
    }

    // MARK: private preferences (wire 2026 §3)

    private func ingestPreference(_ e: NostrEvent) {
        let preference: PrivatePreference
        switch PrivatePreference.check(e, secretKey: identity) {
        case .success(let p): preference = p
        case .failure(let why):
            // Ignored, as the spec asks; the log says why (never what it holds).
            log.debug("private preference ignored", metadata: ["event": "\(e.id.hex.prefix(12))", "why": "\(why.rawValue)"])
            return
        }
        guard write("a private preference", { try store.receivePreference(preference, event: e) }) == true else { return }
        announce(preference)
    }

    private func announce(_ preference: PrivatePreference) {
        switch preference {
        case .alias: updateSink.yield(.contactsChanged)
        case .archive(let sid, _): updateSink.yield(.ingested(touchedSessions: [sid], notifications: []))
        }
    }

    /// A change made here: applied at once and kept as pending, then published (a relay that is not
    /// reachable now gets it when it is). Nothing is made when the stored record already says so.
    public func savePreference(_ preference: PrivatePreference) throws {
        try savePreference(preference, createdAt: nil)
        scheduleUpload()
    }

    /// Publishes what is pending and returns when that is done or has failed (the CLI, before it exits).
    public func publishPendingPreferences() async {
        scheduleUpload()
        await uploadTask?.value
    }

    private func scheduleUpload() {
        guard uploadTask == nil else { uploadAgain = true; return }
        uploadTask = Task { [weak self] in await self?.runUploads() }
    }

    private func runUploads() async {
        repeat {
            uploadAgain = false
            await uploadPendingPreferences()
        } while uploadAgain && !Task.isCancelled
        uploadTask = nil
    }

    /// `createdAt` nil: dated now, after the record it replaces; else as given (the initial backup).
    private func savePreference(_ preference: PrivatePreference, createdAt: Int64?) throws {
        let current = try store.preference(dTag: PrivatePreference.dTag(for: preference.key, secretKey: identity))
        if current?.preference == preference { return }
        let at = createdAt ?? PrivatePreference.publicationTime(now: clock(), after: current?.stamp)
        try store.savePreference(preference, event: try preference.event(secretKey: identity, createdAt: at, random: random))
        announce(preference)
    }

    /// Once per run, after a relay sent the stored records: what was chosen here before preferences
    /// synced (aliases, archived sessions) and has no record yet gets one, dated at its origin so that it
    /// never outranks an edit made elsewhere.
    private func preferencesHistoryAnswered() async {
        preferencesAnswered = true
        if !preferencesSeeded {
            preferencesSeeded = true
            write("the initial backup of private preferences") {
                let targets = try store.storedPreferenceTargets()
                func missing(_ p: PrivatePreference) -> Bool { !targets.contains(store.preferenceTarget(p.key)) }
                for contact in try store.contacts() {
                    guard let alias = contact.alias else { continue }
                    let p = PrivatePreference.alias(pubkey: contact.pubkey, name: alias)
                    if missing(p) { try savePreference(p, createdAt: 1) }
                }
                for row in try store.sessionSummaries(archived: true) {
                    let p = PrivatePreference.archive(sessionID: row.id, archived: true)
                    let created = try store.session(row.id)?.derived.timeline.first?.createdAt ?? 1
                    if missing(p) { try savePreference(p, createdAt: max(1, created)) }
                }
            }
        }
        scheduleUpload()
    }

    /// Publishes the pending records one at a time, each waiting for a relay's OK; a failure keeps them
    /// pending for the next reconnect.
    private func uploadPendingPreferences() async {
        guard let pending = read("the pending private preferences", { try store.pendingPreferenceEvents() }), !pending.isEmpty else { return }
        if await pool.waitForWritableRelay() != nil {
            updateSink.yield(.notice(relay: "", "couldn't sync private preferences. local data is kept; linkstr will retry when you reconnect."))
            return
        }
        for event in pending {
            guard case .success = await pool.publish([event]) else {
                updateSink.yield(.notice(relay: "", "couldn't sync private preferences. local data is kept; linkstr will retry when you reconnect."))
                return
            }
            write("a published private preference") { try store.markPreferencePublished(event.id.hex) }
        }
        log.info("private preferences published", metadata: ["count": "\(pending.count)"])
    }

    // MARK: profiles

    /// Asks every relay for the kind 0 of the people we know, replacing the previous request when that set
    /// changed (a REQ with the same id replaces it; the pool re-sends it after reconnects).
    func refreshProfileSubscription() async {
        debounced.remove(.profileRefresh)
        guard let authors = try? store.profileAuthors(), !(profilesSubscribed && authors == profileAuthors) else { return }
        profileAuthors = authors
        profilesSubscribed = true
        let sorted = authors.sorted()
        // Our own newest kind 0 too: a name change must keep the fields other clients set.
        // Their profiles and where they want gift wraps delivered (NIP-17 inbox, NIP-65 read relays).
        let kinds = [0, InboxRelayRule.inboxKind, InboxRelayRule.relayListKind]
        let filters = [Filter(authors: [me], kinds: [0], limit: 1)] + stride(from: 0, to: sorted.count, by: Self.authorsPerFilter).map {
            Filter(authors: Array(sorted[$0..<min($0 + Self.authorsPerFilter, sorted.count)]), kinds: kinds)
        }
        await pool.subscribe(Self.profilesSubscription, filters: filters)
    }

    /// New sessions or contacts arrive in bursts; look at the set of people once the burst is over.
    private func scheduleProfileRefresh() { debounce(.profileRefresh, .seconds(1)) }

    private func ingestProfile(_ e: NostrEvent) {
        let author = e.pubkey.hex
        if e.kind == InboxRelayRule.inboxKind || e.kind == InboxRelayRule.relayListKind {
            guard author != me, profileAuthors.contains(author), e.isValid,
                  InboxRelayRule.shouldStore(createdAt: e.createdAt, eventID: e.id.hex, current: try? store.relayListStamp(author, kind: e.kind),
                                             now: clock()) else { return }
            write("a relay list") { try store.storeRelayList(author, kind: e.kind, relays: InboxRelayRule.relays(kind: e.kind, tags: e.tags),
                                      stamp: LWWStamp(createdAt: e.createdAt, eventID: e.id.hex)) }
            return
        }
        if author == me {
            guard e.kind == 0, e.isValid else { return }
            let current = try? store.ownProfile()
            if case .apply(_, let stamp) = ProfileRule.decide(kind: e.kind, author: me, createdAt: e.createdAt, eventID: e.id.hex, content: e.content,
                                                              known: [me], current: current?.stamp, now: clock()) {
                write("our profile") { try store.setOwnProfile(content: e.content, stamp: stamp) }
                // Unless a name typed here is still waiting to be published, the relays' name is ours.
                if case .some(nil) = read("the pending profile name", { try store.setting(.profileNamePending) }) {
                    write("our profile name") { try store.setSetting(.profileName, NostrEventTemplates.profileName(fromContent: e.content)) }
                    scheduleProfilesChanged()
                }
            }
            return
        }
        // Cheap checks before the signature: only kind 0 of people we asked for is worth verifying.
        guard e.kind == 0, profileAuthors.contains(author), e.isValid else { return }
        let decision = ProfileRule.decide(kind: e.kind, author: author, createdAt: e.createdAt, eventID: e.id.hex, content: e.content,
                                          known: profileAuthors, current: try? store.profileStamp(author), now: clock())
        guard write("a profile", { try store.applyProfile(author, decision) }) == true else { return }
        scheduleProfilesChanged()
    }

    /// One reload for a burst of profiles (the first answer brings one per person).
    private func scheduleProfilesChanged() { debounce(.profilesChanged, .milliseconds(200)) }


    /// Publishes a name typed while offline or at account creation (`profile.name.pending`), if any.
    public func publishPendingProfileName() async {
        guard case .some(let name?) = read("the pending profile name", { try store.setting(.profileNamePending) }) else { return }
        _ = try? await publishProfileName(name)
    }

    /// Publishes our profile name (nil or empty removes it) merged into our newest kind 0, after waiting
    /// (bounded) for a relay to tell us what that is; once accepted it is our name here too and no longer
    /// pending. Returns the published event.
    @discardableResult
    public func publishProfileName(_ name: String?, waitingUpTo wait: Duration = .seconds(5)) async throws -> NostrEvent {
        await waitForAnswer(.profiles, answered: { !profilesAnswered.isEmpty }, upTo: wait)
        let existing = try? store.ownProfile()
        // Replaceable: relays keep the newest, so ours must be dated after the one it replaces.
        let now = max(clock(), (existing?.stamp.createdAt ?? 0) + 1)
        let event = try await publish(NostrEventTemplates.profile(name: name, existingContent: existing?.content, now: now))
        try store.setOwnProfile(content: event.content, stamp: LWWStamp(createdAt: event.createdAt, eventID: event.id.hex))
        try store.setSetting(.profileName, name?.isEmpty == false ? name : nil)
        try store.setSetting(.profileNamePending, nil)
        return event
    }

    private func announceProfilesChanged() {
        debounced.remove(.profilesChanged)
        updateSink.yield(.profilesChanged)
    }

    // MARK: sending

    public struct SentRumor: Sendable, Equatable {
        public let rumorID: String
        public let wrapIDs: [String]
    }

    /// One user action: wraps every rumor to each of its recipients (ourselves included), publishes all
    /// of them as one batch, and only after every wrap was accepted applies them locally.
    public func send(_ rumors: [OutboundRumor]) async throws -> [SentRumor] {
        if let error = await pool.waitForWritableRelay() { throw error }
        let now = clock()
        let batch = try OutboxBatch.seal(rumors, identity: identity, now: now, random: random, cache: keyCache)
        switch await pool.publish(batch.wraps) {
        case .failure(let error): throw error
        case .success: break
        }
        log.info("sent", metadata: ["rumors": "\(rumors.count)", "wraps": "\(batch.wraps.count)"])
        // Our self-copies will come back from the relays: mark them processed so they are never opened.
        let reports = try store.ingest(batch.localMessages, processedWraps: batch.wraps.map { $0.id.hex }, now: now)
        try store.markSent(batch.startedPosts)
        updateSink.yield(.ingested(touchedSessions: reports.reduce(into: Set<String>()) { $0.formUnion($1.touchedSessions) }, notifications: []))
        scheduleProfileRefresh()  // a new session or member list may name people we have not asked about
        await deliverToInboxes(batch.wrapsByRecipient)
        return batch.sent
    }

    /// Beyond iOS: each recipient's wraps also go to their own inbox relays (kind 10050, else their NIP-65
    /// read relays) that are not among ours, so people who read elsewhere still receive them. Best effort,
    /// concurrent and bounded in time: the post already counts as sent.
    private func deliverToInboxes(_ wrapsByRecipient: [Pubkey: [NostrEvent]]) async {
        let ours = Set(await pool.snapshots().map(\.url))
        let store = self.store
        // Reading a stored list can only fail with the database; that recipient then gets no extra relays.
        let plan = OutboxBatch.deliveryPlan(wrapsByRecipient, ours: ours) { recipient in
            (try? store.relayList(recipient, kind: InboxRelayRule.inboxKind), try? store.relayList(recipient, kind: InboxRelayRule.relayListKind))
        }
        guard !plan.isEmpty else { return }
        let delivery = self.delivery
        let reports = await withTaskGroup(of: InboxDelivery.Report.self) { group in
            for (relay, events) in plan { group.addTask { await delivery.deliver(events, to: relay) } }
            return await group.reduce(into: [InboxDelivery.Report]()) { $0.append($1) }
        }
        for report in reports {
            stats.inboxDelivered += report.accepted
            stats.inboxUndelivered += plan[report.relay, default: []].count - report.accepted
            if let error = report.error { updateSink.yield(.notice(relay: report.relay, "inbox delivery: \(error)")) }
        }
    }

    /// Signs and publishes a plain event (kind 0, 3, 5, 62, 10050) with send gating.
    public func publish(_ template: UnsignedEventTemplate) async throws -> NostrEvent {
        if let error = await pool.waitForWritableRelay() { throw error }
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event]) {
        case .failure(let error): throw error
        case .success: return event
        }
    }

    /// A best-effort step (a NIP-09 deletion request): signed and sent to every connected writable relay,
    /// waiting for each answer (bounded), never throwing. Returns what each relay that did not accept said.
    public func publishBestEffort(_ template: UnsignedEventTemplate, timeout: Duration = .seconds(8)) async -> BestEffortReport {
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event], timeout: timeout, everyRelay: true) {
        case .failure(let error): return BestEffortReport(refusedBy: [:], unsent: error.description)
        case .success(let receipt): return BestEffortReport(refusedBy: receipt.refusedBy, unsent: nil)
        }
    }

    /// NIP-17: our kind 10050 names the relays we read gift wraps from, so senders can deliver there.
    /// Published when that set differs from the last one published, and only while a relay is connected
    /// (this is housekeeping: it never makes the caller wait for a connection). True when published.
    @discardableResult
    public func publishInboxRelaysIfChanged() async -> Bool {
        let snapshots = await pool.snapshots()
        let relays = snapshots.filter(\.enabled).map(\.url).sorted()
        let published = relays.joined(separator: " ")
        guard !relays.isEmpty, snapshots.contains(where: { $0.status == .connected }),
              let current = read("the published inbox relays", { try store.setting(.inboxPublished) }), current != published else { return false }
        guard (try? await publish(NostrEventTemplates.inboxRelays(relays, now: clock()))) != nil else { return false }
        write("the published inbox relays") { try store.setSetting(.inboxPublished, published) }
        return true
    }

    /// Publishes the follow list with exactly `keys` (see `editContacts`).
    public func setContacts(_ keys: [Pubkey]) async throws {
        try await editContacts { _ in keys }
    }
}

/// One slot per wrap; each index is written by exactly one worker, then read after all of them finished.
/// (A lock per wrap costs nanoseconds beside the two signature checks and the ECDH each wrap needs.)
private final class ResultSlots: Sendable {
    private let slots: Mutex<[Result<NIP59.UnwrappedGift, GiftWrapError>?]>
    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    func set(_ i: Int, _ r: Result<NIP59.UnwrappedGift, GiftWrapError>) { slots.withLock { $0[i] = r } }
    var values: [Result<NIP59.UnwrappedGift, GiftWrapError>] { slots.withLock { $0.map { $0! } } }
}
