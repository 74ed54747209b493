import CSQLite
import Foundation

/// One SQLite connection (WAL, foreign keys, secure_delete), serialized by a lock so that any
/// thread may use it; in practice the runtime's background queue does.
public final class Database: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let lock = NSRecursiveLock()
    /// Prepared statements by SQL text: preparing is a large share of a small statement's cost.
    private var statements: [String: Statement] = [:]
    public let path: String

    /// Opens (creating if needed) the database at `path`, or an in-memory one for ":memory:".
    public init(path: String) throws(StorageError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw .cannotOpen(path: path, reason: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
        do {
            // A garbage file opens fine and fails at the first read: check now, with a clear error.
            try execute("PRAGMA foreign_keys = ON")
            if path != ":memory:" { try execute("PRAGMA journal_mode = WAL") }
            try execute("PRAGMA secure_delete = ON")
            try execute("PRAGMA synchronous = NORMAL")
        } catch {
            sqlite3_close(db)
            handle = nil
            throw .cannotOpen(path: path, reason: error.description)
        }
        if path != ":memory:" { Database.restrictPermissions(path) }
    }

    deinit {
        statements.removeAll()
        sqlite3_close(handle)
    }

    /// Files 0600 (SQLite creates -wal and -shm with the database's mode, but make sure).
    static func restrictPermissions(_ path: String) {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            chmod(path + suffix, 0o600)
        }
    }

    public func execute(_ sql: String) throws(StorageError) {
        try locked { () throws(StorageError) in
            var error: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(handle, sql, nil, nil, &error)
            if rc != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? "error \(rc)"
                sqlite3_free(error)
                throw .sqlite(code: rc, message: message)
            }
        }
    }

    /// Runs `sql` once per parameter row (or once with none).
    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) {
        try locked { () throws(StorageError) in
            let statement = try prepared(sql)
            defer { statement.reset() }
            try statement.bind(parameters)
            while try statement.step() {}
        }
    }

    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> [Row] {
        try locked { () throws(StorageError) -> [Row] in
            let statement = try prepared(sql)
            defer { statement.reset() }
            try statement.bind(parameters)
            var rows = [Row]()
            while try statement.step() { rows.append(statement.row()) }
            return rows
        }
    }

    private func prepared(_ sql: String) throws(StorageError) -> Statement {
        if let s = statements[sql] { return s }
        let s = try Statement(self, sql)
        if statements.count > 256 { statements.removeAll() }
        statements[sql] = s
        return s
    }

    public func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> SQLValue {
        try query(sql, parameters).first?.values.first ?? .null
    }

    /// A transaction: committed when `body` returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var changes: Int { locked { Int(sqlite3_changes(handle)) } }

    func withHandle<T>(_ body: (OpaquePointer) throws(StorageError) -> T) throws(StorageError) -> T {
        guard let handle else { throw .closed }
        return try body(handle)
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
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

final class Statement {
    private var statement: OpaquePointer?
    private unowned let database: Database
    private lazy var names: [String] = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }

    init(_ database: Database, _ sql: String) throws(StorageError) {
        self.database = database
        try database.withHandle { (db: OpaquePointer) throws(StorageError) in
            var s: OpaquePointer?
            let rc = sqlite3_prepare_v2(db, sql, -1, &s, nil)
            guard rc == SQLITE_OK else { throw .sqlite(code: rc, message: String(cString: sqlite3_errmsg(db))) }
            statement = s
        }
    }

    deinit { sqlite3_finalize(statement) }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func bind(_ values: [SQLValue]) throws(StorageError) {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let n): rc = sqlite3_bind_int64(statement, index, n)
            case .text(let s): rc = sqlite3_bind_text(statement, index, s, -1, sw_sqlite_transient())
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), sw_sqlite_transient()) }
            }
            guard rc == SQLITE_OK else { throw .sqlite(code: rc, message: "bind \(index)") }
        }
    }

    /// True while rows come back.
    func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = try database.withHandle { String(cString: sqlite3_errmsg($0)) }
        throw .sqlite(code: rc, message: message)
    }

    func row() -> Row {
        let count = sqlite3_column_count(statement)
        var values = [SQLValue]()
        values.reserveCapacity(Int(count))
        for i in 0..<count {
            switch sqlite3_column_type(statement, i) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, i)))
            case SQLITE_TEXT: values.append(.text(String(cString: sqlite3_column_text(statement, i))))
            case SQLITE_BLOB:
                let n = Int(sqlite3_column_bytes(statement, i))
                if n == 0 { values.append(.blob([])) } else {
                    values.append(.blob(Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, i), count: n))))
                }
            default: values.append(.null)
            }
        }
        return Row(values: values, names: names)
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

    public var description: String {
        switch self {
        case .locked(let m): return m
        case .cannotOpen(let path, let reason): return "cannot open the local database at \(path): \(reason)"
        case .sqlite(let code, let message): return "database error \(code): \(message)"
        case .closed: return "the database is closed"
        case .corrupt(let what): return "stored data is damaged: \(what)"
        case .cannotDecrypt(let what): return "stored data cannot be decrypted: \(what)"
        case .io(let what): return what
        }
    }
}
