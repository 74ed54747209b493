import LinkstrDomain
import LinkstrStorage
import Synchronization

/// The open account's listed sessions, held in memory so a batch of news costs a read of the sessions it
/// touched, not of every session: the rows are pushed to the front end as a listing made here. A
/// reload after a local change (sent, renamed, read…) reads them all again, as before.
public final class SessionTable: Sendable {
    private struct State {
        /// Every listed session by id; nil until the first full read.
        var rows: [String: SessionSummary]?
        var fullReads = 0, partialReads = 0
    }

    private let store: AccountStore
    private let me: Pubkey
    private let state = Mutex(State())

    init(store: AccountStore, me: Pubkey) {
        self.store = store
        self.me = me
    }

    /// Reads every listed session again and answers `list` from them.
    public func reload(_ list: SessionList, policy: SessionRequestPolicy) throws -> SessionListing {
        // Read and replaced under the lock: a refresh cannot merge rows read before this read.
        let rows = try state.withLock { s in
            let all = try store.sessionSummaries(archived: nil)
            s.rows = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            s.fullReads += 1
            return all
        }
        return try listing(list, rows, policy)
    }

    /// Reads only the `touched` sessions into the table and answers `list`; nil before the first full
    /// read (nothing to merge into: the front end reads the list as usual).
    public func refresh(_ touched: Set<String>, _ list: SessionList, policy: SessionRequestPolicy) throws -> SessionListing? {
        let rows = try state.withLock { s -> [SessionSummary]? in
            guard var rows = s.rows else { return nil }
            let changed = try store.sessionSummaries(ids: touched)
            // A touched session not read back is not listed any more (deleted, left).
            for id in touched { rows[id] = nil }
            for row in changed { rows[row.id] = row }
            s.rows = rows
            s.partialReads += 1
            return Array(rows.values)
        }
        guard let rows else { return nil }
        return try listing(list, Self.ordered(rows), policy)
    }

    /// How many times every session was read, and how many times only touched ones were.
    public var reads: (full: Int, partial: Int) { state.withLock { ($0.fullReads, $0.partialReads) } }

    /// The store's order: latest activity first, then id (descending).
    static func ordered(_ rows: [SessionSummary]) -> [SessionSummary] {
        rows.sorted { a, b in a.lastActivityAt != b.lastActivityAt ? a.lastActivityAt > b.lastActivityAt : a.id > b.id }
    }

    private func listing(_ list: SessionList, _ rows: [SessionSummary], _ policy: SessionRequestPolicy) throws -> SessionListing {
        SessionListing.make(list, from: rows, me: me, contacts: Set(try store.contacts().map(\.pubkey)), policy: policy)
    }
}
