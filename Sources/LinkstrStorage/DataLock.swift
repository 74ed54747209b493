import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One linkstr process per data directory: an exclusive `flock` on `lock` in the data directory,
/// holding the owner's pid. Released when the process exits (the kernel drops it), or on `release`.
public final class DataLock: Sendable {
    /// The locked file's descriptor; -1 once released.
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    deinit { release() }

    public func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    /// Takes the lock, trying again until `wait` has passed; a clear error names the holder's pid.
    public static func acquire(_ paths: DataPaths, wait: TimeInterval = 0) throws(StorageError) -> DataLock {
        try paths.prepare()
        let path = paths.home.appendingPathComponent("lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EROFS || errno == EACCES || errno == EPERM {
                throw .io("the data directory \(paths.home.path) is read-only: this command changes data, so it cannot run here "
                          + "(reading commands work).")
            }
            throw .io("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                var buffer = [UInt8](repeating: 0, count: 32)
                let n = pread(fd, &buffer, 31, 0)
                close(fd)
                let pid = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
                throw .locked("another linkstr (pid \(pid)) is using \(paths.home.path); quit it first.")
            }
            usleep(50_000)
        }
        let text = Array("\(getpid())\n".utf8)
        ftruncate(fd, 0)
        _ = pwrite(fd, text, text.count, 0)
        return DataLock(descriptor: fd)
    }
}
