import LinkstrDomain
import LinkstrStorage
import Synchronization

/// Search over the open account's posts (issue 14 item 7), for both front ends.
///
/// The index is the posts' text opened in memory only: nothing searchable is ever written to disk, so
/// the store's encryption at rest keeps its meaning. It is built once (at unlock, off the UI), and a
/// session whose posts changed is marked stale and read again before the next query that needs it.
public final class PostSearch: Sendable {
    private let store: AccountStore
    /// The index; held while it is built or refreshed, so a query waits for a build instead of doing
    /// it twice.
    private let index = Mutex<PostSearchIndex?>(nil)
    /// Sessions whose posts changed since they were read (quick to mark from any thread).
    private let stale = Mutex<Set<String>>([])

    public init(store: AccountStore) { self.store = store }

    public struct Answer: Equatable, Sendable {
        public var result: PostSearchIndex.Result
        /// How many posts the index holds.
        public var indexedPosts: Int
    }

    /// Reads every listed session's posts, unless already done; answers how many posts it holds.
    @discardableResult
    public func build() throws -> Int {
        try index.withLock { index in
            if index == nil { index = try Self.fullIndex(store) }
            return index!.postCount
        }
    }

    /// These sessions' posts changed (arrived, deleted, titles fetched): read them again before searching.
    public func invalidate(_ sessionIDs: some Sequence<String>) {
        stale.withLock { $0.formUnion(sessionIDs) }
    }

    /// A case-insensitive search of notes, URLs and page titles, in one session or in all; newest first.
    public func search(_ query: String, in sessionID: String? = nil) throws -> Answer {
        try index.withLock { index in
            let changed = stale.withLock { s -> Set<String> in defer { s = [] }; return s }
            do {
                if index == nil {
                    index = try Self.fullIndex(store)
                } else if !changed.isEmpty {
                    try Self.refresh(&index!, changed, store)
                }
            } catch {
                // Not read: still stale next time.
                stale.withLock { $0.formUnion(changed) }
                throw error
            }
            return Answer(result: index!.search(query, in: sessionID), indexedPosts: index!.postCount)
        }
    }

    private static func fullIndex(_ store: AccountStore) throws -> PostSearchIndex {
        var index = PostSearchIndex()
        for (sid, documents) in Dictionary(grouping: try store.searchDocuments(), by: \.sessionID) {
            index.replace(SessionSearchCorpus(sessionID: sid, documents: documents))
        }
        return index
    }

    private static func refresh(_ index: inout PostSearchIndex, _ sessions: Set<String>, _ store: AccountStore) throws {
        let byID = Dictionary(grouping: try store.searchDocuments(sessionIDs: Array(sessions)), by: \.sessionID)
        for sid in sessions { index.replace(SessionSearchCorpus(sessionID: sid, documents: byID[sid] ?? [])) }
    }
}
