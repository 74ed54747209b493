import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization

/// Standard output for a stream of lines: each written at once; once the reader has gone (EPIPE), the
/// stream stops writing and says so, so the command can end cleanly instead of dying on the signal.
final class LineWriter: Sendable {
    private let closed = Atomic<Bool>(false)
    var readerGone: Bool { closed.load(ordering: .relaxed) }

    /// Whether the reader of standard output went (a pipe whose other end closed): asked without writing,
    /// so a quiet stream ends too.
    func readerWent() -> Bool {
        if readerGone { return true }
        var fd = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        guard poll(&fd, 1, 0) == 1, fd.revents & Int16(POLLERR | POLLHUP) != 0 else { return false }
        closed.store(true, ordering: .relaxed)
        return true
    }

    /// Looks every quarter second whether the reader went; when it did, `stop` is told.
    func watch(_ stop: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                if readerWent() { stop.yield(()); return }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// False when the line could not be written (the reader went).
    func write(_ text: String) -> Bool {
        guard !readerGone else { return false }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
            return true
        } catch {
            closed.store(true, ordering: .relaxed)
            return false
        }
    }
}

/// SIGINT and SIGTERM end a follow early (the summary still comes, exit 0), and a reader that goes is
/// an error to see (EPIPE), not a signal to die of. `cancel()` gives the signals back.
final class FollowSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ stop: AsyncStream<Void>.Continuation) {
        signal(SIGPIPE, SIG_IGN)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.yield(()) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
