import Dispatch

/// A serial executor on a dispatch queue of its own. The effect runner does blocking I/O (SQLite, the
/// vault's files): as an actor on this executor it does it here, not on the cooperative pool, whose few
/// threads the sync engine and the relay sockets need.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label, qos: .userInitiated) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job), executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
