import LinkstrDomain
import NostrProtocol

/// Discovery's decisions, pure like `HistoryPager`: whose relay lists (kinds 10050, 10002) are looked up
/// now, with which filters, and which relays beyond ours are asked. The engine reads what they need
/// first (the lists known, the hints, the NIP-05 documents' relays, our relays) and then asks
/// (`SyncEngine+Discovery`).
struct RelayListLookup: Equatable, Sendable {
    /// `indexer_relays`: relays that keep everyone's kinds 0, 3, 10002 and 10050.
    var indexers: [String] = []
    /// When each person was last looked up (found or not).
    private(set) var lookedUp: [Pubkey: Int64] = [:]

    /// What is known of a person's lists.
    struct Known: Equatable, Sendable {
        /// An inbox (10050) or relay list (10002) is stored.
        let hasList: Bool
        /// When it was last found.
        let listedAt: Int64?
    }

    /// The members to look up now, sorted, each marked as looked up at `now`. With `onlyMissingOrStale`:
    /// only those with no list, or one older than `staleAfter`, not looked up within `interval`.
    mutating func due(_ members: [Pubkey], me: Pubkey, onlyMissingOrStale: Bool, known: [Pubkey: Known], now: Int64, staleAfter: Int64,
                      interval: Int64) -> [Pubkey] {
        let wanted = Set(members).filter { member in
            guard member != me else { return false }
            guard onlyMissingOrStale else { return true }
            if let at = lookedUp[member], now - at < interval { return false }
            let list = known[member] ?? Known(hasList: false, listedAt: nil)
            return !list.hasList || now - (list.listedAt ?? 0) > staleAfter
        }.sorted()
        for member in wanted { lookedUp[member] = now }
        return wanted
    }

    /// One filter per `perFilter` members, room for each kind of each.
    static func filters(for wanted: [Pubkey], perFilter: Int, kinds: [Int]) -> [Filter] {
        stride(from: 0, to: wanted.count, by: max(1, perFilter)).map {
            let part = Array(wanted[$0..<min($0 + max(1, perFilter), wanted.count)])
            return Filter(authors: part, kinds: kinds, limit: part.count * kinds.count)
        }
    }

    /// The relays asked beside ours: the indexers first (in their order), then the members' hints and
    /// their NIP-05 documents' relays (sorted); never ours (the pool asks those), never a blocked one;
    /// at most `cap` connections.
    func relaysToAsk(hints: Set<String>, fromNIP05: [String], ours: Set<String>, blocked: Set<String>, cap: Int) -> [String] {
        let elsewhere = Set(indexers).union(hints).union(fromNIP05).subtracting(ours).subtracting(blocked)
        let first = indexers.filter(elsewhere.contains)
        return Array((first + elsewhere.subtracting(first).sorted()).prefix(cap))
    }
}
