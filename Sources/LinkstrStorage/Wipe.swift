import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The emergency wipe: every identity and all of linkstr's data on this device, without the network.
///
/// Crypto-erase first: the key files (NIP-49 ncryptsec) are overwritten with random bytes and synced,
/// and each account's wrapped data key is overwritten in the database (with SQLite's secure delete on),
/// so that a copy of the database taken earlier, or blocks the file system keeps, cannot be opened
/// again. Then linkstr's own files are removed (`DataFiles` names them), and the directories they
/// leave empty: anything else in a data directory is someone else's and stays.
public enum Wipe {
    public struct Report: Equatable, Sendable {
        public let identities: Int
        public let files: Int
        /// What was not linkstr's and was left where it was (paths).
        public let kept: [String]
    }

    public static func run(_ paths: DataPaths) throws -> Report {
        let fm = FileManager.default
        // 1. The key files: overwritten in place, synced, then removed with the rest.
        var identities = 0
        // A key file that cannot be listed must stop the wipe, not be skipped.
        let keyFiles = fm.fileExists(atPath: paths.identities.path) ? try fm.contentsOfDirectory(at: paths.identities, includingPropertiesForKeys: nil) : []
        for url in keyFiles where DataFiles.isOwnFile(url.lastPathComponent, in: .identities) {
            try overwrite(url)
            if url.pathExtension == "ncryptsec" { identities += 1 }
        }
        // 2. The wrapped data keys: replaced by random bytes of the same length, then the WAL folded in.
        if fm.fileExists(atPath: paths.database.path) {
            // A database that will not open (damaged, not ours) still has every byte overwritten below.
            if let db = try? Database(path: paths.database.path) {
                try db.execute("PRAGMA secure_delete = ON")
                try db.execute("UPDATE accounts SET wrapped_data_key = randomblob(length(wrapped_data_key))")
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                try db.close()
            }
            for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: paths.database.path + suffix) {
                try overwrite(URL(fileURLWithPath: paths.database.path + suffix))
            }
        }
        // 3. linkstr's own files, then the directories that are left empty (deepest first).
        var removal = Removal()
        try removal.files(in: paths.identities, .identities)
        try removal.files(in: paths.home, .home)
        try removal.files(in: paths.state, .state)
        try removal.files(in: paths.config.appendingPathComponent("themes", isDirectory: true), .themes)
        try removal.files(in: paths.config, .config)
        if let names = try? fm.contentsOfDirectory(atPath: paths.cache.path) {
            for name in names where DataFiles.isAccountCache(name) {
                let url = paths.cache.appendingPathComponent(name, isDirectory: true)
                removal.count += (fm.enumerator(atPath: url.path)?.allObjects.count ?? 0) + 1
                try fm.removeItem(at: url)
            }
        }
        for dir in [paths.identities, paths.config.appendingPathComponent("themes", isDirectory: true), paths.cache, paths.config, paths.state, paths.home] {
            try removal.directoryIfEmpty(dir)
        }
        return Report(identities: identities, files: removal.count, kept: removal.kept)
    }

    /// Removes what `DataFiles` names, counting it; notes what it leaves.
    struct Removal {
        var count = 0
        var kept = [String]()

        mutating func files(in dir: URL, _ place: DataFiles.Place) throws {
            let fm = FileManager.default
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { return }
            for name in names.sorted() where DataFiles.isOwnFile(name, in: place) {
                try fm.removeItem(at: dir.appendingPathComponent(name))
                count += 1
            }
        }

        /// Removes `dir` when nothing is left in it; otherwise names what stays.
        mutating func directoryIfEmpty(_ dir: URL) throws {
            let fm = FileManager.default
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { return }
            if names.isEmpty {
                try fm.removeItem(at: dir)
                count += 1
            } else {
                // A subdirectory that is one of ours is named when its own turn comes.
                let ours = Set(["identities", "cache", "config", "state", "themes"])
                kept += names.sorted().filter { !ours.contains($0) || !fm.fileExists(atPath: dir.appendingPathComponent($0).path) }
                    .map { dir.appendingPathComponent($0).path }
            }
        }
    }

    /// Random bytes over the whole file, synced to disk.
    static func overwrite(_ url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError.io("cannot overwrite \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var size = lseek(fd, 0, SEEK_END)
        lseek(fd, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while size > 0 {
            let n = Int(min(size, off_t(chunk.count)))
            chunk.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, n) }
            guard write(fd, chunk, n) == n else { throw StorageError.io("cannot overwrite \(url.path): \(String(cString: strerror(errno)))") }
            size -= off_t(n)
        }
        fsync(fd)
    }
}
