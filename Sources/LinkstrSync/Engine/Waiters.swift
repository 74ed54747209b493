/// Callers parked until something happens, by what they wait for: the one waiting helper of the engine
/// (room in the ingest buffer, a flush, the history settling, a relay's answer to a query). Pure
/// bookkeeping: the engine parks and releases them on its actor; a deadline is a timer that releases.
struct Waiters<Key: Hashable & Sendable>: Sendable {
    private var parked: [Key: [CheckedContinuation<Void, Never>]] = [:]

    mutating func park(_ key: Key, _ continuation: CheckedContinuation<Void, Never>) {
        parked[key, default: []].append(continuation)
    }

    /// Resumes everyone waiting for `key`.
    mutating func release(_ key: Key) {
        for waiter in parked.removeValue(forKey: key) ?? [] { waiter.resume() }
    }

    mutating func releaseAll() {
        let all = parked
        parked = [:]
        for waiter in all.values.joined() { waiter.resume() }
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
