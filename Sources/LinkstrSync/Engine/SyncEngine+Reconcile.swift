import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Each relay's NIP-77 sync of our gift wraps (`HistoryReconciler`, pure), its timers and open fetches.
struct ReconcileState {
    var reconcilers: [String: HistoryReconciler] = [:]
    /// The answer's deadline while negotiating, per relay.
    var answerTimers: [String: Task<Void, Never>] = [:]
    var fetchTimers: [String: [Int: Task<Void, Never>]] = [:]
    /// Off for a run that must page (`SyncEngine.setNegentropy`).
    var enabled = true
}

/// History by NIP-77 where a relay speaks it: what we lack is fetched by id; a relay that refuses,
/// stalls or lies is paged instead (`+History`) and remembered for `negentropyRetryAfter`.
extension SyncEngine {
    /// A relay that refused NIP-77 is paged for this long before it is offered NIP-77 again.
    static let negentropyRetryAfter: Int64 = 7 * 86_400
    /// How long a relay has to answer NEG-OPEN (one that ignores it costs this once, then is remembered).
    static let negentropyFirstAnswer: Duration = .seconds(3)

    /// Pages every relay's history, never NIP-77 (the benchmark's comparison; the paging tests).
    public func setNegentropy(enabled: Bool) { history.reconcile.enabled = enabled }

    /// Whether this relay's gift-wrap history is reconciled rather than paged.
    func shouldReconcile(_ relay: String) async -> Bool {
        guard history.reconcile.enabled, await pool.negentropy.advertised(relay) != false else { return false }
        guard let refused = read("a relay's NIP-77 refusal", { try store.negentropyRefusedAt(relay) }) else { return false }
        return refused.map { clock() - $0 >= Self.negentropyRetryAfter } ?? true
    }

    /// Starts (again) the relay's sync against the wraps we have processed.
    func startReconcile(_ relay: String) async {
        guard let local = read("the processed wraps", { try store.negentropySet() }) else { return await fallBackToPaging(relay, nil) }
        let batch = await pool.effectiveLimit(Self.pageSize, relay)
        let firstBatch = history.reconcile.reconcilers[relay]?.nextBatch ?? 0
        await closeReconcile(relay)
        var reconciler = HistoryReconciler(local: local, batchSize: batch, now: clock(), firstBatch: firstBatch)
        let actions = reconciler.start()
        history.reconcile.reconcilers[relay] = reconciler
        log.debug("NIP-77 sync", metadata: ["relay": "\(relay)", "local": "\(local.count)"])
        await carryOut(actions, relay)
    }

    func reconcileAnswered(_ relay: String, _ subscription: String, _ answer: NegentropyAnswer) async {
        guard subscription == reconcileID(relay).id, var r = history.reconcile.reconcilers[relay] else { return }
        let actions: [HistoryReconciler.Action]
        switch answer {
        case .message(let hex): actions = r.answered(hex)
        case .refused(let reason): actions = r.refused(reason.raw)
        }
        history.reconcile.reconcilers[relay] = r
        await carryOut(actions, relay)
    }

    /// A NOTICE while the first answer is awaited: relays without NIP-77 say so this way (or not at all).
    func reconcileNoticed(_ relay: String, _ text: String) async {
        guard let r = history.reconcile.reconcilers[relay], r.isNegotiating, r.rounds == 1 else { return }
        await reconcileRefused(relay, text)
    }

    /// NEG-ERR's equivalent from a relay that answers the sync's id with CLOSED (or a NOTICE, above).
    func reconcileRefused(_ relay: String, _ reason: String) async {
        guard var r = history.reconcile.reconcilers[relay] else { return }
        let actions = r.refused(reason)
        history.reconcile.reconcilers[relay] = r
        await carryOut(actions, relay)
    }

    /// A fetch by id ended: with EOSE (`failed` nil), or refused or past its deadline (then paged instead).
    func reconcileFetchEnded(_ relay: String, batch: Int, failed: String? = nil) async {
        history.reconcile.fetchTimers[relay]?.removeValue(forKey: batch)?.cancel()
        await unsubscribe(reconcileFetchID(relay, batch), relays: [relay])
        guard var r = history.reconcile.reconcilers[relay] else { return }
        let actions = failed.map { r.fetchFailed(batch: batch, $0) } ?? r.fetchEnded(batch: batch)
        history.reconcile.reconcilers[relay] = r
        await carryOut(actions, relay)
    }

    /// The connection went: the sync is over (it starts again on the next `ready`). Its fetches are
    /// unsubscribed, or the pool would send them again on the reconnect.
    func reconcileDisconnected(_ relay: String) async {
        guard var r = history.reconcile.reconcilers[relay], r.isRunning else { return }
        r.disconnected()
        history.reconcile.reconcilers[relay] = r
        await closeFetches(relay)
        history.awaitingRetry[relay] = false
    }

    private func carryOut(_ actions: [HistoryReconciler.Action], _ relay: String) async {
        let id = reconcileID(relay).id
        for action in actions {
            switch action {
            case .open(let message):
                let filter = Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [me]])
                guard await pool.negentropy.open(id, filter, message, relay) else { return await reconcileDisconnected(relay) }
                startAnswerTimer(relay, Self.negentropyFirstAnswer)
            case .send(let message):
                guard await pool.negentropy.send(id, message, relay) else { return await reconcileDisconnected(relay) }
                startAnswerTimer(relay, Self.pageDeadline)
            case .close:
                history.reconcile.answerTimers.removeValue(forKey: relay)?.cancel()
                await pool.negentropy.close(id, relay)
            case .fetch(let batch, let ids):
                let filter = Filter(ids: ids, kinds: [NIP59.giftWrapKind], tags: ["p": [me]], limit: ids.count)
                await subscribe(reconcileFetchID(relay, batch), [filter], relays: [relay])
                let sleep = self.sleep
                history.reconcile.fetchTimers[relay, default: [:]][batch] = Task { [weak self] in
                    await sleep(Self.pageDeadline)
                    guard !Task.isCancelled else { return }
                    await self?.reconcileFetchEnded(relay, batch: batch, failed: "no answer in \(Self.pageDeadline.components.seconds) s")
                }
            case .finished:
                let r = history.reconcile.reconcilers[relay]
                stats.reconciledRelays += 1
                stats.reconcileRounds += r?.rounds ?? 0
                stats.reconcileBytes += (r?.bytesSent ?? 0) + (r?.bytesReceived ?? 0)
                stats.reconcileNeeded += r?.neededCount ?? 0
                log.debug("NIP-77 sync finished", metadata: ["relay": "\(relay)", "rounds": "\(r?.rounds ?? 0)", "needed": "\(r?.neededCount ?? 0)"])
                updateSink.yield(.historyChanged(relay: relay, note: nil))
                await checkBackfillComplete()
            case .fallBack(let why):
                await fallBackToPaging(relay, why)
            }
        }
    }

    /// Pages the relay's gift-wrap history instead; a refusal is remembered (not a disconnect).
    private func fallBackToPaging(_ relay: String, _ why: HistoryReconciler.FallBack?) async {
        await closeFetches(relay)
        stats.reconcileFallbacks += 1
        if let why {
            stats.lastReconcileFallback = why.words
            log.info("NIP-77 not used; paging", metadata: ["relay": "\(relay)", "why": "\(why.words)"])
            if why.remembered { write("a relay's NIP-77 refusal") { try store.setNegentropyRefused(relay, at: clock()) } }
        }
        await startPaging(relay, .giftWraps)
    }

    private func closeReconcile(_ relay: String) async {
        await closeFetches(relay)
        history.reconcile.reconcilers[relay] = nil
    }

    /// The answer's timer, and every fetch still open with its timer.
    private func closeFetches(_ relay: String) async {
        history.reconcile.answerTimers.removeValue(forKey: relay)?.cancel()
        let open = history.reconcile.fetchTimers.removeValue(forKey: relay) ?? [:]
        for (batch, timer) in open.sorted(by: { $0.key < $1.key }) {
            timer.cancel()
            await unsubscribe(reconcileFetchID(relay, batch), relays: [relay])
        }
    }

    private func startAnswerTimer(_ relay: String, _ wait: Duration) {
        history.reconcile.answerTimers[relay]?.cancel()
        let sleep = self.sleep
        history.reconcile.answerTimers[relay] = Task { [weak self] in
            await sleep(wait)
            guard !Task.isCancelled, let self else { return }
            await self.reconcileTimedOut(relay)
        }
    }

    private func reconcileTimedOut(_ relay: String) async {
        guard var r = history.reconcile.reconcilers[relay] else { return }
        let actions = r.timedOut()
        history.reconcile.reconcilers[relay] = r
        await carryOut(actions, relay)
    }

    func reconcileID(_ relay: String) -> SyncSubscription { .reconcile(relay: history.relayIndex[relay] ?? 0) }
    func reconcileFetchID(_ relay: String, _ batch: Int) -> SyncSubscription { .reconcileFetch(relay: history.relayIndex[relay] ?? 0, batch: batch) }
}
