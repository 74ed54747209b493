import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import Synchronization

/// Search over the open account's posts, for both front ends.
///
/// The index is the posts' text opened in memory only: nothing searchable is ever written to disk, so
/// the store's encryption at rest keeps its meaning. It is built once (at unlock, off the UI), and a
/// session whose posts changed is marked stale and read again before the next query that needs it.
public final class PostSearch: Sendable {
    let store: AccountStore
    /// The index; held while it is built or refreshed, so a query waits for a build instead of doing
    /// it twice.
    private let index = Mutex<PostSearchIndex?>(nil)
    /// Sessions whose posts changed since they were read (quick to mark from any thread).
    private let stale = Mutex<Set<String>>([])
    /// The account closed: no index is built or kept any more.
    private let closed = Mutex(false)

    public init(store: AccountStore) { self.store = store }

    /// The account closed (`AccountSession.close`): a build stops at its next few sessions, the index
    /// is dropped from memory, and a search or build still queued answers `Closed`.
    public func close() {
        closed.withLock { $0 = true }
        index.withLock { $0 = nil }
        stale.withLock { $0 = [] }
    }

    public struct Closed: Error, CustomStringConvertible {
        public var description: String { "the account was closed." }
    }

    /// Whether an index is held (for tests: nothing of a closed account stays in memory).
    public var holdsIndex: Bool { index.withLock { $0 != nil } }

    public struct Answer: Equatable, Sendable {
        public var result: PostSearchIndex.Result
        /// How many posts the index holds.
        public var indexedPosts: Int
    }

    /// Reads every listed session's posts, unless already done; answers how many posts it holds.
    @discardableResult
    public func build() throws -> Int {
        try index.withLock { index in
            if index == nil { index = try fullIndex() }
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
                    index = try fullIndex()
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

    private func fullIndex() throws -> PostSearchIndex {
        if closed.withLock({ $0 }) { throw Closed() }
        var index = PostSearchIndex()
        let sessions = try store.listedSessionIDs()
        var start = 0
        while start < sessions.count {
            if closed.withLock({ $0 }) { throw Closed() }
            let chunk = Array(sessions[start..<min(start + Self.sessionsPerRead, sessions.count)])
            try Self.refresh(&index, Set(chunk), store)
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

