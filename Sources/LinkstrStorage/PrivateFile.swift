import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A new file only this user can read (0600), written whole and synced, never over an existing one:
/// backups, key files and the note handed to an editor all hold what must not leak or be half-written.
///
/// The bytes go to a hidden temporary name beside the target, are synced, and only then appear under
/// the final name (`link(2)`, which also refuses an existing name atomically); the directory is synced
/// after. A process killed mid-write leaves at most the hidden temporary, never a truncated file under
/// the name a later import or export would read.
public enum PrivateFile {
    public enum Failure: Error, Equatable, Sendable {
        case exists
        /// The system's reason (`strerror`).
        case cannotCreate(String)
        /// Writing or syncing failed (disk full?); the partial file was removed.
        case writeFailed
    }

    /// A new file at `path`; `.exists` when the name is taken.
    public static func create(_ data: Data, at path: String) throws(Failure) {
        try write(data, at: path, replacing: false)
    }

    /// The file at `path`, written anew or replacing what is there (key files).
    public static func replace(_ data: Data, at path: String) throws(Failure) {
        try write(data, at: path, replacing: true)
    }

    /// `written` runs once the bytes are on disk under the temporary name, before they get the final
    /// one: the moment a kill would interrupt (tests look at the directory there).
    static func write(_ data: Data, at path: String, replacing: Bool, written: (String) -> Void = { _ in }) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        if !replacing && access(path, F_OK) == 0 { throw .exists }
        let prefix = "." + url.lastPathComponent + ".partial-"
        removeLeftovers(in: directory, prefix: prefix)
        let temporary = directory + "/" + prefix + UUID().uuidString
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotCreate(String(cString: strerror(errno))) }
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
            unlink(temporary)
            throw .writeFailed
        }
        written(temporary)
        if replacing {
            guard rename(temporary, path) == 0 else {
                let why = String(cString: strerror(errno))
                unlink(temporary)
                throw .cannotCreate(why)
            }
        } else {
            let linked = link(temporary, path)
            let linkErrno = errno
            unlink(temporary)
            guard linked == 0 else { throw linkErrno == EEXIST ? .exists : .cannotCreate(String(cString: strerror(linkErrno))) }
        }
        syncDirectory(directory)
    }

    /// The temporaries a killed write of this same file left (ours only: another user's are not touched).
    /// Best effort: a leftover that stays costs room, nothing else.
    static func removeLeftovers(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFREG else { continue }
            unlink(path)
        }
    }

    /// A rename or link is durable only once its directory is synced.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
