import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A new file only this user can read (0600), written whole and synced, never over an existing one:
/// backups and the note handed to an editor both hold what must not leak or be half-written.
public enum PrivateFile {
    public enum Failure: Error, Equatable, Sendable {
        case exists
        /// The system's reason (`strerror`).
        case cannotCreate(String)
        /// Writing or syncing failed (disk full?); the partial file was removed.
        case writeFailed
    }

    public static func create(_ data: Data, at path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw errno == EEXIST ? .exists : .cannotCreate(String(cString: strerror(errno))) }
        var failed = false
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; failed = true; return }
                offset += n
            }
        }
        if !failed && fsync(fd) != 0 { failed = true }
        close(fd)
        if failed {
            unlink(path)
            throw .writeFailed
        }
    }
}
