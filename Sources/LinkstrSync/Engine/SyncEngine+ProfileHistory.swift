import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// The profiles and relay lists of the people we know, read as each relay's history: one part of
/// `authorsPerFilter` authors at a time, by NIP-77 where the relay speaks it (what we hold is the local
/// set, so a warm start downloads only what changed) and paged elsewhere, like the account's own chains;
/// the live `.profiles` subscription asks for new ones only. Before, every start and reconnect asked each
/// relay for all of them, and a relay's default limit could cut that answer short.
///
/// Unlike the own chains, a part's end never holds the backfill, and a part cut short is not said to
/// the user (the next connection reads it again).
extension SyncEngine {
    /// Kind 0, and where they want gift wraps delivered (NIP-17 inbox, NIP-65 read relays).
    static let profileKinds = [0, InboxRelayRule.inboxKind, InboxRelayRule.relayListKind]
    /// The live profiles' `since` is this far before the request: a profile dated a little early by its
    /// author's clock, stored after the relay's history was read, still comes.
    static let profilesClockSkew: Int64 = 600

    /// A part's filter (no authors: none, for a part that was replaced).
    func profileHistoryFilter(_ part: Int) -> Filter {
        Filter(authors: profiles.parts[part] ?? [], kinds: Self.profileKinds)
    }

    /// A paged part asks for all its events at once (three kinds a person, where the relay allows it),
    /// not 500: a part of 250 people would take two pages and the boundary's again.
    func profilePageLimits(_ chain: SyncSubscription.HistoryChain) -> HistoryPager.Limits? {
        guard case .profiles(let part) = chain else { return nil }
        let all = (profiles.parts[part]?.count ?? 0) * Self.profileKinds.count
        return HistoryPager.Limits(first: max(1, all), max: max(HistoryPager.maxLimit, all))
    }

    /// Whether an event is within a part's filter (a page's events are checked against it).
    func isInProfilePart(_ e: NostrEvent, _ part: Int) -> Bool {
        profiles.partOf[e.pubkey.hex] == part && Self.profileKinds.contains(e.kind)
    }

    /// Waits until no connected relay reads its history of profiles and relay lists, or `timeout`.
    public func waitForProfileHistory(timeout: Duration) async {
        guard readingProfiles else { return }
        await park(.profileHistory, upTo: timeout)
    }

    private var readingProfiles: Bool { !profiles.waiting.isEmpty || isReadingProfiles(on: nil) }

    /// The relay's connection went: its parts are read again on the next one.
    func profileHistoryInterrupted(_ relay: String) {
        profiles.waiting[relay] = nil
        if !readingProfiles { release(.profileHistory) }
    }

    /// (Re)reads every part on the relay from the start, one after another (on `ready`, and when the set
    /// of people changed).
    func startProfileHistory(_ relay: String) async {
        guard started, profiles.subscribed else { return }
        await closeProfileHistory(on: relay)
        profiles.waiting[relay] = profiles.parts.keys.sorted()
        await startNextProfilePart(relay)
    }

    /// Reads these new parts on the relay too, after those it is reading.
    func readProfileParts(_ parts: [Int], on relay: String) async {
        guard started, !parts.isEmpty else { return }
        let reading = profiles.waiting[relay] != nil || isReadingProfiles(on: relay)
        profiles.waiting[relay, default: []] += parts
        if !reading { await startNextProfilePart(relay) }
    }

    /// Whether a part runs on the relay (on any, for nil).
    private func isReadingProfiles(on relay: String?) -> Bool {
        func here(_ key: HistoryKey) -> Bool { !key.chain.isOwn && (relay == nil || key.relay == relay) }
        return history.pagers.contains { here($0.key) && $0.value.isRunning } || history.reconcile.reconcilers.contains { here($0.key) && $0.value.isRunning }
    }

    /// A part settled on the relay (read to its end, or given up): the next one starts.
    func profilePartSettled(_ key: HistoryKey, _ reconciler: HistoryReconciler? = nil) async {
        guard case .profiles(let part) = key.chain else { return }
        if let reconciler, reconciler.outcome == .finished, let authors = profiles.parts[part] {
            // The lists the relay holds as we do were seen again there, as a download would have said.
            let absent = Set(reconciler.haveIDs.map(\.hex))
            write("the relay lists' age") { try store.touchRelayLists(authors, absent: absent, at: clock()) }
        }
        await startNextProfilePart(key.relay)
    }

    private func startNextProfilePart(_ relay: String) async {
        while var queue = profiles.waiting[relay], !queue.isEmpty {
            let part = queue.removeFirst()
            profiles.waiting[relay] = queue
            guard profiles.parts[part] != nil else { continue }
            let chain = SyncSubscription.HistoryChain.profiles(part: part)
            if await shouldReconcile(relay) {
                await startReconcile(HistoryKey(relay: relay, chain: chain))
            } else {
                await startPaging(relay, chain)
            }
            return
        }
        profiles.waiting[relay] = nil
        if !readingProfiles { release(.profileHistory) }
    }

    /// Closes the parts running on `relay` (every relay when nil): their pages, syncs and fetches.
    func closeProfileHistory(on relay: String?) async {
        if let relay { profiles.waiting[relay] = nil } else { profiles.waiting = [:] }
        let pagers = history.pagers.keys.filter { !$0.chain.isOwn && (relay == nil || $0.relay == relay) }
        for key in pagers.sorted(by: { $0.relay < $1.relay }) { await abandonPaging(key) }
        let syncs = history.reconcile.reconcilers.keys.filter { !$0.chain.isOwn && (relay == nil || $0.relay == relay) }
        for key in syncs.sorted(by: { $0.relay < $1.relay }) { await abandonReconcile(key) }
    }
}
