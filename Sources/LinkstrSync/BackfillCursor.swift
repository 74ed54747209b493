/// Paging backwards through a relay's history with NIP-01 filters, robust to what relays really do:
/// - `until` is inclusive in NIP-01, but some relays (nostr-relay) treat it as exclusive; asking for
///   `oldest + 1` overlaps one second with the previous page under either reading (dedup removes repeats);
/// - relays clamp `limit` silently, so the effective page size is learned from the largest page seen;
/// - wrap timestamps collide often (randomized over two days), so pages end inside seconds.
/// Every next `until` is strictly older than the last, so the chain always ends.
/// (NIP-01 cannot page inside one second: more events in one second than a relay's limit cannot all be read.)
public struct BackfillCursor: Sendable, Equatable {
    public private(set) var until: Int64?
    public private(set) var largestPage = 0

    public init() {}

    /// Given the page just read (`count` events, `new` of them unseen, oldest at `oldest`), the `until` of
    /// the next page, or nil when the history is exhausted.
    public mutating func next(count: Int, new: Int, oldest: Int64?) -> Int64? {
        largestPage = max(largestPage, count)
        guard count > 0, let oldest, oldest > 0 else { return nil }
        let saturated = count >= largestPage
        guard new > 0 || saturated else { return nil }
        var next = oldest + 1
        if let until, next >= until { next = until - 1 }
        if new == 0, let until, next >= until { return nil }
        guard next > 0 else { return nil }
        until = next
        return next
    }
}
