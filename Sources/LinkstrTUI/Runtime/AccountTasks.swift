import LinkstrApp
import Synchronization

/// The open account's background work. Every task the runner starts for the account is kept here and
/// cancelled when the account goes (log out, switch identity, wipe, delete); what such a task answers
/// afterwards is dropped, so nothing of one account reaches the screen of the next.
final class AccountTasks: Sendable {
    private struct State {
        var generation = 0
        var next = 0
        var tasks: [Int: Task<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    /// Starts `work` for the account open now; its `answer` reaches `dispatch` only while that account is.
    func start(_ dispatch: @escaping @Sendable (AppAction) -> Void,
               _ work: @escaping @Sendable (_ answer: @escaping @Sendable (AppAction) -> Void) async -> Void) {
        state.withLock { s in
            let generation = s.generation, id = s.next
            s.next += 1
            let answer: @Sendable (AppAction) -> Void = { [weak self] action in
                guard let self, self.state.withLock({ $0.generation }) == generation else { return }
                dispatch(action)
            }
            // The task may end before it is stored (it waits for this lock to remove itself): harmless.
            s.tasks[id] = Task { [weak self] in
                await work(answer)
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// The account went: its tasks are cancelled and their answers from now on dropped.
    func cancelAll() {
        let running = state.withLock { s -> [Task<Void, Never>] in
            s.generation += 1
            defer { s.tasks = [:] }
            return Array(s.tasks.values)
        }
        for task in running { task.cancel() }
    }

    /// Tasks still running (for tests).
    var running: Int { state.withLock { $0.tasks.count } }
}
