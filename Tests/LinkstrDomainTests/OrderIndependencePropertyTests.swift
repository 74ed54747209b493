import Foundation
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// For random sets of sessions, snapshots, roots, reactions and deletes from several senders,
/// every arrival order (with duplicates) must end in the visible state of in-order arrival.
/// The seed is printed; `LINKSTR_PROPERTY_SEED=<n>` replays a run.
final class OrderIndependencePropertyTests: XCTestCase {
    typealias F = MessageFactory

    func testEveryArrivalOrderEndsInTheSameVisibleState() throws {
        let seed = ProcessInfo.processInfo.environment["LINKSTR_PROPERTY_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max / 2)
        var rng = SplitMix(seed: seed)
        let cases = 1_000, ordersPerCase = 4
        var messagesSeen = 0, visiblePosts = 0, pendingSeen = 0, deletesApplied = 0
        for caseIndex in 0..<cases {
            let messages = ScenarioGenerator.scenario(&rng)
            messagesSeen += messages.count
            let inOrder = messages.sorted { ($0.createdAt, $0.rumorID, $0.wrapIDs.first ?? "") < ($1.createdAt, $1.rumorID, $1.wrapIDs.first ?? "") }
            var reference = AccountState(me: F.me)
            for m in inOrder {
                let r = try reference.ingest(m)
                if case .pending = r.outcome { pendingSeen += 1 }
                if r.outcome == .applied && m.payload.kind == .rootDelete { deletesApplied += 1 }
            }
            let expected = reference.visibleState
            visiblePosts += expected.posts.values.map(\.count).reduce(0, +)

            for order in 0..<ordersPerCase {
                var arrival = messages
                shuffle(&arrival, &rng)
                // Duplicates: re-deliver some messages at random later positions.
                for _ in 0..<Int(rng.next() % 4) where !arrival.isEmpty {
                    let copy = arrival[Int(rng.next() % UInt64(arrival.count))]
                    arrival.insert(copy, at: Int(rng.next() % UInt64(arrival.count + 1)))
                }
                var state = AccountState(me: F.me)
                for m in arrival { _ = try state.ingest(m) }
                if state.visibleState != expected {
                    XCTFail("seed \(seed), case \(caseIndex), order \(order): visible state differs\nexpected \(expected)\ngot \(state.visibleState)\nmessages \(arrival.map { "\($0.payload.kind.rawValue)@\($0.createdAt) by \($0.sender.prefix(2))" })")
                    return
                }
            }
        }
        print("order independence: seed \(seed), \(cases) cases × \(ordersPerCase + 1) orders, \(messagesSeen) messages, \(visiblePosts) visible posts, \(pendingSeen) staged on the way, \(deletesApplied) deletes applied")
        XCTAssertGreaterThan(visiblePosts, cases, "the generator should produce visible content")
        XCTAssertGreaterThan(pendingSeen, 0)
        XCTAssertGreaterThan(deletesApplied, 0)
    }

    private func shuffle<T>(_ a: inout [T], _ rng: inout SplitMix) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
    }
}
