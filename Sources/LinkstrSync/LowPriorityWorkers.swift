import Foundation
import Synchronization

/// Threads of their own for the bulk work of a sync, opening gift wraps (an ECDH and a signature check
/// each), ten steps of niceness below the thread that starts them: below the rest of the process (the
/// screen, receiving, the store's writer) and below other programs, so that they take what the cores
/// leave and a cold sync never makes keys, the network or a relay on the same machine wait. With
/// nostr-relay sharing the two cores (`linkstr-bench speed`) a cold sync went from 2.71–2.88 s to
/// 2.33–2.44 s: the relay, which sets the pace there, is no longer starved by our unwrapping.
///
/// Dispatch's threads are shared, and a niceness set on one cannot be undone without privilege:
/// hence threads of their own, made with the pool on first use and kept for the process's life, as
/// Dispatch's are.
final class LowPriorityWorkers: Sendable {
    static let shared = LowPriorityWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount))
    static let niceness: Int32 = 10

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    /// Starts the threads (`shared` is made on first use, so they are too).
    init(threads: Int) {
        for n in 0..<threads { start(n) }
    }

    /// Runs `body` on `copies` workers at once (each takes its share of a common index) and returns when
    /// every copy has returned. It blocks the calling thread: call it off the cooperative pool.
    func perform(_ copies: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchGroup()
        for _ in 0..<copies {
            done.enter()
            jobs.withLock { $0.append { body(); done.leave() } }
            waiting.signal()
        }
        done.wait()
    }

    private func start(_ n: Int) {
        let thread = Thread { [self] in
            // Named from inside: the name shows in `top -H` and profiles.
            Thread.current.name = "unwrap.\(n)"  // at most 15 bytes (Linux)
            // On Linux the nice value is the calling thread's own (who = 0): the rest of the process keeps its own.
            // Relative to what the thread was started with (a process already niced goes lower still).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, Self.currentNiceness() + Self.niceness))
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.start()
    }

    /// The calling thread's nice value (for tests).
    static func currentNiceness() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
