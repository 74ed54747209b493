import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Inbox deliveries under way (each a task of its own, reporting on its own).
struct OutboxState {
    var deliveries: [Int: Task<Void, Never>] = [:]
    var nextDelivery = 0
}

/// Sending: the user's actions sealed and published as one batch, applied locally once accepted; plain
/// and best-effort publishes; our kind 10050; best-effort delivery to recipients' own inbox relays.
extension SyncEngine {
    /// How long a publish waits for the relays' OKs.
    public static let publishTimeout: Duration = .seconds(8)

    public struct SentRumor: Sendable, Equatable {
        public let rumorID: String
        public let wrapIDs: [String]
    }

    /// One user action: wraps every rumor to each of its recipients (ourselves included), publishes all
    /// of them as one batch, and only after every wrap was accepted applies them locally. Returns then:
    /// delivery to the recipients' own inbox relays goes on beside it (`inboxDelivery` on `updates`).
    public func send(_ rumors: [OutboundRumor]) async throws -> [SentRumor] {
        if let error = await pool.untilWritable() { throw error }
        let now = clock()
        let batch = try OutboxBatch.seal(rumors, identity: identity, now: now, random: random, cache: keyCache)
        switch await pool.publish(batch.wraps, Self.publishTimeout, false) {
        case .failure(let error): throw error
        case .success: break
        }
        log.info("sent", metadata: ["rumors": "\(rumors.count)", "wraps": "\(batch.wraps.count)"])
        // Our self-copies will come back from the relays: mark them processed so they are never opened.
        // The caller's use case answers for it: no `ingested` update here, so one action has one answer.
        _ = try store.ingest(batch.localMessages, processedWraps: batch.wraps.map { $0.id.hex }, now: now)
        try store.markSent(batch.startedPosts)
        scheduleProfileRefresh()  // a new session or member list may name people we have not asked about
        startInboxDelivery(batch.wrapsByRecipient)
        return batch.sent
    }

    /// Beyond iOS: each recipient's wraps also go to their own inbox relays (kind 10050, else their NIP-65
    /// read relays) that are not among ours, so people who read elsewhere still receive them. Best effort,
    /// concurrent, bounded in time (name resolution included), and off the send's path: the post already
    /// counts as sent.
    private func startInboxDelivery(_ wrapsByRecipient: [Pubkey: [NostrEvent]]) {
        outbox.nextDelivery += 1
        let n = outbox.nextDelivery
        outbox.deliveries[n] = Task { [weak self] in
            await self?.deliverToInboxes(wrapsByRecipient)
            await self?.deliveryEnded(n)
        }
    }

    private func deliveryEnded(_ n: Int) { outbox.deliveries[n] = nil }

    /// Inbox deliveries still running.
    public var deliveriesUnderWay: Int { outbox.deliveries.count }

    /// Waits for the inbox deliveries under way (each ends within its own deadline).
    public func finishDeliveries() async {
        for task in outbox.deliveries.values { await task.value }
    }

    func cancelDeliveries() {
        for task in outbox.deliveries.values { task.cancel() }
        outbox.deliveries = [:]
    }

    private func deliverToInboxes(_ wrapsByRecipient: [Pubkey: [NostrEvent]]) async {
        let ours = Set(await pool.snapshots().map(\.url))
        var lists = [Pubkey: (inbox: [String]?, read: [String]?)]()
        for recipient in wrapsByRecipient.keys {
            // A list that cannot be read gives that recipient no extra relays (and is reported).
            lists[recipient] = (read("a recipient's inbox relays", { try store.relayList(recipient, kind: InboxRelayRule.inboxKind) }) ?? nil,
                                read("a recipient's relay list", { try store.relayList(recipient, kind: InboxRelayRule.relayListKind) }) ?? nil)
        }
        let plan = OutboxBatch.deliveryPlan(wrapsByRecipient, ours: ours) { lists[$0] ?? (nil, nil) }
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
        updateSink.yield(.inboxDelivery(reports.sorted { $0.relay < $1.relay }))
    }

    /// Signs and publishes a plain event (kind 0, 3, 5, 62, 10050) with send gating.
    public func publish(_ template: UnsignedEventTemplate) async throws -> NostrEvent {
        if let error = await pool.untilWritable() { throw error }
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event], Self.publishTimeout, false) {
        case .failure(let error): throw error
        case .success: return event
        }
    }

    /// A best-effort step (a NIP-09 deletion request): signed and sent to every connected writable relay,
    /// waiting for each answer (bounded), never throwing. Returns what each relay that did not accept said.
    public func publishBestEffort(_ template: UnsignedEventTemplate, timeout: Duration = .seconds(8)) async -> BestEffortReport {
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event], timeout, true) {
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
        do { _ = try await publish(NostrEventTemplates.inboxRelays(relays, now: clock())) } catch { return false }
        write("the published inbox relays") { try store.setSetting(.inboxPublished, published) }
        return true
    }
}
