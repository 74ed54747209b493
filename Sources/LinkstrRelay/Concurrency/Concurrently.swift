/// The one way an actor fans work out to child tasks.
///
/// A task group's body is a closure that is not `@Sendable`: Swift 6.3 runs it on the caller's actor
/// only when it captures `self`, otherwise on the global executor, yet its checks treat whatever it
/// captures as staying with the caller. A lazy chain or a closure over the actor's state captured there
/// ran off the actor and aborted every command ("Incorrect actor executor assumption"). Here the inputs
/// are an array of `Sendable` items and the work is `@Sendable`, so the compiler refuses anything that
/// touches the actor's state: materialise it on the actor first, hand over values.
public enum Concurrently {
    /// `work` on each item, at most `limit` at a time; the results in the items' order. Cancelling the
    /// caller cancels the children (structured: nothing outlives the call).
    public static func map<Item: Sendable, Result: Sendable>(_ items: [Item], atMost limit: Int = .max,
                                                             _ work: @escaping @Sendable (Item) async -> Result) async -> [Result] {
        guard !items.isEmpty else { return [] }
        let width = max(1, min(limit, items.count))
        return await withTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: items.count), next = 0
            while next < width {
                let index = next, item = items[index]
                group.addTask { (index, await work(item)) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < items.count {
                    let index = next, item = items[index]
                    group.addTask { (index, await work(item)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
