import Foundation
import LinkstrDomain
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrRelay
@testable import LinkstrStorage
@testable import LinkstrSync

/// Time for an engine under test: `sleep` parks until the test advances past its deadline, `now` is
/// wall time in seconds. Nothing passes unless the test says so.
final class ManualClock: Sendable {
    private struct Sleeper { let deadline: Duration; let continuation: CheckedContinuation<Void, Never> }
    private struct State { var elapsed: Duration = .zero; var sleepers: [Sleeper] = [] }
    private let state = Mutex(State())
    let start: Int64

    init(start: Int64 = 1_800_000_000) { self.start = start }

    var sleep: @Sendable (Duration) async -> Void { { [self] duration in await self.sleep(for: duration) } }
    /// This clock as the engine takes it.
    var time: TimeSource {
        TimeSource(wallSeconds: wall, monotonic: { [self] in state.withLock { $0.elapsed } }, sleep: sleep)
    }
    var wall: @Sendable () -> Int64 { { [self] in start + Int64(state.withLock { $0.elapsed }.components.seconds) } }

    func sleep(for duration: Duration) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if duration <= .zero { return true }
                s.sleepers.append(Sleeper(deadline: s.elapsed + duration, continuation: continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Moves time on and wakes every sleeper whose deadline passed.
    func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.elapsed += duration
            let due = s.sleepers.filter { $0.deadline <= s.elapsed }
            s.sleepers.removeAll { $0.deadline <= s.elapsed }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    var sleepers: Int { state.withLock { $0.sleepers.count } }
    var elapsed: Duration { state.withLock { $0.elapsed } }
    /// Whether something sleeps until exactly `deadline` (time since the start).
    func hasSleeper(until deadline: Duration) -> Bool { sleepers(until: deadline) > 0 }
    func sleepers(until deadline: Duration) -> Int { state.withLock { $0.sleepers.filter { $0.deadline == deadline }.count } }
}

/// A pool with no sockets: it records what the engine asks for, answers publishes as the test decides,
/// and its events are whatever the test feeds (or hands to `engine.handle` directly).
final class FakePool: Sendable {
    struct Request: Equatable { let id: String; let filters: [Filter]; let relays: Set<String>? }
    struct State {
        var requests: [Request] = []
        var closed: [String] = []
        var published: [[NostrEvent]] = []
        var relays: [String] = ["ws://a.test"]
        var limit: Int?
        /// nil: writable; else why not.
        var gate: PublishError?
        /// The test holds the gate closed until it opens it.
        var gateWaiters: [CheckedContinuation<PublishError?, Never>] = []
        var holdGate = false
        var answer: @Sendable ([NostrEvent]) -> Result<PublishReceipt, PublishError> = { events in
            .success(PublishReceipt(acceptedBy: Dictionary(uniqueKeysWithValues: events.map { ($0.id, ["ws://a.test"]) })))
        }
        var checked: [String: (valid: Int, junk: Int)] = [:]
        /// When set, each relay answers every request from these events (newest first, `until`
        /// inclusive, its limit), then EOSE: a tiny relay in memory.
        var serving: [String: [NostrEvent]]?
        /// NIP-77: what the relays' NIP-11 says of it (false: they list other NIPs), and what was sent.
        var advertisesNegentropy: Bool? = false
        var negentropySent: [NegentropySent] = []
    }

    /// A NEG-OPEN (with its filter), NEG-MSG or NEG-CLOSE the engine sent.
    struct NegentropySent: Equatable {
        enum Verb: Equatable { case open(Filter), send, close }
        let verb: Verb
        let id: String
        let message: String?
    }
    let state = Mutex(State())
    let events: AsyncStream<PoolEvent>
    let sink: AsyncStream<PoolEvent>.Continuation

    init() { (events, sink) = AsyncStream<PoolEvent>.makeStream() }

    var client: PoolClient {
        PoolClient(events: { self.events },
                   subscribe: { id, filters, relays in
                       let serving = self.state.withLock { s in
                           s.requests.append(Request(id: id, filters: filters, relays: relays))
                           return s.serving
                       }
                       guard let serving else { return }
                       for (relay, stored) in serving.sorted(by: { $0.key < $1.key }) where relays?.contains(relay) ?? true {
                           for filter in filters {
                               let matching = stored.filter { filter.matches($0) }.sorted { $0.createdAt > $1.createdAt }
                               for e in matching.prefix(filter.limit ?? matching.count) { self.sink.yield(.event(relay: relay, subscription: id, e)) }
                           }
                           self.sink.yield(.eose(relay: relay, subscription: id))
                       }
                   },
                   unsubscribe: { id, _ in self.state.withLock { $0.closed.append(id) } },
                   publish: { events, _, _ in
                       let answer = self.state.withLock { s in
                           s.published.append(events)
                           return s.answer
                       }
                       return answer(events)
                   },
                   untilWritable: {
                       await withCheckedContinuation { continuation in
                           let now = self.state.withLock { s -> PublishError?? in
                               if s.holdGate { s.gateWaiters.append(continuation); return nil }
                               return .some(s.gate)
                           }
                           if let now { continuation.resume(returning: now) }
                       }
                   },
                   snapshots: {
                       self.state.withLock { s in
                           s.relays.map { RelaySnapshot(url: $0, enabled: true, status: .connected, lastError: nil, stats: RelayStats(),
                                                        information: nil, authenticated: false) }
                       }
                   },
                   effectiveLimit: { wanted, _ in self.state.withLock { s in s.limit.map { min($0, wanted) } ?? wanted } },
                   eventsChecked: { relay, valid, junk in
                       self.state.withLock { s in
                           s.checked[relay, default: (0, 0)].valid += valid
                           s.checked[relay, default: (0, 0)].junk += junk
                       }
                   },
                   negentropy: NegentropyClient(
                       open: { id, filter, message, _ in
                           self.state.withLock { $0.negentropySent.append(NegentropySent(verb: .open(filter), id: id, message: message)) }
                           return true
                       },
                       send: { id, message, _ in
                           self.state.withLock { $0.negentropySent.append(NegentropySent(verb: .send, id: id, message: message)) }
                           return true
                       },
                       close: { id, _ in self.state.withLock { $0.negentropySent.append(NegentropySent(verb: .close, id: id, message: nil)) } },
                       advertised: { _ in self.state.withLock { $0.advertisesNegentropy } }),
                   stop: { self.sink.finish() })
    }

    var negentropySent: [NegentropySent] { state.withLock { $0.negentropySent } }

    /// Opens a held gate: every waiting sender goes on.
    func openGate() {
        let waiters = state.withLock { s in
            s.holdGate = false
            defer { s.gateWaiters = [] }
            return s.gateWaiters
        }
        for w in waiters { w.resume(returning: nil) }
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var published: [[NostrEvent]] { state.withLock { $0.published } }
    var closed: [String] { state.withLock { $0.closed } }
    func requests(_ subscription: SyncSubscription) -> [Request] { requests.filter { $0.id == subscription.id } }
}

/// One account's engine over a fake pool and a manual clock, on an in-memory store.
struct EngineUnderTest {
    let key: SecretKey
    let local: LocalStore
    let store: AccountStore
    let pool = FakePool()
    let clock = ManualClock()
    let engine: SyncEngine

    init(key: SecretKey = .generate(), delivery: InboxDelivery = .configured()) throws {
        self.key = key
        local = try LocalStore()
        store = try local.account(key, now: clock.start)
        engine = SyncEngine(identity: key, store: store, pool: pool.client, time: clock.time, delivery: delivery)
    }

    var me: Pubkey { key.publicKey.hex }

    /// A new session with `members`, as the use case plans it.
    func newSession(_ name: String, members: [Pubkey] = []) -> OutboundRumor {
        guard case .success(let planned) = OutboundPlanner.createSession(name: name, members: members, me: me, now: clock.start,
                                                                         random: SystemRandom()) else { fatalError("a valid session") }
        return planned.rumor
    }

    /// The next `count` updates that `match` picks (others are passed over); fewer if the stream ends.
    func said<T>(_ updates: inout AsyncStream<SyncUpdate>.AsyncIterator, _ count: Int = 1, _ match: (SyncUpdate) -> T?) async -> [T] {
        var said = [T]()
        while said.count < count, let next = await updates.next() { if let m = match(next) { said.append(m) } }
        return said
    }
}

/// Waits (a few seconds at most) until `condition` holds: for work the engine finishes on its own tasks.
func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: @Sendable () async -> Bool) async {
    for _ in 0..<2_000 {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(2))
    }
    XCTFail("never: \(what)", file: file, line: line)
}

/// A gift wrap from `sender` to `recipient` carrying `rumor`.
func wrap(_ rumor: OutboundRumor, from sender: SecretKey, at now: Int64) throws -> [NostrEvent] {
    try OutboxBatch.seal([rumor], identity: sender, now: now, random: SystemRandom(), cache: nil).wraps
}
