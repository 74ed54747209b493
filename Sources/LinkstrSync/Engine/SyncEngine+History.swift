import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// One relay's history chain.
struct HistoryKey: Hashable, Sendable {
    let relay: String
    let chain: SyncSubscription.HistoryChain
}

/// The history chains of every relay, and whether the initial history has settled.
struct HistoryState {
    /// Each chain's pager (`HistoryPager`, pure); the engine carries out what it decides.
    var pagers: [HistoryKey: HistoryPager] = [:]
    /// Relays whose chain a disconnect cut short, until their next connection attempt tells: true once
    /// that attempt started. A reconnect restarts the chain; a failed attempt settles it as incomplete.
    var awaitingRetry: [String: Bool] = [:]
    /// Each relay's number in the subscription ids (`SyncSubscription.history`).
    var relayIndex: [String: Int] = [:]
    var pageTimers: [HistoryKey: Task<Void, Never>] = [:]
    var relayStatus: [String: RelayStatus] = [:]
    var completedOnce = false
    /// The store was empty at start: this is a restore, marked done once the history is read.
    var restoring = false

    /// The initial history is settled when no page is running, at least one relay's chain settled
    /// (finished or incomplete), and every relay still trying to connect has given up for now.
    var settled: Bool {
        let reconcilers = reconcile.reconcilers
        let settled = pagers.contains { $0.key.chain == .giftWraps && $0.value.outcome != nil }
            || reconcilers.contains { $0.key.chain == .giftWraps && $0.value.outcome != nil }
        let running = pagers.contains { $0.key.chain.isOwn && $0.value.isRunning } || reconcilers.contains { $0.key.chain.isOwn && $0.value.isRunning }
        let connecting = relayStatus.contains { url, status in
            let key = HistoryKey(relay: url, chain: .giftWraps)
            return status == .connecting && pagers[key] == nil && reconcilers[key] == nil
        }
        return settled && !running && !connecting && awaitingRetry.isEmpty
    }

    /// Each history chain read to its end (paged or reconciled) on at least one relay.
    var read: Bool {
        SyncSubscription.HistoryChain.own.allSatisfy { chain in
            pagers.contains { $0.key.chain == chain && $0.value.outcome == .finished }
                || reconcile.reconcilers.contains { $0.key.chain == chain && $0.value.outcome == .finished }
        }
    }

    /// NIP-77 syncs of the history chains (`SyncEngine+Reconcile`).
    var reconcile = ReconcileState()

    func subscription(_ key: HistoryKey, _ page: HistoryPager.Page) -> SyncSubscription {
        .history(key.chain, relay: relayIndex[key.relay] ?? 0, page: page.number)
    }
}

/// History: each relay's chains paged from the newest (wire 2026 §6), restarted on every (re)connect;
/// the initial history's completion for `waitForBackfill`.
extension SyncEngine {
    /// Waits until every relay that connected has been backfilled, or `timeout`. True when complete:
    /// each history chain read to its end on at least one relay (a relay that refused, cut its history
    /// short or is still paging at the deadline does not count against it; one that finished is enough).
    public func waitForBackfill(timeout: Duration) async -> Bool {
        if history.settled { return history.read }
        await park(.backfill, upTo: timeout)
        // At the deadline, relays still paging do not undo a history another relay read to its end.
        return history.read
    }

    /// How each relay's gift-wrap history ended: nil while it runs (or never started).
    public func historyOutcomes() -> [String: HistoryPager.Outcome] {
        var outcomes = [String: HistoryPager.Outcome]()
        for (key, pager) in history.pagers where key.chain == .giftWraps { if let o = pager.outcome { outcomes[key.relay] = o } }
        // Read by NIP-77: finished, or cut short by a disconnect (one that fell back has a pager above).
        for (key, r) in history.reconcile.reconcilers where key.chain == .giftWraps {
            switch r.outcome {
            case .finished?: outcomes[key.relay] = .finished
            case .interrupted?: outcomes[key.relay] = .incomplete(.disconnected)
            case .fellBack?, nil: break
            }
        }
        return outcomes
    }

    /// An event on a history page counts toward that page (its pager decides what the next asks for).
    func historyPageEvent(_ relay: String, _ subscription: SyncSubscription, _ e: NostrEvent, matches: Bool) {
        guard case .history(let chain, _, _) = subscription else { return }
        let key = HistoryKey(relay: relay, chain: chain)
        guard let page = history.pagers[key]?.page, subscription == history.subscription(key, page) else { return }
        if outbox.publishedHere.contains(e.id.hex) { return }
        history.pagers[key]?.received(id: e.id.hex, createdAt: e.createdAt, matchesFilter: matches, page: page.number)
    }

    func relayStatusChanged(_ snapshot: RelaySnapshot) async {
        history.relayStatus[snapshot.url] = snapshot.status
        if let started = history.awaitingRetry[snapshot.url] {
            if snapshot.status == .connecting {
                history.awaitingRetry[snapshot.url] = true
            } else if started, snapshot.status == .failed || snapshot.status == .disabled {
                history.awaitingRetry[snapshot.url] = nil
                await historyIncomplete(snapshot.url, .disconnected)
            }
        }
        // A read-only relay (it refused our writes) is still connected and still read: its history goes on.
        guard !snapshot.status.isReadable else { return await checkBackfillComplete() }
        await reconcileDisconnected(snapshot.url)
        let paging = history.pagers.keys.filter { $0.relay == snapshot.url }
        for key in paging.sorted(by: { "\($0.chain)" < "\($1.chain)" }) {
            if let page = history.pagers[key]?.page { await pageEnded(key, history.subscription(key, page), .disconnected) }
        }
        await checkBackfillComplete()
    }

    /// What a chain's history is, paged or reconciled: gift wraps to us, our private preferences.
    func historyFilter(_ chain: SyncSubscription.HistoryChain) -> Filter {
        switch chain {
        case .giftWraps: return Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [me]])
        case .preferences: return Filter(authors: [me], kinds: [PrivatePreference.kind])
        case .profiles(let part): return profileHistoryFilter(part)
        }
    }

    private func filter(_ key: HistoryKey, _ page: HistoryPager.Page) -> Filter {
        var filter = historyFilter(key.chain)
        filter.until = page.wireUntil
        filter.limit = page.limit
        return filter
    }

    /// On every (re)connect the relay's history chains start again from their newest events (wire 2026
    /// §6): what a disconnect cut short is read again; what was read already costs no decryption.
    func restartHistory(_ relay: String) async {
        if history.relayIndex[relay] == nil { history.relayIndex[relay] = history.relayIndex.count }
        history.awaitingRetry[relay] = nil
        let reconcile = await shouldReconcile(relay)
        for chain in SyncSubscription.HistoryChain.own {
            if reconcile {
                let key = HistoryKey(relay: relay, chain: chain)
                if let page = history.pagers[key]?.page { await carryOut([.close(page)], key) }
                history.pagers[key] = nil
                await startReconcile(key)
            } else {
                await startPaging(relay, chain)
            }
        }
        await startProfileHistory(relay)
    }

    /// (Re)starts one chain's pages from the newest events.
    func startPaging(_ relay: String, _ chain: SyncSubscription.HistoryChain) async {
        let key = HistoryKey(relay: relay, chain: chain)
        let limits = profilePageLimits(chain) ?? .history
        // The relay's limit is asked first; the pager is made and started with nothing awaited between
        // (a chain restarted meanwhile finds it there, not a second one made over it).
        let relayLimit = history.pagers[key] == nil ? await pool.effectiveLimit(limits.max, relay) : nil
        if history.pagers[key] == nil { history.pagers[key] = HistoryPager(relayLimit: relayLimit, limits: limits) }
        guard let actions = history.pagers[key]?.start() else { return }
        await carryOut(actions, key)
    }

    /// Closes a chain's running page and forgets the chain (a profiles part that was replaced).
    func abandonPaging(_ key: HistoryKey) async {
        if let page = history.pagers[key]?.page { await carryOut([.close(page)], key) }
        history.pagers[key] = nil
    }

    /// A page ends on EOSE, CLOSED, a disconnect or its deadline; the chain's pager decides what follows.
    func pageEnded(_ key: HistoryKey, _ subscription: SyncSubscription, _ end: HistoryPager.PageEnd) async {
        guard let page = history.pagers[key]?.page, subscription == history.subscription(key, page),
              let actions = history.pagers[key]?.ended(end, page: page.number) else { return }
        await carryOut(actions, key)
    }

    /// Carries out what a pager decided: first every change of the engine's state (timers, the chain
    /// cut short, what is said), with nothing awaited, so no other call finds them half made; then the
    /// I/O and the follow-ups, in the pager's order.
    private func carryOut(_ actions: [HistoryPager.Action], _ key: HistoryKey) async {
        let relay = key.relay
        for action in actions {
            switch action {
            case .close:
                history.pageTimers[key]?.cancel()
                history.pageTimers[key] = nil
            case .requestLater(let page, let wait, let reason):
                // The page stays running (the history unsettled) while it waits; a reconnect or stop
                // cancels the wait with the page's timer.
                log.info("history page refused; asking again", metadata: ["relay": "\(relay)", "chain": "\(key.chain)",
                                                                         "reason": "\(RelayStatusMessage(reason).prefix?.rawValue ?? "none")"])
                let note = "history page refused (\(DisplayText.singleLine(reason).prefix(80))); asking again in \(wait.components.seconds) s"
                updateSink.yield(.notice(relay: relay, note))
                if key.chain == .giftWraps { updateSink.yield(.historyChanged(relay: relay, note: note)) }
                startPageTimer(key, after: wait) { engine in await engine.requestIfStillRunning(page, key) }
            case .settled(.incomplete(.disconnected)) where key.chain.isOwn:
                // The pool reconnects by itself: the chain starts again then; said only if that fails.
                history.awaitingRetry[relay] = false
            case .settled(let outcome) where key.chain == .giftWraps:
                updateSink.yield(.historyChanged(relay: relay, note: outcome == .finished ? nil : "history " + outcome.words))
            case .request, .settled:
                break
            }
        }
        for action in actions {
            switch action {
            case .close(let page):
                await unsubscribe(history.subscription(key, page), relays: [relay])
                // The next page is asked for while this one is still opened and stored (the ingest worker);
                // `enqueue` holds the consumer once a few batches wait, which bounds memory.
            case .request(let page):
                await request(page, key)
            case .requestLater:
                break
            case .settled(let outcome) where !key.chain.isOwn:
                log.debug("profiles read", metadata: ["relay": "\(relay)", "chain": "\(key.chain)", "outcome": "\(outcome)"])
                if outcome == .incomplete(.disconnected) { profileHistoryInterrupted(relay) } else { await profilePartSettled(key) }
            case .settled(.incomplete(.disconnected)):
                break
            case .settled(let outcome):
                if case .incomplete(let why) = outcome { await historyIncomplete(relay, why) } else {
                    log.debug("history finished", metadata: ["relay": "\(relay)", "chain": "\(key.chain)"])
                    await checkBackfillComplete()
                }
                // Seeding and uploading wait for the stored preferences (wire 2026 §3.5).
                if key.chain == .preferences { preferencesHistoryAnswered() }
            }
        }
    }

    private func startPageTimer(_ key: HistoryKey, after wait: Duration, _ then: @escaping @Sendable (SyncEngine) async -> Void) {
        history.pageTimers[key]?.cancel()
        let sleep = self.sleep
        history.pageTimers[key] = tasks.start { [weak self] in
            await sleep(wait)
            guard !Task.isCancelled, let self else { return }
            await then(self)
        }
    }

    private func request(_ page: HistoryPager.Page, _ key: HistoryKey) async {
        let subscription = history.subscription(key, page)
        stats.backfillPages += key.chain == .giftWraps ? 1 : 0
        log.debug("history page", metadata: ["relay": "\(key.relay)", "chain": "\(key.chain)", "page": "\(page.number)", "limit": "\(page.limit)"])
        await subscribe(subscription, [filter(key, page)], relays: [key.relay])
        startPageDeadline(key, subscription)
    }

    /// A page times out when it brings nothing for `pageDeadline`, not when it takes longer: a page grown
    /// to 4 000 wraps on a slow link may take more than 15 s and is still coming.
    private func startPageDeadline(_ key: HistoryKey, _ subscription: SyncSubscription) {
        let seen = history.pagers[key]?.eventsReceived ?? 0
        startPageTimer(key, after: Self.pageDeadline) { engine in await engine.pageDeadlinePassed(key, subscription, seen: seen) }
    }

    private func pageDeadlinePassed(_ key: HistoryKey, _ subscription: SyncSubscription, seen: Int) async {
        guard let page = history.pagers[key]?.page, subscription == history.subscription(key, page) else { return }
        if history.pagers[key]?.eventsReceived != seen { return startPageDeadline(key, subscription) }
        await pageEnded(key, subscription, .timedOut)
    }

    /// A refused page asked again after its wait, unless the chain moved on (restarted or stopped).
    private func requestIfStillRunning(_ page: HistoryPager.Page, _ key: HistoryKey) async {
        guard history.pagers[key]?.page == page else { return }
        await request(page, key)
    }

    private func historyIncomplete(_ relay: String, _ why: HistoryPager.Incomplete) async {
        log.info("history incomplete", metadata: ["relay": "\(relay)", "why": "\(why)"])
        updateSink.yield(.notice(relay: relay, "couldn't finish loading relay history. reconnect to try again."))
        await checkBackfillComplete()
    }

    func checkBackfillComplete() async {
        guard history.settled else { return }
        // Complete means stored: history still being opened is ingested first (and while restoring).
        await flush()
        guard history.settled else { return }
        if !history.completedOnce {
            history.completedOnce = true
            if history.restoring {
                history.restoring = false
                write("the restored-history mark") { try store.setHistoryRestored() }
            }
            updateSink.yield(.backfillComplete)
        }
        release(.backfill)
    }
}
