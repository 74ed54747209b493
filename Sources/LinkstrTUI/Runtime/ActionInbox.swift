import Foundation
import LinkstrApp
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Actions answered by effects on background threads, waiting for the UI thread. Posting also writes a
/// byte to a pipe so the UI thread, asleep in `poll`, wakes at once instead of on its next timeout.
public final class ActionInbox: Sendable {
    private let actions = Mutex<[AppAction]>([])
    /// [read end, write end]; both non-blocking.
    public let wakeDescriptors: (read: Int32, write: Int32)

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        wakeDescriptors = (fds[0], fds[1])
    }

    deinit {
        close(wakeDescriptors.read)
        close(wakeDescriptors.write)
    }

    public func post(_ action: AppAction) {
        actions.withLock { $0.append(action) }
        wake()
    }

    /// Wakes the UI thread without an action (a signal arrived).
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptors.write, &byte, 1)  // a full pipe already means "wake up"
    }

    public func drain() -> [AppAction] {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptors.read, &sink, sink.count) > 0 {}
        return actions.withLock { actions in defer { actions = [] }; return actions }
    }
}
