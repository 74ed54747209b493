import NostrProtocol

/// A set of event ids that forgets its oldest entries beyond `capacity` (a negative cache for junk).
struct BoundedIDSet {
    let capacity: Int
    private var members = Set<EventID>()
    private var order: [EventID] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    func contains(_ id: EventID) -> Bool { members.contains(id) }

    mutating func insert(_ id: EventID) {
        guard members.insert(id).inserted else { return }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[head])
            order[head] = id
            head = (head + 1) % capacity
        }
    }

    var count: Int { members.count }
}
