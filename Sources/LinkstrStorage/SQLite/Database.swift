import Foundation
import GRDB
import GRDBSQLite

/// The database file on GRDB: a `DatabasePool` (WAL), so the screen's reads run on reader connections
/// and never wait for a sync batch being written; one serialized writer. In memory (the recovery
/// screen's "continue in memory") it is a `DatabaseQueue`.
///
/// Repositories work inside `read` or `write` and are handed a `Connection`; they never open a
/// second access from inside one (GRDB forbids re-entrance, and a read inside a write would not see
/// the write's own changes).
public final class Database: Sendable {
    let writer: any DatabaseWriter
    public let path: String
    /// The writer's page cache; readers keep SQLite's default.
    static let writerCacheKiB = 16_384

    /// Opens (creating if needed) the database at `path`, or an in-memory one for ":memory:".
    public init(path: String) throws(StorageError) {
        self.path = path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.label = "linkstr"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The writer (measured with `linkstr-bench ingest`): a cold sync's batches touch the
            // posts and their indexes all over; with SQLite's default 2 MiB cache every batch read
            // pages back from the file. Checkpoints every 16 MiB instead of 4 MiB of WAL: a page the
            // batches keep changing (an index's, a session row's) is copied back once, not four times.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA cache_size = -\(Database.writerCacheKiB)")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 4000")
            }
        }
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: config)
            } else {
                let pool = try DatabasePool(path: path, configuration: config)
                writer = pool
                // A garbage file opens fine and fails at the first read: check now, with a clear error.
                _ = try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            }
        } catch {
            throw .cannotOpen(path: path, reason: StorageError(error).description)
        }
        if path != ":memory:" { Database.restrictPermissions(path) }
    }

    /// Opens an existing database for reading only, for a data directory that cannot be written (a
    /// read-only mount, a backup disk, permissions): reading commands work, a change fails as "read-only".
    /// A WAL database whose shared-memory file is gone and cannot be made is opened as immutable.
    public init(readingOnly path: String) throws(StorageError) {
        self.path = path
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        config.label = "linkstr"
        func open(_ name: String) throws -> DatabaseQueue {
            let queue = try DatabaseQueue(path: name, configuration: config)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        }
        do {
            writer = try open(path)
        } catch {
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? path
            do { writer = try open("file:\(encoded)?mode=ro&immutable=1") } catch {
                throw .cannotOpen(path: path, reason: StorageError(error).description)
            }
        }
    }

    /// Files 0600 (SQLite creates -wal and -shm with the database's mode, but make sure).
    static func restrictPermissions(_ path: String) {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            chmod(path + suffix, 0o600)
        }
    }

    /// A consistent snapshot on a reader connection: it never waits for the writer.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try mapped { try writer.read { try body(Connection($0)) } }
    }

    /// One immediate transaction on the writer: committed when `body` returns, rolled back when it throws.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try mapped {
            try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(Connection(db))
                    return .commit
                }
                return result!
            }
        }
    }

    /// On the writer, outside a transaction (pragmas, checkpoints; loads that must not race a write).
    public func serialized<T>(_ body: (Connection) throws -> T) throws -> T {
        try mapped { try writer.writeWithoutTransaction { try body(Connection($0)) } }
    }

    // One-statement conveniences. A single statement is its own consistent snapshot, so it runs on a
    // reader without the read transaction around it (a third of a one-row lookup's cost).

    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> [Row] {
        do { return try writer.unsafeRead { try Connection($0).query(sql, parameters) } } catch { throw StorageError(error) }
    }

    public func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> SQLValue {
        do { return try writer.unsafeRead { try Connection($0).scalar(sql, parameters) } } catch { throw StorageError(error) }
    }

    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) {
        do { try write { try $0.run(sql, parameters) } } catch { throw StorageError(error) }
    }

    /// Statements (several allowed) outside a transaction: pragmas and schema changes.
    public func execute(_ sql: String) throws(StorageError) {
        do { try serialized { try $0.execute(sql) } } catch { throw StorageError(error) }
    }

    /// Folds the WAL into the database file and truncates it.
    public func checkpoint() throws(StorageError) {
        do { try serialized { c in _ = try c.db.checkpoint(.truncate) } } catch { throw StorageError(error) }
    }

    /// Closes every connection now (a new database is renamed into place only once closed).
    public func close() throws(StorageError) {
        do {
            if let pool = writer as? DatabasePool { try pool.close() } else if let queue = writer as? DatabaseQueue { try queue.close() }
        } catch { throw StorageError(error) }
    }

    private func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw StorageError(error) }
    }
}

/// One connection inside `Database.read`/`write`. GRDB prepares and caches each statement; binding and
/// stepping go straight to SQLite's C API on that statement (`sqliteStatement` is public for this),
/// because going through GRDB's `Row` and `DatabaseValue` copied every value twice and cost a
/// quarter of the store's throughput (`linkstr-bench store`). No transaction observers are used, so
/// nothing GRDB tracks per statement is skipped.
public struct Connection {
    let db: GRDB.Database

    init(_ db: GRDB.Database) { self.db = db }

    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> [Row] {
        try withStatement(sql, parameters) { (s: OpaquePointer) throws(StorageError) -> [Row] in
            let count = sqlite3_column_count(s)
            let names = (0..<count).map { String(cString: sqlite3_column_name(s, $0)) }
            var rows = [Row]()
            while try step(s) {
                var values = [SQLValue]()
                values.reserveCapacity(Int(count))
                for i in 0..<count {
                    switch sqlite3_column_type(s, i) {
                    case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(s, i)))
                    case SQLITE_TEXT: values.append(.text(String(cString: sqlite3_column_text(s, i))))
                    case SQLITE_BLOB:
                        let n = Int(sqlite3_column_bytes(s, i))
                        values.append(n == 0 ? .blob([]) : .blob(Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(s, i), count: n))))
                    case SQLITE_FLOAT: values.append(.integer(Int64(sqlite3_column_double(s, i))))
                    default: values.append(.null)
                    }
                }
                rows.append(Row(values: values, names: names))
            }
            return rows
        }
    }

    public func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> SQLValue {
        try query(sql, parameters).first?.values.first ?? .null
    }

    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) {
        try withStatement(sql, parameters) { (s: OpaquePointer) throws(StorageError) in while try step(s) {} }
    }

    /// The cached statement for `sql`, bound to `parameters`, reset before and after `body`.
    private func withStatement<T>(_ sql: String, _ parameters: [SQLValue],
                                  _ body: (OpaquePointer) throws(StorageError) -> T) throws(StorageError) -> T {
        let s: OpaquePointer
        do { s = try db.cachedStatement(sql: sql).sqliteStatement } catch { throw StorageError(error) }
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        defer { sqlite3_reset(s) }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(s, index)
            case .integer(let n): rc = sqlite3_bind_int64(s, index, n)
            case .text(let text): rc = sqlite3_bind_text(s, index, text, -1, Self.transient)
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(s, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), Self.transient)
                }
            }
            guard rc == SQLITE_OK else { throw .sqlite(code: rc, message: "cannot bind parameter \(index) of: \(sql)") }
        }
        return try body(s)
    }

    /// True while rows come back.
    private func step(_ s: OpaquePointer) throws(StorageError) -> Bool {
        let rc = sqlite3_step(s)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
        throw .sqlite(code: rc, message: message)
    }

    /// SQLite copies bound text and blobs (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Several statements, no parameters (migrations, pragmas).
    public func execute(_ sql: String) throws(StorageError) {
        do { try db.execute(sql: sql) } catch { throw StorageError(error) }
    }

    /// Rows changed by the last statement.
    public var changes: Int { db.changesCount }

    /// `IN (…)` over any number of values, a few hundred bound parameters per statement: `sql` holds
    /// `%@` where the placeholders go, `leading` parameters come first. Only for `IN`, never `NOT IN`:
    /// the placeholders beyond the values are bound to NULL (see `placeholders(for:chunk:)`).
    public func query(in values: some Collection<String>, _ sql: String, leading: [SQLValue] = [],
                      chunk: Int = 400) throws(StorageError) -> [Row] {
        var rows = [Row]()
        var start = values.startIndex
        while start != values.endIndex {
            let end = values.index(start, offsetBy: chunk, limitedBy: values.endIndex) ?? values.endIndex
            let part = values[start..<end]
            let marks = Self.placeholders(for: part.count, chunk: chunk)
            let padding = [SQLValue](repeating: .null, count: marks - part.count)
            rows += try query(sql.replacingOccurrences(of: "%@", with: Array(repeating: "?", count: marks).joined(separator: ",")),
                              leading + part.map { .text($0) } + padding)
            start = end
        }
        return rows
    }

    /// How many placeholders an `IN (…)` of `count` values gets: a power of two from 8, at most `chunk`.
    /// Each distinct count is a statement kept in every connection's cache, and a batch's ids come in
    /// every count: a 60 000-wrap sync held 13 MB of such statements. The rest are NULL,
    /// which `IN` never matches.
    static func placeholders(for count: Int, chunk: Int) -> Int {
        var n = 8
        while n < count { n *= 2 }
        return min(n, max(chunk, count))
    }
}

public enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    public var int: Int64? { if case .integer(let v) = self { return v } else { return nil } }
    public var text: String? { if case .text(let v) = self { return v } else { return nil } }
    public var blob: [UInt8]? { if case .blob(let v) = self { return v } else { return nil } }
}

public struct Row: Sendable {
    public let values: [SQLValue]
    public let names: [String]
    public subscript(_ name: String) -> SQLValue {
        guard let i = names.firstIndex(of: name) else { return .null }
        return values[i]
    }
}

public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case sqlite(code: Int32, message: String)
    case closed
    case corrupt(String)
    case cannotDecrypt(String)
    case io(String)
    /// Another linkstr process holds the data directory.
    case locked(String)

    /// A storage error as is; SQLite's own (from GRDB) with its code and message.
    init(_ error: any Error) {
        switch error {
        case let e as StorageError: self = e
        case let e as DatabaseError: self = .sqlite(code: e.extendedResultCode.rawValue, message: e.message ?? "\(e.resultCode)")
        default: self = .io("\(error)")
        }
    }

    public var description: String {
        switch self {
        case .locked(let m): return m
        case .cannotOpen(let path, let reason): return "cannot open the local database at \(path): \(reason)"
        case .sqlite(let code, let message):
            // The primary result code (low byte) says what a person can do about it.
            switch code & 0xff {
            case 13: return "the disk is full: the change was not saved (nothing stored was lost); free some space and try again."
            case 8: return "the local database is read-only (permissions?): the change was not saved."
            case 10: return "the disk could not be read or written (I/O error \(code)): the change was not saved."
            default: return "database error \(code): \(message)"
            }
        case .closed: return "the database is closed"
        case .corrupt(let what): return "stored data is damaged: \(what)"
        case .cannotDecrypt(let what): return "stored data cannot be decrypted: \(what)"
        case .io(let what): return what
        }
    }
}
