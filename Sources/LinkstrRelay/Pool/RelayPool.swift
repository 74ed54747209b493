import Foundation
import LinkstrDomain
import LinkstrLogging
import Logging
import NIOCore
import NIOPosix
import NostrProtocol
import Synchronization

/// What the pool reports to the sync engine and the UI.
public enum PoolEvent: Sendable {
    case event(relay: String, subscription: String, NostrEvent)
    case eose(relay: String, subscription: String)
    case closed(relay: String, subscription: String, RelayStatusMessage)
    case notice(relay: String, String)
    /// Connected and its NIP-11 limits known (or known to be absent): a good moment to backfill it.
    case ready(relay: String)
    case status(RelaySnapshot)
    /// NIP-77: an answer to a negentropy sync this pool opened on `relay`.
    case negentropy(relay: String, subscription: String, NegentropyAnswer)
}

/// Signs the NIP-42 AUTH event (kind 22242) for a relay and challenge with the user's key.
public typealias AuthSigner = @Sendable (_ relay: String, _ challenge: String) -> NostrEvent?

/// The relays of one account, run as `RelayMachine`s (pure: lifecycle, backoff, NIP-42, read-only
/// marking, limits) by this actor, which owns only what is not pure: sockets, timers, the AUTH signer,
/// subscriptions and pending publishes. Time and jitter are injected (`clock`, `sleep`, `random`).
public actor RelayPool {
    public struct Configuration: Sendable {
        public var maxMessageBytes = 4 << 20
        public var connectTimeout: TimeAmount = .seconds(10)
        public var informationTimeout: TimeAmount = .seconds(5)
        public var backoff = Backoff()
        public var pingInterval: Duration = .seconds(30)
        /// A number in 0..<1 for the backoff's jitter.
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// The pool's clock: monotonic time for NIP-42 bounds and the AUTH-loop backoff, wall time for
        /// "last connected", and how every timer waits (reconnects, AUTH, pings, the send gate's and a
        /// publish's deadlines, a rate-limited REQ's retry): real time, or a test's own.
        public var time: TimeSource = .live
        public init() {}
    }

    /// What a relay has besides its machine: the socket of the current generation and its tasks.
    struct Link {
        var connection: WebSocketConnection?
        var tasks: [Task<Void, Never>] = []
        /// The one pending reconnect timer.
        var reconnect: Task<Void, Never>?

        mutating func close() {
            reconnect?.cancel()
            reconnect = nil
            tasks.forEach { $0.cancel() }
            tasks = []
            connection?.close()
            connection = nil
        }
    }

    struct Subscription {
        let filters: [Filter]
        let relays: Set<String>?
    }

    final class PendingPublish {
        var tracker: PublishTracker
        let events: [NostrEvent]
        /// Best effort: wait for every relay's answer (or the timeout) and report each, never fail.
        let everyRelay: Bool
        var continuation: CheckedContinuation<Result<PublishReceipt, PublishError>, Never>?
        init(tracker: PublishTracker, events: [NostrEvent], everyRelay: Bool) { self.tracker = tracker; self.events = events; self.everyRelay = everyRelay }
    }

    public nonisolated let events: AsyncStream<PoolEvent>
    let sink: AsyncStream<PoolEvent>.Continuation
    let configuration: Configuration
    let group: EventLoopGroup
    let authSigner: AuthSigner?
    var machines: [String: RelayMachine] = [:]
    var links: [String: Link] = [:]
    var subscriptions: [String: Subscription] = [:]
    /// NIP-77 syncs open on each relay's current connection, with their NEG-OPEN (`RelayPool+Negentropy`).
    var negentropySyncs: [NegentropyKey: String] = [:]
    var publishes: [UUID: PendingPublish] = [:]
    /// Senders waiting at the send gate (`waitForWritableRelay`), woken by `step`.
    var gateWaiters: [UUID: CheckedContinuation<PublishError?, Never>] = [:]
    var stopped = false
    /// Junk the pool saw itself, not yet reported to the relay's machine.
    var poolJunk: [String: Int] = [:]
    /// Relays dropped for junk and not connected again since (read by the engine, off the actor).
    let dropped = Mutex<Set<String>>([])

    public init(configuration: Configuration = Configuration(), group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                authSigner: AuthSigner? = nil) {
        self.configuration = configuration
        self.group = group
        self.authSigner = authSigner
        (events, sink) = AsyncStream<PoolEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    // MARK: relay list

    /// Makes the pool match `list`: new enabled relays connect, disabled and removed ones disconnect.
    public func setRelays(_ list: [(url: String, enabled: Bool)]) {
        let wanted = Dictionary(list.map { ($0.url, $0.enabled) }, uniquingKeysWith: { a, _ in a })
        for url in machines.keys where wanted[url] == nil {
            step(url) { $0.disconnect() }
            machines.removeValue(forKey: url)
            links.removeValue(forKey: url)
        }
        for (url, enabled) in wanted.sorted(by: { $0.key < $1.key }) {
            if machines[url] == nil {
                machines[url] = RelayMachine(url: url, enabled: enabled, backoff: configuration.backoff)
                links[url] = Link()
                if enabled { step(url) { $0.connect() } } else { publishStatus(url) }
            } else {
                step(url) { $0.setEnabled(enabled) }
            }
        }
        wakeGateWaiters()  // a removed relay may leave the gate with nothing to wait for
    }

    public func snapshots() -> [RelaySnapshot] { machines.keys.sorted().compactMap { machines[$0]?.snapshot } }

    /// Pending reconnect timers (there is at most one per relay).
    public func pendingReconnectTimers() -> Int { links.values.filter { $0.reconnect != nil }.count }

    /// Closes every socket and cancels every timer; the pool can be discarded afterwards.
    public func stop() {
        stopped = true
        for url in machines.keys { step(url) { $0.disconnect() } }
        for p in publishes.values { p.continuation?.resume(returning: .failure(.offline)); p.continuation = nil }
        publishes.removeAll()
        let waiting = gateWaiters
        gateWaiters = [:]
        for w in waiting.values { w.resume(returning: .offline) }
        sink.finish()
    }

    /// Connections, failures, AUTH and publish outcomes: relay URLs and counts, never event content.
    let log = LinkstrLogging.logger("relay")

    // MARK: running the machines

    /// Feeds one input to a relay's machine and carries out what it answers.
    func step(_ url: String, _ input: (inout RelayMachine) -> [RelayMachine.Action]) {
        guard var machine = machines[url] else { return }
        let actions = input(&machine)
        machines[url] = machine
        perform(actions, url)
        wakeGateWaiters()
    }

    func perform(_ actions: [RelayMachine.Action], _ url: String) {
        for action in actions {
            switch action {
            case .open(let generation, let fetchInformation): open(url, generation, fetchInformation: fetchInformation)
            case .close: links[url]?.close()
            case .startReconnectTimer(let generation, let seconds):
                guard !stopped else { break }
                links[url]?.reconnect?.cancel()
                let sleep = configuration.time.sleep
                links[url]?.reconnect = Task { [weak self] in
                    await sleep(.milliseconds(Int(seconds * 1000)))
                    if Task.isCancelled { return }
                    await self?.reconnectFired(url, generation)
                }
            case .sendSubscriptions:
                for (id, sub) in subscriptions where sub.relays?.contains(url) ?? true { sendREQ(id, sub.filters, to: url) }
            case .send(let text): links[url]?.connection?.send(text)
            case .authenticate(let challenge): authenticate(url, challenge)
            case .startAuthTimer(let generation, let id, let seconds):
                let sleep = configuration.time.sleep
                Task { [weak self] in
                    await sleep(.milliseconds(Int(seconds * 1000)))
                    await self?.step(url) { $0.authTimerFired(generation: generation, eventID: id) }
                }
            case .dropPublishes:
                for p in publishes.values { p.tracker.relayDropped(url) }
                settlePublishes()
            case .status: publishStatus(url)
            case .ready: sink.yield(.ready(relay: url))
            case .authLoop:
                log.warning("AUTH loop", metadata: ["relay": "\(url)", "auths": "\(machines[url]?.stats.authsSent ?? 0)"])
            case .junkDropped:
                dropped.withLock { _ = $0.insert(url) }
                log.warning("dropped for junk", metadata: ["relay": "\(url)", "drops": "\(machines[url]?.junkDrops ?? 0)"])
            }
        }
    }

    var now: Double { configuration.time.monotonicSeconds() }
    var unit: Double { configuration.random() }

    // MARK: connecting

    func open(_ url: String, _ generation: Int, fetchInformation: Bool) {
        guard !stopped else { return }
        links[url]?.close()
        let configuration = configuration, group = group
        let task = Task { [weak self] in
            guard let endpoint = URL(string: url) else {
                await self?.failed(url, generation, ConnectionError.invalidURL(url).description)
                return
            }
            async let information: RelayInformation? = fetchInformation
                ? (try? await RelayInformation.fetch(relayURL: endpoint, group: group, timeout: configuration.informationTimeout)) ?? .unknown
                : nil
            do {
                let connection = try await WebSocketConnection.connect(to: endpoint, group: group, maxMessageBytes: configuration.maxMessageBytes,
                                                                       timeout: configuration.connectTimeout)
                await self?.connected(url, generation, connection, await information)
            } catch {
                _ = await information
                await self?.failed(url, generation, (error as? ConnectionError)?.description ?? "\(error)")
            }
        }
        links[url, default: Link()].tasks.append(task)
    }

    func connected(_ url: String, _ generation: Int, _ connection: WebSocketConnection, _ information: RelayInformation?) {
        guard !stopped, machines[url]?.generation == generation, machines[url]?.enabled == true else {
            connection.close()
            return
        }
        // The socket first, so that what the machine answers (subscriptions) goes out on it.
        let reader = Task { [weak self] in
            for await event in connection.events { await self?.handle(url, generation, event) }
        }
        let pinger = Task { [interval = configuration.pingInterval, sleep = configuration.time.sleep] in
            while !Task.isCancelled {
                await sleep(interval)
                if Task.isCancelled { break }
                connection.ping()
            }
        }
        links[url]?.connection = connection
        links[url]?.tasks = [reader, pinger]
        forgetNegentropy(url)
        machines[url]?.stats.lastConnectedAt = Date(timeIntervalSince1970: TimeInterval(configuration.time.wallSeconds()))
        dropped.withLock { _ = $0.remove(url) }
        step(url) { $0.opened(generation: generation, information: information, now: now) }
        log.info("connected", metadata: ["relay": "\(url)", "connects": "\(machines[url]?.stats.connects ?? 0)"])
    }

    func failed(_ url: String, _ generation: Int, _ reason: String) {
        guard machines[url]?.generation == generation else { return }
        log.notice("connection failed", metadata: ["relay": "\(url)", "reason": "\(reason.prefix(160))", "attempt": "\(machines[url]?.attempt ?? 0)"])
        let unit = unit
        step(url) { $0.failed(generation: generation, reason: reason, unit: unit) }
    }

    func reconnectFired(_ url: String, _ generation: Int) {
        links[url]?.reconnect = nil
        guard !stopped else { return }
        step(url) { $0.reconnectDue(generation: generation) }
    }

    // MARK: status

    func publishStatus(_ url: String) {
        guard let machine = machines[url] else { return }
        sink.yield(.status(machine.snapshot))
    }
}
