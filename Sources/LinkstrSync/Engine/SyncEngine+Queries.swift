import LinkstrRelay
import NostrProtocol

/// One-shot requests in flight.
struct QueryState {
    /// What came, which relays still owe an end, how each ended.
    struct Pending {
        var events: [String: NostrEvent] = [:]
        /// Which relay sent each event (a paged query accounts its pages per relay).
        var sources: [String: Set<String>] = [:]
        var relays: Set<String>
        /// How each relay ended the request (a relay missing here timed out).
        var ends: [String: HistoryPager.PageEnd] = [:]
    }
    var pending: [Int: Pending] = [:]
    var count = 0
}

/// One-shot read-only requests: asked of the connected relays, answered when each ended it or at the
/// deadline; nothing is stored.
extension SyncEngine {
    /// Asks every connected relay once and returns the events they sent (each once) when all of them
    /// ended the request (EOSE or CLOSED) or `timeout` passed. Nothing is stored; the caller verifies.
    /// nil: no relay could be reached.
    public func query(_ filters: [Filter], timeout: Duration = .seconds(10)) async -> [NostrEvent]? {
        await queryEach(filters, timeout: timeout)?.events
    }

    /// What a one-shot request brought: the events, which relay sent which, and how each relay ended
    /// it (a relay missing from `ends` did not answer in time).
    public struct QueryAnswer: Sendable {
        public var events: [NostrEvent]
        public var sources: [String: Set<String>]
        public var ends: [String: HistoryPager.PageEnd]
        public var relays: Set<String>
    }

    /// `query`, with each relay's part of the answer; `relays`: only these (when connected).
    public func queryEach(_ filters: [Filter], relays only: Set<String>? = nil, timeout: Duration = .seconds(10)) async -> QueryAnswer? {
        ensureConsuming()
        guard var relays = await connectedRelays() else { return nil }
        if let only { relays.formIntersection(only) }
        guard !relays.isEmpty else { return nil }
        queries.count += 1
        let n = queries.count
        queries.pending[n] = QueryState.Pending(relays: relays)
        await subscribe(.query(n), filters, relays: relays)
        if queries.pending[n]?.relays.isEmpty == false { await park(.query(n), upTo: timeout) }
        let pending = queries.pending.removeValue(forKey: n)
        await unsubscribe(.query(n), relays: relays)
        return QueryAnswer(events: pending.map { Array($0.events.values) } ?? [], sources: pending?.sources ?? [:],
                           ends: pending?.ends ?? [:], relays: relays)
    }

    /// The readable relays once one is writable; nil when none will be (the send gate said why).
    func connectedRelays() async -> Set<String>? {
        if await pool.untilWritable() != nil { return nil }
        return await pool.readableRelays()
    }

    func queryEvent(_ n: Int, _ relay: String, _ e: NostrEvent) {
        guard queries.pending[n] != nil else { return }
        queries.pending[n]?.events[e.id.hex] = e
        queries.pending[n]?.sources[relay, default: []].insert(e.id.hex)
    }

    func queryEnded(_ n: Int, _ relay: String, _ end: HistoryPager.PageEnd) {
        guard queries.pending[n]?.relays.remove(relay) != nil else { return }
        queries.pending[n]?.ends[relay] = end
        if queries.pending[n]?.relays.isEmpty == true { release(.query(n)) }
    }
}
