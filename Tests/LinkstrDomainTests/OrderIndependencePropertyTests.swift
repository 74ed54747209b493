import Foundation
import LinkstrDomain
import XCTest

/// For random sets of sessions, snapshots, roots, reactions and deletes from several senders,
/// every arrival order (with duplicates) must end in the visible state of in-order arrival.
/// The seed is printed; `LINKSTR_PROPERTY_SEED=<n>` replays a run.
final class OrderIndependencePropertyTests: XCTestCase {
    typealias F = MessageFactory
    let people = [F.me, F.alice, F.bob, F.carol, F.mallory]

    func testEveryArrivalOrderEndsInTheSameVisibleState() {
        let seed = ProcessInfo.processInfo.environment["LINKSTR_PROPERTY_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max / 2)
        var rng = SplitMix(seed: seed)
        let cases = 1_000, ordersPerCase = 4
        var messagesSeen = 0, visiblePosts = 0, pendingSeen = 0, deletesApplied = 0
        for caseIndex in 0..<cases {
            let messages = scenario(&rng)
            messagesSeen += messages.count
            let inOrder = messages.sorted { ($0.createdAt, $0.rumorID, $0.wrapIDs.first ?? "") < ($1.createdAt, $1.rumorID, $1.wrapIDs.first ?? "") }
            var reference = AccountState(me: F.me)
            for m in inOrder {
                let r = reference.ingest(m)
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
                for m in arrival { _ = state.ingest(m) }
                if state.visibleState != expected {
                    XCTFail("seed \(seed), case \(caseIndex), order \(order): visible state differs\nexpected \(expected)\ngot \(state.visibleState)\nmessages \(arrival.map { "\($0.payload.kind.rawValue)@\($0.createdAt) by \($0.sender.prefix(2))" })")
                    return
                }
            }
            // The rows the store would hold rebuild the same state.
            let rebuilt = AccountState.restore(me: F.me, snapshots: reference.sessions.values.flatMap { Array($0.snapshots.values) },
                                               deletions: reference.sessions.values.flatMap { Array($0.deletions.values) }, archived: [],
                                               posts: Array(reference.posts.values), reactions: Array(reference.reactions.values),
                                               tombstones: Array(reference.tombstones.values), contacts: [], followWatermark: nil)
            if rebuilt.visibleState != expected { return XCTFail("seed \(seed), case \(caseIndex): restore differs") }
        }
        print("order independence: seed \(seed), \(cases) cases × \(ordersPerCase + 1) orders, \(messagesSeen) messages, \(visiblePosts) visible posts, \(pendingSeen) staged on the way, \(deletesApplied) deletes applied")
        XCTAssertGreaterThan(visiblePosts, cases, "the generator should produce visible content")
        XCTAssertGreaterThan(pendingSeen, 0)
        XCTAssertGreaterThan(deletesApplied, 0)
    }

    // MARK: generator

    private func scenario(_ rng: inout SplitMix) -> [InboundMessage] {
        var out = [InboundMessage]()
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        func time() -> Int64 { Int64(10 + rng.next() % 90) }
        func source(_ t: Int64) -> (MessageSource, Int64) {
            chance(25) ? (.live, t + Int64(rng.next() % 40)) : (.historical, t)
        }
        func subset(_ must: [String]) -> [String] {
            var members = must
            for p in people where !members.contains(p) && chance(50) { members.append(p) }
            return members
        }
        let sessions = (0..<(1 + Int(rng.next() % 2))).map { "S\($0)-\(rng.next() % 1000)" }
        var roots = [(session: String, id: String, author: String)]()
        for sid in sessions {
            let creator = pick([F.me, F.alice, F.bob])
            let t0 = Int64(5 + rng.next() % 20)
            out.append(F.create(sid, by: creator, members: subset([creator, F.me]), at: t0))
            for _ in 0..<Int(rng.next() % 4) {
                let t = time()
                let (src, at) = source(t)
                out.append(F.members(sid, by: creator, members: subset([creator]), at: t, name: chance(30) ? "renamed \(t)" : nil, source: src, receivedAt: at))
            }
            if chance(15) { // someone else's snapshot or create
                let other = pick(people)
                out.append(chance(50) ? F.members(sid, by: other, members: subset([other]), at: time())
                                      : F.create(sid, by: other, members: subset([other, F.me]), at: time(), name: "hijack"))
            }
            for _ in 0..<Int(rng.next() % 7) {
                let author = pick(people), t = time()
                let (src, at) = source(t)
                let id = F.id("root-\(sid)-\(rng.next())")
                let mismatched = chance(5)
                out.append(F.root(sid, by: author, at: t, url: "https://example.com/\(rng.next() % 9)", note: chance(50) ? "note" : nil,
                                  id: id, rootID: mismatched ? F.id("other") : (chance(50) ? id : ""), wrap: "w\(rng.next())", source: src, receivedAt: at))
                if chance(30) { // the same rumor through another wrap
                    out.append(F.root(sid, by: author, at: t, url: out.last!.payload.url!, note: out.last!.payload.note, id: id,
                                      rootID: out.last!.payload.rootID, wrap: "w\(rng.next())", source: src, receivedAt: at))
                }
                roots.append((sid, id, author))
            }
            if chance(5) { out.append(F.sessionDelete(sid, by: chance(50) ? creator : pick(people), at: time())) }
        }
        for _ in 0..<Int(rng.next() % 9) {
            let target = roots.isEmpty || chance(10) ? (sessions[0], F.id("missing-\(rng.next())"), F.alice) : pick(roots)
            let t = time()
            let (src, at) = source(t)
            out.append(F.reaction(target.0, post: target.1, by: pick(people), emoji: pick(["👍", "👀"]), active: chance(70), at: t,
                                  id: F.id("r\(rng.next())"), source: src, receivedAt: at))
        }
        for _ in 0..<Int(rng.next() % 3) where !roots.isEmpty {
            let target = pick(roots)
            out.append(F.delete(target.session, post: target.id, by: chance(70) ? target.author : pick(people), at: time(), id: F.id("d\(rng.next())")))
        }
        return out
    }

    private func shuffle<T>(_ a: inout [T], _ rng: inout SplitMix) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
