import Synchronization

/// The open account's background work. Every task started for the account is kept here and cancelled
/// when the account closes (log out, switch identity, wipe, delete); what such a task delivers
/// afterwards is dropped, so nothing of one account reaches the screen of the next.
public final class AccountTasks: Sendable {
    /// Hands a task's answer over, only while the account that started it is open.
    public typealias Deliver = @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void

    private struct State {
        var generation = 0
        var next = 0
        var tasks: [Int: Task<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// A `Deliver` for work not started here (a stream the front end reads): it hands answers over only
    /// while the account open now is.
    public func deliverer() -> Deliver {
        let generation = state.withLock { $0.generation }
        return { [weak self] answer in
            guard let self, self.state.withLock({ $0.generation }) == generation else { return }
            answer()
        }
    }

    /// Starts `work` for the account open now; what it `deliver`s runs only while that account is.
    public func start(_ work: @escaping @Sendable (_ deliver: @escaping Deliver) async -> Void) {
        let deliver = deliverer()
        state.withLock { s in
            let id = s.next
            s.next += 1
            // The task may end before it is stored (it waits for this lock to remove itself): harmless.
            s.tasks[id] = Task { [weak self] in
                await work(deliver)
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// The account went: its tasks are cancelled and their answers from now on dropped.
    public func cancelAll() {
        let running = state.withLock { s -> [Task<Void, Never>] in
            s.generation += 1
            defer { s.tasks = [:] }
            return Array(s.tasks.values)
        }
        for task in running { task.cancel() }
    }

    /// Tasks still running (for tests).
    public var running: Int { state.withLock { $0.tasks.count } }
}
