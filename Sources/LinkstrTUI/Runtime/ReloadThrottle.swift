/// How often the session list is read again. While a sync streams, news arrives in a batch every few
/// dozen milliseconds; each asks for the list. A read within `interval` of the last one waits until
/// the interval is over, and everything that asks meanwhile joins it (a queued load answers for its
/// duplicates), so the list follows news in batches, a fraction of a second late at most.
/// Pure: the caller passes the time.
struct ReloadThrottle {
    var interval: Double = 0.2
    private(set) var lastRead: Double?

    /// Seconds a read asked for at `now` waits (0: at once).
    func delay(now: Double) -> Double {
        guard let lastRead else { return 0 }
        return max(0, lastRead + interval - now)
    }

    mutating func read(at now: Double) { lastRead = now }
}
