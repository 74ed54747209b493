import LinkstrDomain
import LinkstrLogging
import LinkstrRelay
import LinkstrSync
import Synchronization

/// Syncing an open account, the same way in both front ends: the app starts it and reads the engine's
/// updates; `linkstr sync` runs it once to a deadline (`run`).
extension AccountSession {
    /// The pool takes the relay list, the engine its subscriptions, and a profile name typed while
    /// offline starts going out (on the engine's own task: nothing waits for it). `relaysApplied`: the
    /// caller already gave the pool its list (the app does, before anything else can send).
    public func startSync(relaysApplied: Bool = false) async throws {
        if !relaysApplied { await applyRelays() }
        try await engine.start()
        await engine.startPublishingPendingProfileName()
    }

    /// Once the history is read: our inbox relays (kind 10050) when they changed, and preference records
    /// saved while offline. Only then: relays that did not answer a REQ would not answer an EVENT either.
    /// Lists looked up elsewhere only once our relays' history of them is read (bounded): what they
    /// hold is current, and needs no lookup.
    public func afterHistory() async {
        await engine.publishOwnListsIfChanged()
        await engine.publishPendingPreferences()
        await engine.waitForProfileHistory(timeout: .seconds(15))
        await engine.refreshStaleRelayLists()
        await checkNames()
    }

    /// NIP-05: the names of the people we deal with that are due, checked (`NIP05Names`); a store
    /// failure is logged (the names show unchecked).
    public func checkNames() async {
        let delivery = await engine.outsideDialer()
        let names = NIP05Names(store: store, me: me) { id in await delivery.nip05Document(id) }
        do { try await names.refresh(now: time.wallSeconds()) } catch {
            LinkstrLogging.logger("nip05").error("NIP-05 checks could not be stored: \(type(of: error))")
        }
    }

    /// Everyone we know's `nip05` and what NIP-05 said of it.
    public func nip05Marks() throws -> [Pubkey: NIP05Mark] {
        try NIP05Names.marks(store, people: NIP05Names.people(store, me: me))
    }

    /// What one sync run did.
    public struct SyncRun: Sendable {
        /// Every history chain read to its end on some relay, and everything received stored.
        public var complete: Bool
        /// The history settled before the deadline.
        public var backfilled: Bool
        public var stats: SyncStats
        public var relays: [RelaySnapshot]
        public var history: [String: HistoryPager.Outcome]
        /// What was still waiting to go out at the deadline, in words ("profile name not published yet: no
        /// relay answered"): it stays pending for the next run.
        public var unfinished: [String] = []
        /// The send queue: items this run sent, and what is left waiting or failed.
        public var queueSent = 0
        public var queueWaiting = 0
        public var queueFailed = 0
    }

    /// Starts syncing, waits for the history up to `timeout`, does the after-history work within what is
    /// left of it (what does not go out now stays pending for the next run), keeps following for
    /// `follow` when asked, then stops: the deadline holds even while a relay keeps streaming (receiving
    /// stops, what is buffered is stored).
    /// `until`: following ends early when it yields (SIGINT, a reader gone).
    public func runSync(timeout: Duration, follow: Duration? = nil, until stop: AsyncStream<Void>? = nil) async throws -> SyncRun {
        // The deadline counts from the start: nothing before the history's wait may spend it twice.
        let deadline = time.monotonic() + timeout
        try await startSync()
        let backfilled = await engine.waitForBackfill(timeout: max(.zero, deadline - time.monotonic()))
        if backfilled {
            await Self.untilDeadline(deadline, on: time) { [self] in
                // What waited to be sent goes (it began at the start; this waits for its end).
                await self.engine.drainSendQueue()
                await self.afterHistory()
                await self.engine.waitForPendingProfileName()
            }
        }
        if let follow {
            if let stop {
                await Self.untilDeadline(time.monotonic() + follow, on: time) {
                    for await _ in stop { return }
                }
            } else {
                await time.sleep(follow)
            }
        }
        let relays = await engine.relaySnapshots()
        let history = await engine.historyOutcomes()
        var unfinished = [String]()
        if await engine.profileNamePending { unfinished.append("profile name not published yet: no relay accepted it in time; it goes out on the next sync") }
        await close()
        let stats = await engine.settledStats()
        var run = SyncRun(complete: backfilled && stats.storeFailures == 0, backfilled: backfilled, stats: stats, relays: relays, history: history,
                          unfinished: unfinished)
        run.queueSent = await engine.sendQueueTotals.sent
        let left = try store.sendQueue()
        run.queueWaiting = left.filter { $0.state == .queued }.count
        run.queueFailed = left.filter { $0.state == .failed }.count
        if run.queueWaiting > 0 {
            run.unfinished.append("\(run.queueWaiting) queued item\(run.queueWaiting == 1 ? "" : "s") not sent yet: no relay took \(run.queueWaiting == 1 ? "it" : "them") in time; the next sync or the app sends \(run.queueWaiting == 1 ? "it" : "them")")
        }
        return run
    }

    /// Runs `work` until it is done or `deadline` passes, whichever comes first (past the deadline it is
    /// left to end when the engine stops).
    static func untilDeadline(_ deadline: Duration, on time: TimeSource, _ work: @escaping @Sendable () async -> Void) async {
        let resumed = Mutex(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeOnce: @Sendable () -> Void = {
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume() }
            }
            Task { await work(); resumeOnce() }
            Task { await time.sleep(until: deadline); resumeOnce() }
        }
    }
}
