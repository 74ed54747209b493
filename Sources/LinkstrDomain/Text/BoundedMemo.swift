import Synchronization

/// Remembers what a pure function gave for recent inputs, so a screen drawn many times a second does
/// not encode the same npub or parse the same URL on every frame. At most `capacity` entries: when full
/// it starts again empty (hostile input can fill it, never grow it). Safe from any thread.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int
    private let compute: @Sendable (Key) -> Value

    public init(capacity: Int, _ compute: @escaping @Sendable (Key) -> Value) {
        self.capacity = capacity
        self.compute = compute
    }

    public func callAsFunction(_ key: Key) -> Value {
        if let known = entries.withLock({ $0[key] }) { return known }
        let value = compute(key)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}
