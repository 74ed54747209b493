import GRDB
import LinkstrDomain

/// One write transaction of an account: its connection, and the account's sessions as this transaction
/// sees them (its own changes included). They reach the shared cache only when the transaction commits,
/// so a reader never sees a session that a rolled-back batch made up.
final class WriteScope {
    let c: Connection
    private let store: AccountStore
    private var sessions: [String: SessionRecord]?
    private var forgotten = false

    init(_ c: Connection, store: AccountStore) {
        self.c = c
        self.store = store
    }

    func allSessions() throws -> [String: SessionRecord] {
        if let sessions { return sessions }
        let loaded = try store.sessionCache.value ?? store.loadSessions(c)
        sessions = loaded
        return loaded
    }

    func session(_ id: String) throws -> SessionRecord? { try allSessions()[id] }

    func setSession(_ s: SessionRecord) throws {
        _ = try allSessions()
        sessions![s.id] = s
    }

    /// The sessions as derived again from the rows (after a repair dropped some).
    func replaceSessions(_ all: [String: SessionRecord]) {
        sessions = all
    }

    /// The account's rows are gone: the cache is dropped at commit.
    func forgetSessions() {
        sessions = nil
        forgotten = true
    }

    /// After the commit, on the writer (before the next transaction starts).
    func publish() {
        if forgotten { store.sessionCache.set(nil) } else if let sessions { store.sessionCache.set(sessions) }
    }
}

extension AccountStore {
    /// An immediate transaction on the writer; what it changed in the sessions is published only after
    /// it commits.
    func writing<T>(_ body: (WriteScope) throws -> T) throws -> T {
        try db.serialized { c in
            let scope = WriteScope(c, store: self)
            var result: T?
            do {
                try c.db.inTransaction(.immediate) {
                    result = try body(scope)
                    return .commit
                }
            } catch let error as DatabaseError {
                throw StorageError(error)
            }
            scope.publish()
            return result!
        }
    }

    /// The sessions as last committed, for readers: from the cache, or loaded once on the writer so the
    /// load cannot interleave with a write.
    func committedSessions() throws -> [String: SessionRecord] {
        if let cached = sessionCache.value { return cached }
        return try db.serialized { c in
            if let cached = sessionCache.value { return cached }
            let loaded = try loadSessions(c)
            sessionCache.set(loaded)
            return loaded
        }
    }
}
