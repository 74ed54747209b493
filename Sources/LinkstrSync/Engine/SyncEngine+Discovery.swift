import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Where people's relay lists are looked for beyond the profiles subscription (`RelayListLookup`, pure):
/// one lookup an hour at most per person.
typealias DiscoveryState = RelayListLookup

/// Discovery: a member's kind 10050 and 10002 asked of our relays, of the indexer relays and of
/// the relays they were added with (an nprofile's hints), the newest list kept with when and where it
/// was found. Bounded: each relay has the delivery's deadlines, blocked relays are never asked.
extension SyncEngine {
    /// Lookups are this far apart per person (a list found is kept for `Budget.staleAfter`).
    static let lookupInterval: Int64 = 3_600
    /// NIP-05 documents fetched by one lookup, at most.
    static let nip05PerLookup = 16
    /// Relays beyond ours asked by one lookup, at most.
    static let relaysPerLookup = 24

    public func setIndexers(_ relays: [String]) { discovery.indexers = relays.compactMap(RelayURL.normalized) }
    public var indexers: [String] { discovery.indexers }

    /// Looks the lists of `members` up; with `onlyMissingOrStale`, only of those with no list or a stale
    /// one, not looked up within the hour. Returns which relays answered, and what each said if not.
    @discardableResult
    public func discoverRelayLists(for members: [Pubkey], onlyMissingOrStale: Bool = false) async -> [String: String?] {
        let now = clock()
        // Read first, then decided: who is due, with which filters, and where else to ask.
        var known = [Pubkey: RelayListLookup.Known]()
        if onlyMissingOrStale {
            for member in Set(members) where member != me {
                let r = deliveryRecipient(member)
                known[member] = RelayListLookup.Known(hasList: r.inbox != nil || r.readRelays != nil, listedAt: r.listedAt)
            }
        }
        let wanted = discovery.due(members, me: me, onlyMissingOrStale: onlyMissingOrStale, known: known, now: now,
                                   staleAfter: outbox.budget.staleAfter, interval: Self.lookupInterval)
        guard !wanted.isEmpty else { return [:] }
        let blocked = blockedRelaySet()
        var configured = self.delivery
        configured.isBlocked = { blocked.contains($0) }
        configured.readsInformation = false
        let delivery = configured, most = 2 * wanted.count + 10
        let filters = RelayListLookup.filters(for: wanted, perFilter: Self.authorsPerFilter, kinds: [InboxRelayRule.inboxKind, InboxRelayRule.relayListKind])
        var hints = Set<String>()
        for member in wanted { for hint in read("someone's relay hints", { try store.relayHints(member) }) ?? [] { hints.insert(hint) } }
        // The relays their NIP-05 documents list, for those with no list at all whose kind 0 names one
        // (the fallback: at most `nip05PerLookup` documents fetched at once). Read here, on the actor,
        // into values: a lazy chain over our state iterated in the fetches' task group ran off the actor
        // and aborted every command for anyone who knew such a person.
        var identified = [(member: Pubkey, id: NIP05Relays.Identifier)]()
        for member in wanted where identified.count < Self.nip05PerLookup {
            let known = deliveryRecipient(member)
            guard known.inbox == nil, known.readRelays == nil,
                  let text = read("a profile's NIP-05", { try store.profileNIP05(member) }) ?? nil,
                  let id = NIP05Relays.identifier(text) else { continue }
            identified.append((member, id))
        }
        let fromNIP05 = await Concurrently.map(identified) { person in await delivery.nip05Relays(person.id, pubkey: person.member) ?? [] }
        let ours = Set(await pool.snapshots().filter(\.enabled).map(\.url))
        // Bounded: the indexers first, then the others, at most `relaysPerLookup` connections.
        let asked = discovery.relaysToAsk(hints: hints, fromNIP05: Array(fromNIP05.joined()), ours: ours, blocked: blocked, cap: Self.relaysPerLookup)
        var answered = [String: String?]()
        // Our relays through the pool (already connected), the others on short connections, all at once.
        async let othersAnswers = Concurrently.map(asked) { relay in (relay, await delivery.query(filters, on: relay, maxEvents: most)) }
        let fromOurs = await queryEach(filters, timeout: .nanoseconds(delivery.timeout.nanoseconds))
        let others = await othersAnswers
        let wantedSet = Set(wanted)
        if let answer = fromOurs {
            for e in answer.events { storeDiscoveredList(e, wanted: wantedSet, foundOn: answer.sources[e.id.hex]?.sorted().first, now: now) }
            for relay in answer.relays { answered[relay] = answer.ends[relay] == nil ? "no answer in time" : nil }
        }
        for (relay, answer) in others {
            answered[relay] = answer.error
            for e in answer.events { storeDiscoveredList(e, wanted: wantedSet, foundOn: relay, now: now) }
        }
        return answered
    }

    /// The lists of everyone we know that are missing or stale, looked up again (after the history, so
    /// the relays that answer are known; bounded by the deadlines).
    public func refreshStaleRelayLists() async {
        guard let people = read("the people we know", { try store.profileAuthors() }) else { return }
        await discoverRelayLists(for: Array(people), onlyMissingOrStale: true)
    }

    /// A list someone's relay sent: kept if it is valid, theirs, asked for and newer than ours; an equal
    /// or older one only tells us ours is still current.
    func storeDiscoveredList(_ e: NostrEvent, wanted: Set<Pubkey>, foundOn: String?, now: Int64) {
        let author = e.pubkey.hex
        guard e.kind == InboxRelayRule.inboxKind || e.kind == InboxRelayRule.relayListKind, wanted.contains(author), e.isValid,
              let current = read("a relay list", { try store.relayListStamp(author, kind: e.kind) }) else { return }
        guard InboxRelayRule.shouldStore(createdAt: e.createdAt, eventID: e.id.hex, current: current, now: now) else {
            if let current {
                write("a relay list's age") { try store.touchRelayList(author, kind: e.kind, at: now) }
                // An older list a relay still keeps: counted as held by the next NIP-77 sync.
                if current.eventID != e.id.hex, e.createdAt <= now + ProfileRule.maxClockSkew { passOver(e, .author(author)) }
            }
            return
        }
        write("a relay list") {
            try store.storeRelayList(author, kind: e.kind, relays: InboxRelayRule.relays(kind: e.kind, tags: e.tags),
                                     stamp: LWWStamp(createdAt: e.createdAt, eventID: e.id.hex), fetchedAt: now, foundOn: foundOn)
        }
    }
}

extension SyncEngine {
    /// Short connections as the engine makes them (its deadlines, its AUTH signer, our blocked relays
    /// refused): for checks outside the engine, such as the delivery doctor's.
    public func outsideDialer() -> InboxDelivery {
        let blocked = blockedRelaySet()
        var dialer = delivery
        dialer.isBlocked = { blocked.contains($0) }
        return dialer
    }

    /// The relays of the pool that are enabled (ours, as a send sees them).
    public func ourRelays() async -> [String] { await pool.snapshots().filter(\.enabled).map(\.url).sorted() }
}
