import LinkstrDomain
import Synchronization

/// The session list the screen last asked for (active, archived, requests), read by the updates task
/// to push news into that list.
final class ShownList: Sendable {
    private let list = Mutex(SessionList.active)
    var value: SessionList {
        get { list.withLock { $0 } }
        set { list.withLock { $0 = newValue } }
    }
}
