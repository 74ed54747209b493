/// Where a post sits in time. A rumor's `created_at` is its sender's word: a post dated a day or ten
/// years ahead was shown as "now" and stayed pinned on top of its feed and the session list. One dated
/// more than `aheadAllowance` past the moment it reached us is placed at that moment instead, and keeps
/// the date it claimed (`PostRecord.datedAhead`) so that the feed can say so. Clocks a few minutes fast
/// are common and harmless: within the allowance a post keeps its own date.
public enum PostPlacement {
    /// 15 minutes: more than the skew the profile and relay-list rules allow (10 minutes).
    public static let aheadAllowance: Int64 = 900

    /// The time the post sorts by, and the date it claimed when that is not it.
    public static func place(claimed: Int64, receivedAt: Int64) -> (createdAt: Int64, datedAhead: Int64?) {
        claimed > receivedAt + aheadAllowance ? (receivedAt, claimed) : (claimed, nil)
    }
}
