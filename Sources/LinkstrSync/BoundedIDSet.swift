import NostrProtocol

/// A map from event ids that forgets its oldest entries beyond `capacity` (a cache of what was seen,
/// bounded whatever a relay sends).
struct BoundedIDMap<Value> {
    let capacity: Int
    private var values = [EventID: Value]()
    private var order: [EventID] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    subscript(_ id: EventID) -> Value? { values[id] }

    /// Keeps `value` for `id` unless `id` is already kept (the first value stays).
    mutating func insert(_ id: EventID, _ value: Value) {
        guard values[id] == nil else { return }
        values[id] = value
        if order.count < capacity {
            order.append(id)
        } else {
            values[order[head]] = nil
            order[head] = id
            head = (head + 1) % capacity
        }
    }

    var count: Int { values.count }
}

/// A set of event ids that forgets its oldest entries beyond `capacity` (a negative cache for junk).
struct BoundedIDSet {
    private var map: BoundedIDMap<Void>

    init(capacity: Int) { map = BoundedIDMap(capacity: capacity) }

    var capacity: Int { map.capacity }
    func contains(_ id: EventID) -> Bool { map[id] != nil }
    mutating func insert(_ id: EventID) { map.insert(id, ()) }
    var count: Int { map.count }
}

extension BoundedIDMap: Sendable where Value: Sendable {}
extension BoundedIDSet: Sendable {}
