import Foundation
import LinkstrDomain
import NostrProtocol

/// The data directory: identities, the database and caches, private to the user.
public struct DataPaths: Sendable, Equatable {
    public let home: URL
    public let cache: URL
    public let config: URL
    /// The log (`linkstr.log`): `$XDG_STATE_HOME/linkstr`, or `state` under `--home`.
    public let state: URL

    public var identities: URL { home.appendingPathComponent("identities", isDirectory: true) }
    public var database: URL { home.appendingPathComponent("linkstr.sqlite3") }

    /// `--home DIR` keeps everything under DIR; otherwise the XDG base directories.
    public static func resolve(home: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DataPaths {
        if let home {
            let root = URL(fileURLWithPath: (home as NSString).expandingTildeInPath, isDirectory: true).standardizedFileURL
            return DataPaths(home: root, cache: root.appendingPathComponent("cache", isDirectory: true),
                             config: root.appendingPathComponent("config", isDirectory: true),
                             state: root.appendingPathComponent("state", isDirectory: true))
        }
        let user = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func xdg(_ variable: String, _ fallback: String) -> URL {
            if let v = environment[variable], v.hasPrefix("/") { return URL(fileURLWithPath: v, isDirectory: true) }
            return user.appendingPathComponent(fallback, isDirectory: true)
        }
        return DataPaths(home: xdg("XDG_DATA_HOME", ".local/share").appendingPathComponent("linkstr", isDirectory: true),
                         cache: xdg("XDG_CACHE_HOME", ".cache").appendingPathComponent("linkstr", isDirectory: true),
                         config: xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("linkstr", isDirectory: true),
                         state: xdg("XDG_STATE_HOME", ".local/state").appendingPathComponent("linkstr", isDirectory: true))
    }

    /// `--home`'s value as given: an empty one would be the current directory (a script's unset
    /// variable), so it is refused with words, never resolved.
    public static func checkHome(_ home: String?) throws(StorageError) {
        if let home, home.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .io("--home is empty; name the data directory (an empty value would be the current directory).")
        }
    }

    /// Creates the directories 0700 (and tightens existing ones), once `home` is known to be linkstr's
    /// (`DataFiles.isAdoptable`): a directory holding only someone else's files is refused untouched.
    public func prepare() throws(StorageError) {
        guard DataFiles.isAdoptable(self) else { throw .io(DataFiles.refusal(self)) }
        for dir in [home, identities, cache, config] {
            var info = stat()
            if stat(dir.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                // Another user's directory is refused untouched, never adopted; ours is tightened.
                if info.st_uid != geteuid() { throw .io(FileTrust.distrust(dir.path, allowRoot: false) ?? "\(dir.path) belongs to another user") }
                // Tightened only when needed: on a read-only home (still readable) there is nothing to change.
                if info.st_mode & 0o777 != 0o700, chmod(dir.path, 0o700) != 0, errno != EROFS {
                    throw .io("cannot make \(dir.path) private (0700): \(String(cString: strerror(errno)))")
                }
                continue
            }
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
            } catch {
                throw .io("cannot create \(dir.path): \(FileErrorWords.reason(error))")
            }
        }
    }

    /// Whether the data directory can be written (false on a read-only mount, or without permission).
    public var isWritable: Bool { access(home.path, W_OK) == 0 }

    /// Per-account cache (thumbnails, extracted media).
    public func cache(for owner: Pubkey) -> URL { cache.appendingPathComponent(owner, isDirectory: true) }
}

/// Opens the database (migrated) and the accounts inside it.
public final class LocalStore: Sendable {
    public let db: Database
    public let paths: DataPaths?

    /// The on-disk store. A clear `StorageError` (never a crash) when it cannot be opened.
    /// An existing file must be a linkstr database: an empty or foreign file is reported, never reused
    /// (SQLite would take a zero-byte file for a new database and the old data would look gone). A new
    /// database is created and migrated under a temporary name, then renamed into place.
    public init(paths: DataPaths) throws(StorageError) {
        try paths.prepare()
        self.paths = paths
        let path = paths.database.path
        let exists = FileManager.default.fileExists(atPath: path)
        if exists { try Self.checkExisting(path) }
        if !paths.isWritable {
            // Reading still works where nothing can be written; a change says "read-only".
            guard exists else { throw .cannotOpen(path: path, reason: "the data directory is read-only and holds no linkstr database.") }
            db = try Database(readingOnly: path)
            try Migrations.checkCurrent(db)
            return
        }
        if !exists { try Self.create(path) }
        db = try Database(path: path)
        try Migrations.migrate(db)
        Database.restrictPermissions(path)
    }

    /// The SQLite header, and a schema this build wrote (user_version ≥ 1).
    static func checkExisting(_ path: String) throws(StorageError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .cannotOpen(path: path, reason: "it cannot be read (permissions?).") }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        let left = " The file was left as it is: move it away to start afresh, or restore it from a backup."
        if header.isEmpty { throw .cannotOpen(path: path, reason: "the file is empty (0 bytes), so it holds no linkstr data." + left) }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw .cannotOpen(path: path, reason: "the file is not an SQLite database." + left)
        }
        // Bytes 60–63: the user_version; 0 is a database that linkstr never set up.
        let version = header[60..<64].reduce(0) { $0 << 8 | Int($1) }
        if version == 0 { throw .cannotOpen(path: path, reason: "the file is not a linkstr database." + left) }
    }

    static func create(_ path: String) throws(StorageError) {
        removeAbandonedTemporaries(of: path)
        let temporary = path + ".new-\(UUID().uuidString)"
        do {
            let fresh = try Database(path: temporary)
            try Migrations.migrate(fresh)
            try fresh.checkpoint()
            try fresh.close()
        } catch {
            throw .cannotOpen(path: path, reason: "a new database could not be created: \(error)" + removeTemporary(temporary, keeping: false))
        }
        // Closing checkpointed the journal; any journal files left of the temporary name go before the rename.
        let leftover = removeTemporary(temporary, keeping: true)
        guard leftover.isEmpty else { throw .cannotOpen(path: path, reason: "a new database could not be set up" + leftover) }
        guard rename(temporary, path) == 0 else {
            let reason = "a new database could not be moved into place (errno \(errno))"
            throw .cannotOpen(path: path, reason: reason + removeTemporary(temporary, keeping: false))
        }
    }

    /// Temporary databases of a first run that was killed (`linkstr.sqlite3.new-<UUID>` and journals),
    /// once they are ten minutes old: a younger one may belong to another process creating it now.
    static func removeAbandonedTemporaries(of path: String, olderThan age: TimeInterval = 600, now: Date = Date()) {
        let directory = (path as NSString).deletingLastPathComponent, prefix = (path as NSString).lastPathComponent + ".new-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let file = (directory as NSString).appendingPathComponent(name)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > age else { continue }
            // Best effort: a file that stays is only disk space, and the next first run tries again.
            do { try FileManager.default.removeItem(atPath: file) } catch { continue }
        }
    }

    /// Removes the temporary database's files (its journal files only with `keeping`); names what could
    /// not be removed, so that nothing is left behind without a word.
    static func removeTemporary(_ temporary: String, keeping: Bool) -> String {
        var left = [String]()
        for suffix in (keeping ? ["-wal", "-shm"] : ["", "-wal", "-shm"]) where FileManager.default.fileExists(atPath: temporary + suffix) {
            do { try FileManager.default.removeItem(atPath: temporary + suffix) } catch { left.append(temporary + suffix) }
        }
        return left.isEmpty ? "" : "; left behind: " + left.joined(separator: ", ")
    }

    /// A temporary store for this run only (the recovery screen's "continue in memory").
    public init(inMemory: Void = ()) throws(StorageError) {
        paths = nil
        db = try Database(path: ":memory:")
        try Migrations.migrate(db)
    }

    public func account(_ secretKey: SecretKey, now: Int64) throws -> AccountStore {
        try AccountStore.open(db, secretKey: secretKey, now: now)
    }

    /// False when the account's stored data key is damaged (see `rebuildAccount`).
    public func dataKeyOpens(_ secretKey: SecretKey) throws -> Bool { try AccountStore.dataKeyOpens(db, secretKey: secretKey) }

    /// An account whose data key is damaged, started afresh (relays kept); refused when the key opens.
    public func rebuildAccount(_ secretKey: SecretKey, now: Int64) throws -> AccountStore {
        guard try !dataKeyOpens(secretKey) else { throw StorageError.io("this account's data key opens: there is nothing to rebuild (`linkstr repair` checks the rows).") }
        let store = try AccountStore.rebuild(db, secretKey: secretKey, now: now)
        do { try db.checkpoint() } catch { storageLog.warning("WAL checkpoint after a rebuild failed: \(error)") }
        return store
    }

    /// The account's sealed media cache, under its cache directory (nil for a store in memory).
    /// `removingLeftovers`: what a killed save left behind goes now, for a caller holding the data lock
    /// (a reading command runs beside the app, whose save under way must keep its file). Best effort:
    /// the cache works with or without it.
    public func mediaCache(for store: AccountStore, limitBytes: Int64, removingLeftovers: Bool = false) -> MediaCache? {
        guard let paths else { return nil }
        let cache = MediaCache(directory: paths.cache(for: store.owner).appendingPathComponent("media", isDirectory: true), cipher: store.cipher,
                               limitBytes: limitBytes)
        if removingLeftovers {
            do { try cache.removeLeftovers() } catch { storageLog.warning("the media cache's unfinished files: \(error)") }
        }
        return cache
    }

    /// Removes an account's rows and cached files ("log out and clear local data").
    public func clearAccount(_ store: AccountStore) throws {
        try store.deleteAllData()
        // The cached files were sealed with the data key just deleted: left behind they are noise, not data.
        if let paths, FileManager.default.fileExists(atPath: paths.cache(for: store.owner).path) {
            do { try FileManager.default.removeItem(at: paths.cache(for: store.owner)) } catch {
                storageLog.warning("could not remove an account's cache directory: \(type(of: error))")
            }
        }
    }
}
