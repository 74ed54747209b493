import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Inbox deliveries under way (each a task of its own, reporting on its own), and their budget.
struct OutboxState {
    var deliveries: [Int: Task<Void, Never>] = [:]
    var nextDelivery = 0
    var budget = DeliveryRelayChoice.Budget.standard
    /// Wraps this engine published: a history being paged meanwhile does not count them (they land at
    /// random seconds of the last two days, between its pages, and would read as a relay cutting pages).
    var publishedHere = Set<String>()

    mutating func published(_ events: [NostrEvent]) {
        if publishedHere.count > 200_000 { publishedHere.removeAll() }
        for e in events { publishedHere.insert(e.id.hex) }
    }
}

/// Honest delivery: after a send, each member's wraps go to a relay that member reads (their
/// 10050, else their NIP-65 read relays; `DeliveryRelayChoice` picks, within a budget of connections),
/// and what became of each member's copy is recorded (`MemberDelivery`): delivered only when such a
/// relay accepted it. A relay that refuses or does not answer is replaced by the member's next one while
/// the budget lasts. Off the send's path: the iOS rule (our relays accepted it) still decides "sent".
extension SyncEngine {
    /// How many relays a send may dial beyond ours, and per member (tests and the benchmark change it).
    public func setDeliveryBudget(_ budget: DeliveryRelayChoice.Budget) { outbox.budget = budget }

    func startInboxDelivery(_ batch: OutboxBatch, receipt: PublishReceipt) {
        let wraps = batch.wrapsByRecipient
        guard !wraps.isEmpty else { return }
        var rumorOfWrap = [String: String]()
        for sent in batch.sent { for id in sent.wrapIDs { rumorOfWrap[id] = sent.rumorID } }
        let rumorsOf = wraps.mapValues { $0.compactMap { rumorOfWrap[$0.id.hex] } }
        let now = clock()
        let accepted = Self.acceptedOn(wraps, receipt)
        write("the deliveries under way") {
            try store.recordDeliveries(rumorsOf.mapValues { ($0, MemberDelivery.pending) }, acceptedOn: accepted.mapValues { Array($0) }, now: now)
        }
        outbox.nextDelivery += 1
        let n = outbox.nextDelivery
        outbox.deliveries[n] = tasks.start { [weak self] in
            await self?.deliverToInboxes(wraps, rumorsOf: rumorsOf, receipt: receipt)
            await self?.deliveryEnded(n)
        }
    }

    private func deliveryEnded(_ n: Int) { outbox.deliveries[n] = nil }

    /// Inbox deliveries still running.
    public var deliveriesUnderWay: Int { outbox.deliveries.count }

    /// Waits for the inbox deliveries under way (each ends within its own deadlines).
    public func finishDeliveries() async {
        for task in outbox.deliveries.values { await task.value }
    }

    func cancelDeliveries() {
        for task in outbox.deliveries.values { task.cancel() }
        outbox.deliveries = [:]
    }

    /// What we know of where `member` reads.
    /// (Unreadable: no list, and said in the log.)
    func deliveryRecipient(_ member: Pubkey) -> DeliveryRelayChoice.Recipient {
        read("a member's relay lists") { try store.deliveryRecipient(member) } ?? DeliveryRelayChoice.Recipient(pubkey: member)
    }

    /// The relays we blocked (unreadable: none, and said in the log).
    func blockedRelaySet() -> Set<String> { read("the blocked relays") { try store.blockedRelays() } ?? [] }

    /// For each member, the relays whose own OK is known for every copy of theirs (our publish returns
    /// at the first acceptance, so later ones may be missing: never more than what was said).
    static func acceptedOn(_ wraps: [Pubkey: [NostrEvent]], _ receipt: PublishReceipt) -> [Pubkey: Set<String>] {
        wraps.mapValues { mine in
            guard let first = mine.first else { return [] }
            return Set(receipt.acceptedBy[first.id] ?? []).filter { relay in mine.allSatisfy { receipt.acceptedBy[$0.id]?.contains(relay) == true } }
        }
    }

    private func deliverToInboxes(_ wraps: [Pubkey: [NostrEvent]], rumorsOf: [Pubkey: [String]], receipt: PublishReceipt) async {
        // Members with no list at all are looked up first (bounded); a stale list is used as it is and
        // refreshed after the history (`refreshStaleRelayLists`), never on the send's way.
        var recipients = wraps.keys.sorted().map(deliveryRecipient)
        let missing = recipients.filter { $0.inbox == nil && $0.readRelays == nil }.map(\.pubkey)
        if !missing.isEmpty {
            await discoverRelayLists(for: missing, onlyMissingOrStale: true)
            recipients = recipients.map { $0.inbox == nil && $0.readRelays == nil ? deliveryRecipient($0.pubkey) : $0 }
        }
        let budget = outbox.budget, now = clock()
        let ours = Set(await pool.snapshots().filter(\.enabled).map(\.url))
        let blocked = blockedRelaySet()
        var configured = self.delivery
        configured.isBlocked = { blocked.contains($0) }
        let delivery = configured
        var outcomes = [Pubkey: MemberDelivery](), failures = [Pubkey: [(relay: String, why: String)]]()
        var waiting = Set(wraps.keys), excluded = blocked, connections = 0
        var reports = [InboxDelivery.Report]()
        var acceptedOn = Self.acceptedOn(wraps, receipt)
        func failed(_ m: Pubkey, otherwise: String) -> MemberDelivery {
            guard let tried = failures[m], !tried.isEmpty else { return .notDelivered(why: otherwise) }
            return .notDelivered(why: tried.map { "\($0.relay): \($0.why)" }.joined(separator: "; "))
        }
        for _ in 0..<max(1, budget.perRecipient) where !waiting.isEmpty && !Task.isCancelled {
            var roundBudget = budget
            roundBudget.extraConnections = max(0, budget.extraConnections - connections)
            let plan = DeliveryRelayChoice.plan(recipients.filter { waiting.contains($0.pubkey) }, ours: ours, blocked: excluded,
                                                budget: roundBudget, now: now)
            for (member, reason) in plan.unreached {
                waiting.remove(member)
                outcomes[member] = reason == .noList ? .sharedOnly : failed(member, otherwise: MemberDelivery.words(reason))
            }
            var dial = [String: [Pubkey]]()
            for (member, relay) in plan.onOurs {
                // Our publish returns at the first acceptance: only a relay's own OK counts for this member.
                if wraps[member, default: []].allSatisfy({ receipt.acceptedBy[$0.id]?.contains(relay) == true }) {
                    outcomes[member] = .inbox(relay: relay)
                    waiting.remove(member)
                } else {
                    dial[relay, default: []].append(member)
                }
            }
            for (relay, members) in plan.extra { dial[relay, default: []] += members }
            guard !dial.isEmpty else { break }
            connections += dial.count
            let calls = dial.keys.sorted().map { relay in (relay, dial[relay, default: []].sorted().flatMap { wraps[$0] ?? [] }) }
            let round = await Concurrently.map(calls) { relay, events in await delivery.deliver(events, to: relay) }
            for report in round {
                reports.append(report)
                excluded.insert(report.relay)  // tried: the next round looks elsewhere
                for member in dial[report.relay] ?? [] {
                    let mine = wraps[member, default: []]
                    if mine.allSatisfy({ report.acceptedIDs.contains($0.id.hex) }) {
                        acceptedOn[member, default: []].insert(report.relay)
                        outcomes[member] = .inbox(relay: report.relay)
                        waiting.remove(member)
                    } else {
                        let why = mine.compactMap { report.refusals[$0.id.hex] }.first ?? report.error ?? "refused"
                        failures[member, default: []].append((report.relay, why))
                    }
                }
            }
        }
        for member in waiting { outcomes[member] = failed(member, otherwise: MemberDelivery.words(.overBudget)) }
        stats.extraConnections += connections
        for report in reports {
            stats.inboxDelivered += report.accepted
            stats.inboxUndelivered += report.refusals.count
            if let error = report.error { updateSink.yield(.notice(relay: report.relay, "inbox delivery: \(error)")) }
        }
        let at = clock()
        write("the deliveries") {
            try store.recordDeliveries(Dictionary(uniqueKeysWithValues: outcomes.map { ($0.key, (rumorsOf[$0.key] ?? [], $0.value)) }),
                                       acceptedOn: acceptedOn.mapValues { Array($0) }, now: at)
        }
        log.info("delivered", metadata: ["members": "\(wraps.count)", "inbox": "\(outcomes.values.filter(\.isDelivered).count)",
                                         "connections": "\(connections)"])
        updateSink.yield(.inboxDelivery(reports.sorted { $0.relay < $1.relay }))
        updateSink.yield(.deliveriesRecorded(Array(Set(rumorsOf.values.joined())).sorted()))
    }
}
