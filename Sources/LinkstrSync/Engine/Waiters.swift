/// Callers parked until something happens, by what they wait for: the one waiting helper of the engine
/// (room in the ingest buffer, a flush, the history settling, a relay's answer to a query). Pure
/// bookkeeping: the engine parks and releases them on its actor. A deadline is the caller's own: its
/// timer releases that caller only (`expire`), never the others waiting for the same thing with
/// deadlines of their own (one caller's 1 s wait for the history ended every other caller's wait).
struct Waiters<Key: Hashable & Sendable>: Sendable {
    private var parked: [Key: [(ticket: Int, continuation: CheckedContinuation<Void, Never>)]] = [:]
    private var nextTicket = 0
    /// Tickets whose deadline passed before they were parked: parked, they are resumed at once.
    private var expired = Set<Int>()
    /// Tickets of callers still waiting (a timer firing after its caller went on finds none).
    private var live = Set<Int>()

    /// A ticket for one caller's wait, taken before its deadline's timer starts.
    mutating func ticket() -> Int {
        nextTicket += 1
        live.insert(nextTicket)
        return nextTicket
    }

    mutating func park(_ key: Key, ticket: Int, _ continuation: CheckedContinuation<Void, Never>) {
        if expired.remove(ticket) != nil { return continuation.resume() }
        parked[key, default: []].append((ticket, continuation))
    }

    /// Resumes everyone waiting for `key`.
    mutating func release(_ key: Key) {
        for waiter in parked.removeValue(forKey: key) ?? [] { waiter.continuation.resume() }
    }

    /// The deadline of one caller passed: that caller goes on, the others keep waiting.
    mutating func expire(_ key: Key, ticket: Int) {
        guard let index = parked[key]?.firstIndex(where: { $0.ticket == ticket }) else {
            if live.contains(ticket) { expired.insert(ticket) }
            return
        }
        let waiter = parked[key]!.remove(at: index)
        if parked[key]?.isEmpty == true { parked[key] = nil }
        waiter.continuation.resume()
    }

    /// Forgets a ticket once its caller went on (its timer may still fire: nothing to do then).
    mutating func done(_ ticket: Int) {
        expired.remove(ticket)
        live.remove(ticket)
    }

    /// How many callers wait for `key` (tests).
    func count(_ key: Key) -> Int { parked[key]?.count ?? 0 }

    mutating func releaseAll() {
        let all = parked
        parked = [:]
        expired = []
        live = []
        for waiter in all.values.joined() { waiter.continuation.resume() }
    }
}

/// What the engine's callers wait for.
enum EngineWait: Hashable, Sendable {
    /// Room in the ingest buffer (the pool's consumer, under backpressure).
    case space
    /// No flush running any more.
    case flushed
    /// The initial history settled (`waitForBackfill`).
    case backfill
    /// No relay reads its history of profiles and relay lists any more (`waitForProfileHistory`).
    case profileHistory
    /// A relay answered the profiles or the follow-list request.
    case profilesAnswered, followListAnswered
    /// Every relay ended a one-shot request.
    case query(Int)
}
