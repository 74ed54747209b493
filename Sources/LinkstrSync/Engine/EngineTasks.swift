import Synchronization

/// Every task the engine starts (timers, debounces, uploads, deliveries, the queue's passes, the pool
/// consumer), kept until it ends: `stop()` cancels all of them, and a task started after the engine
/// stopped is cancelled at birth, so nothing of a stopped engine keeps running (checked by
/// `EngineWaitersTests`). A class behind a lock, not actor state: a task takes itself out when it
/// ends without hopping back onto the engine (which it may hold only weakly).
final class EngineTasks: Sendable {
    private struct State {
        var next = 0
        var running: [Int: Task<Void, Never>] = [:]
        var stopped = false
    }

    private let state = Mutex(State())

    /// Starts `body` as a task of the engine's. Registered before it can end (it takes the lock to go).
    @discardableResult
    func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { s in
            let id = s.next
            s.next += 1
            let task = Task { [weak self] in
                await body()
                self?.ended(id)
            }
            if s.stopped { task.cancel() } else { s.running[id] = task }
            return task
        }
    }

    private func ended(_ id: Int) { _ = state.withLock { $0.running.removeValue(forKey: id) } }

    /// Cancels every task still running; with `stopping`, those started later too.
    func cancelAll(stopping: Bool) {
        let running = state.withLock { s in
            if stopping { s.stopped = true }
            return Array(s.running.values)
        }
        for task in running { task.cancel() }
    }

    /// Tasks started and not ended yet (tests).
    var count: Int { state.withLock { $0.running.count } }
    /// The tasks not ended yet, to wait for (tests).
    var handles: [Task<Void, Never>] { state.withLock { Array($0.running.values) } }
}
