/// "Added you" (wire 2026 §7.2): the people whose follow list names you. Read-only: nothing is published.
public enum AddedYouRule {
    /// Follow lists asked for at once by the `#p` query; authors asked about per follow-up query.
    public static let queryLimit = 1_600
    public static let authorsPerQuery = 50

    public struct FollowList: Equatable, Sendable {
        public let author: Pubkey
        public let stamp: LWWStamp
        public let tags: [[String]]
        public init(author: Pubkey, stamp: LWWStamp, tags: [[String]]) { self.author = author; self.stamp = stamp; self.tags = tags }
    }

    /// One record per author, the NIP-01 newest (newer second, then the lower id); an author follows
    /// you when that newest list names you. A list that names you but was replaced by one that does not
    /// is an unfollow. Sorted by author.
    public static func followers(_ lists: [FollowList], me: Pubkey) -> [Pubkey] {
        var newest = [Pubkey: FollowList]()
        for list in lists where list.author != me {
            if let current = newest[list.author], !FollowListRule.shouldApply(list.stamp, over: current.stamp) { continue }
            newest[list.author] = list
        }
        return newest.values.filter { FollowListRule.keys($0.tags).contains(me) }.map(\.author).sorted()
    }
}
