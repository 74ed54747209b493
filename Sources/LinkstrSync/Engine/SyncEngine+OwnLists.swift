import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// What the own lists depend on beyond the store.
struct OwnListsState {
    /// The pool's relays are `--relay`'s, for this run only: nothing is published from them.
    var relaysOverridden = false
}

/// Our own lists: the inbox relays (kind 10050), the NIP-65 relay list (kind 10002) and the
/// blocked relays (kind 10006). Published when they changed, to our relays and, best effort, to the
/// indexers (where people who share no relay with us look); read back from our relays, newest wins.
extension SyncEngine {
    /// The relays we read gift wraps from: the ones chosen, else the enabled relays we use.
    func ownInboxRelays() async -> [String] {
        if let chosen = read("our chosen inbox relays", { try store.chosenInboxRelays() }) ?? nil, !chosen.isEmpty { return chosen }
        return await pool.snapshots().filter(\.enabled).map(\.url).sorted()
    }

    /// The pool's relays are `--relay`'s, for this run only: our kind 10002 and a kind 10050 of
    /// the relays we use would name them, announcing to the indexers a relay used once for a test. Nothing
    /// is published from them; a list chosen meanwhile goes out on the next run with our own relays.
    public func setRelaysOverridden(_ overridden: Bool) { ownLists.relaysOverridden = overridden }

    /// Our lists published now, after the user changed them (`relays inbox`, blocking an inbox relay): waits
    /// for a relay to take them as a send does (bounded), where the housekeeping above never waits.
    @discardableResult
    public func publishOwnListsNow() async -> Bool {
        guard await pool.untilWritable() == nil else { return false }
        await untilRelaysSettle()
        return await publishOwnListsIfChanged()
    }

    /// Every enabled relay connected or given up on, for at most `limit`: a list sent while one is still
    /// connecting never reaches it (the pool sends to the relays writable at that moment).
    func untilRelaysSettle(limit: Duration = .seconds(3)) async {
        let deadline = time.monotonic() + limit
        while time.monotonic() < deadline, await pool.snapshots().contains(where: { $0.enabled && $0.status == .connecting }) {
            await sleep(.milliseconds(50))
        }
    }

    /// NIP-17 and NIP-65: our kind 10050 names where we read gift wraps, our kind 10002 the relays we
    /// use. Each is published when it differs from what was last published, and only while a relay is
    /// connected (housekeeping: it never waits for a connection). True when something was published.
    @discardableResult
    public func publishOwnListsIfChanged() async -> Bool {
        guard !ownLists.relaysOverridden else { return false }
        let snapshots = await pool.snapshots()
        guard snapshots.contains(where: { $0.status == .connected }) else { return false }
        var published = [NostrEvent]()
        let inbox = await ownInboxRelays()
        let announced = inbox.joined(separator: " ")
        if !inbox.isEmpty, let current = read("the published inbox relays", { try store.setting(.inboxPublished) }), current != announced {
            do {
                // Replaceable: dated after the one it replaces, or a relay may keep the older of one second.
                let last = (read("when our inbox relays were published", { try store.setting(.inboxPublishedAt) }) ?? nil).flatMap { Int64($0) } ?? 0
                let event = try await publish(NostrEventTemplates.inboxRelays(inbox, now: max(clock(), last + 1)), everyRelay: true)
                published.append(event)
                write("the published inbox relays") {
                    try store.setSetting(.inboxPublished, announced)
                    try store.setSetting(.inboxPublishedAt, String(event.createdAt))
                }
            } catch {
                log.info("inbox relays not published", metadata: ["error": "\(type(of: error))"])
            }
        }
        let ours = snapshots.filter(\.enabled).map(\.url).sorted()
        if !ours.isEmpty, let current = read("our relay list", { try store.ownRelayList() }),
           let next = OwnRelayList.next(current: current, ours: ours, now: clock()) {
            do {
                let event = try await publish(next.template, everyRelay: true)
                write("our relay list") {
                    try store.setOwnRelayList(OwnRelayList.Current(tags: event.tags, content: event.content, createdAt: event.createdAt,
                                                                   addedByUs: next.addedByUs))
                }
                published.append(event)
            } catch {
                log.info("relay list not published", metadata: ["error": "\(type(of: error))"])
            }
        }
        await handToIndexers(published)
        return !published.isEmpty
    }

    /// Best effort: our lists go to the indexers too (blocked ones excepted), so people who share no
    /// relay with us find where we read.
    func handToIndexers(_ events: [NostrEvent]) async {
        guard !events.isEmpty else { return }
        let blocked = blockedRelaySet(), ours = Set(await pool.snapshots().map(\.url))
        var configured = delivery
        configured.isBlocked = { blocked.contains($0) }
        configured.readsInformation = false
        let delivery = configured
        let targets = discovery.indexers.filter { !ours.contains($0) && !blocked.contains($0) }
        let reports = await Concurrently.map(targets) { relay in await delivery.deliver(events, to: relay) }
        for report in reports where report.error != nil {
            log.info("list not handed to an indexer", metadata: ["relay": "\(report.relay)", "error": "\(report.error ?? "")"])
        }
    }

    /// Publishes our blocked relays if they were edited and not yet accepted by a relay (`pending`).
    /// Throws what the relays said; the edit stays pending then.
    public func publishBlockedRelays() async throws {
        guard let record = try store.blockedRelayRecord(), record.pending else { return }
        let template = UnsignedEventTemplate(kind: BlockedRelayList.kind, tags: record.tags, content: record.content, createdAt: record.createdAt)
        let event = try await publish(template, everyRelay: true)
        var done = record
        done.pending = false
        done.createdAt = event.createdAt
        try store.setBlockedRelayRecord(done)
        await handToIndexers([event])
    }

    /// One of our own lists came back from a relay: a newer blocked-relay list or relay list (another
    /// client's edit) replaces ours; an older one changes nothing.
    func ingestOwnList(_ e: NostrEvent) {
        guard e.pubkey.hex == me, e.isValid, e.createdAt <= clock() + ProfileRule.maxClockSkew else { return }
        switch e.kind {
        case BlockedRelayList.kind:
            guard let current = read("the blocked relays", { try store.blockedRelayRecord() }), e.createdAt > (current?.createdAt ?? 0) else { return }
            write("the blocked relays") {
                try store.setBlockedRelayRecord(.init(tags: e.tags, content: e.content, createdAt: e.createdAt, pending: false))
            }
            updateSink.yield(.ownListsChanged)
        case OwnRelayList.kind:
            guard let current = read("our relay list", { try store.ownRelayList() }), e.createdAt > (current?.createdAt ?? 0) else { return }
            write("our relay list") {
                try store.setOwnRelayList(.init(tags: e.tags, content: e.content, createdAt: e.createdAt, addedByUs: current?.addedByUs ?? []))
            }
        default:
            return
        }
    }
}
