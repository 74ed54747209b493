import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

/// Each relay's NIP-77 sync of each history chain (`HistoryReconciler`, pure), its timers and open fetches.
struct ReconcileState {
    var reconcilers: [HistoryKey: HistoryReconciler] = [:]
    /// The answer's deadline while negotiating, per chain.
    var answerTimers: [HistoryKey: Task<Void, Never>] = [:]
    var fetchTimers: [HistoryKey: [Int: Task<Void, Never>]] = [:]
    /// Off for a run that must page (`SyncEngine.setNegentropy`).
    var enabled = true
}

/// History by NIP-77 where a relay speaks it, for both chains (our gift wraps, our private preferences):
/// what we lack is fetched by id; a relay that refuses, stalls or lies is paged instead (`+History`) and
/// remembered for `negentropyRetryAfter` (per relay: a refusal of either chain pages both next time).
extension SyncEngine {
    /// A relay that refused NIP-77 is paged for this long before it is offered NIP-77 again.
    static let negentropyRetryAfter: Int64 = 7 * 86_400
    /// How long a relay has to answer NEG-OPEN (one that ignores it costs this once, then is remembered).
    static let negentropyFirstAnswer: Duration = .seconds(3)

    /// Pages every relay's history, never NIP-77 (the benchmark's comparison; the paging tests).
    public func setNegentropy(enabled: Bool) { history.reconcile.enabled = enabled }

    /// Whether this relay's history is reconciled rather than paged.
    func shouldReconcile(_ relay: String) async -> Bool {
        guard history.reconcile.enabled, await pool.negentropy.advertised(relay) != false else { return false }
        guard let refused = read("a relay's NIP-77 refusal", { try store.negentropyRefusedAt(relay) }) else { return false }
        return refused.map { clock() - $0 >= Self.negentropyRetryAfter } ?? true
    }

    /// Starts (again) the chain's sync against what we hold: the wraps we processed, or the stored
    /// private preferences.
    func startReconcile(_ key: HistoryKey) async {
        let local: NegentropyStorage?
        switch key.chain {
        case .giftWraps: local = read("the processed wraps", { try store.negentropySet() })
        case .preferences: local = read("the stored private preferences", { try store.preferenceNegentropySet() })
        case .profiles(let part): local = read("the stored profiles", { try store.profileNegentropySet(profiles.parts[part] ?? []) })
        }
        guard let local else { return await fallBackToPaging(key, nil) }
        let batch = await pool.effectiveLimit(Self.pageSize, key.relay)
        let firstBatch = history.reconcile.reconcilers[key]?.nextBatch ?? 0
        await closeReconcile(key)
        var reconciler = HistoryReconciler(local: local, batchSize: batch, now: clock(), firstBatch: firstBatch, keepingHave: !key.chain.isOwn)
        let actions = reconciler.start()
        history.reconcile.reconcilers[key] = reconciler
        log.debug("NIP-77 sync", metadata: ["relay": "\(key.relay)", "chain": "\(key.chain)", "local": "\(local.count)"])
        await carryOut(actions, key)
    }

    func reconcileAnswered(_ relay: String, _ subscription: String, _ answer: NegentropyAnswer) async {
        guard case .reconcile(let chain, _)? = self.subscription(subscription) else { return }
        let key = HistoryKey(relay: relay, chain: chain)
        guard subscription == reconcileID(key).id, var r = history.reconcile.reconcilers[key] else { return }
        let actions: [HistoryReconciler.Action]
        switch answer {
        case .message(let hex):
            // Its time is the relay's to spend only up to the reconciler's budget.
            let started = time.monotonic()
            actions = r.answered(hex)
            r.spent(time.monotonic() - started)
        case .refused(let reason): actions = r.refused(reason.raw)
        }
        history.reconcile.reconcilers[key] = r
        await carryOut(actions, key)
    }

    /// A NOTICE while the first answer is awaited: relays without NIP-77 say so this way (or not at all).
    /// A NOTICE names no sync, so it stands for every chain still awaiting its first answer there.
    func reconcileNoticed(_ relay: String, _ text: String) async {
        for key in reconcilerKeys(relay) {
            guard let r = history.reconcile.reconcilers[key], r.isNegotiating, r.rounds == 1 else { continue }
            await reconcileRefused(key, text)
        }
    }

    /// NEG-ERR's equivalent from a relay that answers the sync's id with CLOSED (or a NOTICE, above).
    func reconcileRefused(_ key: HistoryKey, _ reason: String) async {
        guard var r = history.reconcile.reconcilers[key] else { return }
        let actions = r.refused(reason)
        history.reconcile.reconcilers[key] = r
        await carryOut(actions, key)
    }

    /// An event of a fetch by id came: it is not missing.
    func reconcileDelivered(_ key: HistoryKey, batch: Int, _ e: NostrEvent) {
        history.reconcile.reconcilers[key]?.delivered(batch: batch, e.id.raw)
    }

    /// A fetch by id ended: with EOSE (`failed` nil), or refused or past its deadline (then paged instead).
    func reconcileFetchEnded(_ key: HistoryKey, batch: Int, failed: String? = nil) async {
        history.reconcile.fetchTimers[key]?.removeValue(forKey: batch)?.cancel()
        await unsubscribe(reconcileFetchID(key, batch), relays: [key.relay])
        guard var r = history.reconcile.reconcilers[key] else { return }
        let actions = failed.map { r.fetchFailed(batch: batch, $0) } ?? r.fetchEnded(batch: batch)
        history.reconcile.reconcilers[key] = r
        await carryOut(actions, key)
    }

    /// The connection went: the relay's syncs are over (they start again on the next `ready`). Their
    /// fetches are unsubscribed, or the pool would send them again on the reconnect.
    func reconcileDisconnected(_ relay: String) async {
        for key in reconcilerKeys(relay) {
            guard var r = history.reconcile.reconcilers[key], r.isRunning else { continue }
            r.disconnected()
            history.reconcile.reconcilers[key] = r
            await closeFetches(key)
            // A profiles part is read again on the next connection; it never holds the backfill.
            if key.chain.isOwn { history.awaitingRetry[relay] = false } else { profileHistoryInterrupted(relay) }
        }
    }

    private func carryOut(_ actions: [HistoryReconciler.Action], _ key: HistoryKey) async {
        let relay = key.relay, id = reconcileID(key).id
        for action in actions {
            switch action {
            case .open(let message):
                guard await pool.negentropy.open(id, historyFilter(key.chain), message, relay) else { return await reconcileDisconnected(relay) }
                startAnswerTimer(key, Self.negentropyFirstAnswer)
            case .send(let message):
                guard await pool.negentropy.send(id, message, relay) else { return await reconcileDisconnected(relay) }
                startAnswerTimer(key, Self.pageDeadline)
            case .close:
                history.reconcile.answerTimers.removeValue(forKey: key)?.cancel()
                await pool.negentropy.close(id, relay)
            case .fetch(let batch, let ids):
                var filter = historyFilter(key.chain)
                filter.ids = ids
                filter.limit = ids.count
                await subscribe(reconcileFetchID(key, batch), [filter], relays: [relay])
                let sleep = self.sleep
                history.reconcile.fetchTimers[key, default: [:]][batch] = tasks.start { [weak self] in
                    await sleep(Self.pageDeadline)
                    guard !Task.isCancelled else { return }
                    await self?.reconcileFetchEnded(key, batch: batch, failed: "no answer in \(Self.pageDeadline.components.seconds) s")
                }
            case .finished:
                let r = history.reconcile.reconcilers[key]
                stats.reconciled(key.chain, r)
                log.debug("NIP-77 sync finished", metadata: ["relay": "\(relay)", "chain": "\(key.chain)", "rounds": "\(r?.rounds ?? 0)",
                                                           "needed": "\(r?.neededCount ?? 0)"])
                switch key.chain {
                case .giftWraps:
                    updateSink.yield(.historyChanged(relay: relay, note: nil))
                    await checkBackfillComplete()
                case .preferences:
                    await checkBackfillComplete()
                    // Seeding and uploading wait for the stored preferences (wire 2026 §3.5).
                    preferencesHistoryAnswered()
                case .profiles:
                    await profilePartSettled(key, r)
                }
            case .fallBack(let why):
                await fallBackToPaging(key, why)
            }
        }
    }

    /// A checked event we keep nothing of (`AccountStore+PassedOver`).
    func passOver(_ e: NostrEvent, _ scope: AccountStore.PassedOverScope) {
        write("an event passed over") { try store.passOver(e.id.hex, createdAt: e.createdAt, scope: scope) }
    }

    /// Pages the chain's history instead; a refusal is remembered (not a disconnect).
    private func fallBackToPaging(_ key: HistoryKey, _ why: HistoryReconciler.FallBack?) async {
        await closeFetches(key)
        stats.fellBack(key.chain, why)
        if let why {
            log.info("NIP-77 not used; paging", metadata: ["relay": "\(key.relay)", "chain": "\(key.chain)", "why": "\(why.words)"])
            // Remembered from the account's own chains only: a relay that refuses a profiles part (a filter
            // of 250 authors) may still reconcile our gift wraps, which are what a week of paging costs.
            if why.remembered && key.chain.isOwn { write("a relay's NIP-77 refusal") { try store.setNegentropyRefused(key.relay, at: clock()) } }
        }
        await startPaging(key.relay, key.chain)
    }

    /// Ends a chain's sync and forgets it (a profiles part that was replaced): NEG-CLOSE while it
    /// negotiates, its fetches closed.
    func abandonReconcile(_ key: HistoryKey) async {
        if history.reconcile.reconcilers[key]?.isNegotiating == true { await pool.negentropy.close(reconcileID(key).id, key.relay) }
        await closeReconcile(key)
    }

    /// The relay's chains with a sync, in a stable order.
    private func reconcilerKeys(_ relay: String) -> [HistoryKey] {
        history.reconcile.reconcilers.keys.filter { $0.relay == relay }.sorted { "\($0.chain)" < "\($1.chain)" }
    }

    private func closeReconcile(_ key: HistoryKey) async {
        await closeFetches(key)
        history.reconcile.reconcilers[key] = nil
    }

    /// The answer's timer, and every fetch still open with its timer.
    private func closeFetches(_ key: HistoryKey) async {
        history.reconcile.answerTimers.removeValue(forKey: key)?.cancel()
        let open = history.reconcile.fetchTimers.removeValue(forKey: key) ?? [:]
        for (batch, timer) in open.sorted(by: { $0.key < $1.key }) {
            timer.cancel()
            await unsubscribe(reconcileFetchID(key, batch), relays: [key.relay])
        }
    }

    private func startAnswerTimer(_ key: HistoryKey, _ wait: Duration) {
        history.reconcile.answerTimers[key]?.cancel()
        let sleep = self.sleep
        history.reconcile.answerTimers[key] = tasks.start { [weak self] in
            await sleep(wait)
            guard !Task.isCancelled, let self else { return }
            await self.reconcileTimedOut(key)
        }
    }

    private func reconcileTimedOut(_ key: HistoryKey) async {
        guard var r = history.reconcile.reconcilers[key] else { return }
        let actions = r.timedOut()
        history.reconcile.reconcilers[key] = r
        await carryOut(actions, key)
    }

    func reconcileID(_ key: HistoryKey) -> SyncSubscription { .reconcile(key.chain, relay: history.relayIndex[key.relay] ?? 0) }
    func reconcileFetchID(_ key: HistoryKey, _ batch: Int) -> SyncSubscription {
        .reconcileFetch(key.chain, relay: history.relayIndex[key.relay] ?? 0, batch: batch)
    }
}

extension SyncStats {
    /// A chain's NIP-77 sync finished: counted under its chain.
    mutating func reconciled(_ chain: SyncSubscription.HistoryChain, _ r: HistoryReconciler?) {
        let bytes = (r?.bytesSent ?? 0) + (r?.bytesReceived ?? 0)
        switch chain {
        case .giftWraps:
            reconciledRelays += 1
            reconcileRounds += r?.rounds ?? 0
            reconcileBytes += bytes
            reconcileNeeded += r?.neededCount ?? 0
        case .preferences:
            preferencesReconciled += 1
            preferencesReconcileBytes += bytes
            preferencesReconcileNeeded += r?.neededCount ?? 0
        case .profiles:
            profilesReconciled += 1
            profilesReconcileBytes += bytes
            profilesReconcileNeeded += r?.neededCount ?? 0
        }
    }

    /// A chain's NIP-77 sync gave way to paging (`why` nil: the local set could not be read).
    mutating func fellBack(_ chain: SyncSubscription.HistoryChain, _ why: HistoryReconciler.FallBack?) {
        switch chain {
        case .giftWraps: reconcileFallbacks += 1
        case .preferences: preferencesReconcileFallbacks += 1
        case .profiles: profilesReconcileFallbacks += 1
        }
        if let why { lastReconcileFallback = why.words }
    }
}
