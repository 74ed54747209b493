import Synchronization

/// A small mutual-exclusion lock for classes that guard mutable state by hand.
public final class Lock: Sendable {
    private let mutex = Mutex<Void>(())
    public init() {}
    @inline(__always)
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body() }
    }
}
