import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The emergency wipe: every identity and all of linkstr's data on this device, without the network.
///
/// Crypto-erase first: the key files (NIP-49 ncryptsec) are overwritten with random bytes and synced,
/// and each account's wrapped data key is overwritten in the database (with SQLite's secure delete on),
/// so that a copy of the database taken earlier, or blocks the file system keeps, cannot be opened
/// again. Then the data, cache, config and state directories are removed.
public enum Wipe {
    public struct Report: Equatable, Sendable {
        public let identities: Int
        public let files: Int
    }

    public static func run(_ paths: DataPaths) throws -> Report {
        let fm = FileManager.default
        // 1. The key files: overwritten in place, synced, then removed with the rest.
        var identities = 0
        // A key file that cannot be listed must stop the wipe, not be skipped.
        let keyFiles = fm.fileExists(atPath: paths.identities.path) ? try fm.contentsOfDirectory(at: paths.identities, includingPropertiesForKeys: nil) : []
        for url in keyFiles {
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
            }
            for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: paths.database.path + suffix) {
                try overwrite(URL(fileURLWithPath: paths.database.path + suffix))
            }
        }
        // 3. Everything else linkstr keeps, directories included.
        var files = 0
        for dir in [paths.cache, paths.config, paths.state, paths.home] where fm.fileExists(atPath: dir.path) {
            files += (fm.enumerator(atPath: dir.path)?.allObjects.count ?? 0)
            try fm.removeItem(at: dir)
        }
        return Report(identities: identities, files: files)
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
