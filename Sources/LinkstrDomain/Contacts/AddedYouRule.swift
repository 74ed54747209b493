/// "Added you" (wire 2026 §7.2): the people whose follow list names you. Read-only: nothing is published.
public enum AddedYouRule {
    /// Authors asked about per follow-up query (the `#p` lists are paged: `HistoryPager.Limits.followLists`).
    public static let authorsPerQuery = 50
    /// How many of the people listed get their newest list watched live (the rows a screen can show).
    public static let watchedRows = 200
    /// Said when a relay did not send every page.
    public static let partialNote = "some relays did not send their whole answer: the list may be missing people."

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
