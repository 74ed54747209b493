import LinkstrDomain
import LinkstrStorage
import LinkstrSync
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

    /// Sessions read per query while building: the opened text of a few sessions at a time is all that
    /// is held besides the index, so building costs little more memory than the index itself.
    static let sessionsPerRead = 50

    private static func fullIndex(_ store: AccountStore) throws -> PostSearchIndex {
        var index = PostSearchIndex()
        let sessions = try store.listedSessionIDs()
        var start = 0
        while start < sessions.count {
            let chunk = Array(sessions[start..<min(start + sessionsPerRead, sessions.count)])
            try refresh(&index, Set(chunk), store)
            start += chunk.count
        }
        MemoryTrim.now()
        return index
    }

    static func refresh(_ index: inout PostSearchIndex, _ sessions: Set<String>, _ store: AccountStore) throws {
        let byID = Dictionary(grouping: try store.searchDocuments(sessionIDs: Array(sessions)), by: \.sessionID)
        for sid in sessions { index.replace(SessionSearchCorpus(sessionID: sid, documents: byID[sid] ?? [])) }
    }
}

