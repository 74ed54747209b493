import Foundation
import LinkstrLogging
import Logging
import LinkstrDomain
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
}

/// Signs the NIP-42 AUTH event (kind 22242) for a relay and challenge with the user's key.
public typealias AuthSigner = @Sendable (_ relay: String, _ challenge: String) -> NostrEvent?

/// The relays of one account, run as `RelayMachine`s (pure: lifecycle, backoff, NIP-42, read-only
/// marking, limits) by this actor, which owns only what is not pure: sockets, timers, the AUTH signer,
/// subscriptions and pending publishes. Time and jitter are injected (`clock`, `random`).
public actor RelayPool {
    public struct Configuration: Sendable {
        public var maxMessageBytes = 4 << 20
        public var connectTimeout: TimeAmount = .seconds(10)
        public var informationTimeout: TimeAmount = .seconds(5)
        public var backoff = Backoff()
        public var pingInterval: Duration = .seconds(30)
        public var gatePoll: Duration = .milliseconds(350)
        /// Monotonic seconds (NIP-42 bounds and AUTH-loop backoff).
        public var clock: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
        /// A number in 0..<1 for the backoff's jitter.
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        public init() {}
    }

    /// What a relay has besides its machine: the socket of the current generation and its tasks.
    private struct Link {
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

    private struct Subscription {
        let filters: [Filter]
        let relays: Set<String>?
    }

    private final class PendingPublish {
        var tracker: PublishTracker
        let events: [NostrEvent]
        /// Best effort: wait for every relay's answer (or the timeout) and report each, never fail.
        let everyRelay: Bool
        var continuation: CheckedContinuation<Result<PublishReceipt, PublishError>, Never>?
        init(tracker: PublishTracker, events: [NostrEvent], everyRelay: Bool) { self.tracker = tracker; self.events = events; self.everyRelay = everyRelay }
    }

    public nonisolated let events: AsyncStream<PoolEvent>
    private let sink: AsyncStream<PoolEvent>.Continuation
    private let configuration: Configuration
    private let group: EventLoopGroup
    private let authSigner: AuthSigner?
    private var machines: [String: RelayMachine] = [:]
    private var links: [String: Link] = [:]
    private var subscriptions: [String: Subscription] = [:]
    private var publishes: [UUID: PendingPublish] = [:]
    private var stopped = false
    /// Junk the pool saw itself, not yet reported to the relay's machine.
    private var poolJunk: [String: Int] = [:]
    /// Relays dropped for junk and not connected again since (read by the engine, off the actor).
    private let dropped = Mutex<Set<String>>([])

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
        sink.finish()
    }

    /// Connections, failures, AUTH and publish outcomes: relay URLs and counts, never event content.
    private let log = LinkstrLogging.logger("relay")

    // MARK: running the machines

    /// Feeds one input to a relay's machine and carries out what it answers.
    private func step(_ url: String, _ input: (inout RelayMachine) -> [RelayMachine.Action]) {
        guard var machine = machines[url] else { return }
        let actions = input(&machine)
        machines[url] = machine
        perform(actions, url)
    }

    private func perform(_ actions: [RelayMachine.Action], _ url: String) {
        for action in actions {
            switch action {
            case .open(let generation, let fetchInformation): open(url, generation, fetchInformation: fetchInformation)
            case .close: links[url]?.close()
            case .startReconnectTimer(let generation, let seconds):
                guard !stopped else { break }
                links[url]?.reconnect?.cancel()
                links[url]?.reconnect = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    if Task.isCancelled { return }
                    await self?.reconnectFired(url, generation)
                }
            case .sendSubscriptions:
                for (id, sub) in subscriptions where sub.relays?.contains(url) ?? true { sendREQ(id, sub.filters, to: url) }
            case .send(let text): links[url]?.connection?.send(text)
            case .authenticate(let challenge): authenticate(url, challenge)
            case .startAuthTimer(let generation, let id, let seconds):
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
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

    private var now: Double { configuration.clock() }
    private var unit: Double { configuration.random() }

    // MARK: connecting

    private func open(_ url: String, _ generation: Int, fetchInformation: Bool) {
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

    private func connected(_ url: String, _ generation: Int, _ connection: WebSocketConnection, _ information: RelayInformation?) {
        guard !stopped, machines[url]?.generation == generation, machines[url]?.enabled == true else {
            connection.close()
            return
        }
        // The socket first, so that what the machine answers (subscriptions) goes out on it.
        let reader = Task { [weak self] in
            for await event in connection.events { await self?.handle(url, generation, event) }
        }
        let pinger = Task { [interval = configuration.pingInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                connection.ping()
            }
        }
        links[url]?.connection = connection
        links[url]?.tasks = [reader, pinger]
        machines[url]?.stats.lastConnectedAt = Date()
        dropped.withLock { _ = $0.remove(url) }
        step(url) { $0.opened(generation: generation, information: information, now: now) }
        log.info("connected", metadata: ["relay": "\(url)", "connects": "\(machines[url]?.stats.connects ?? 0)"])
    }

    private func failed(_ url: String, _ generation: Int, _ reason: String) {
        guard machines[url]?.generation == generation else { return }
        log.notice("connection failed", metadata: ["relay": "\(url)", "reason": "\(reason.prefix(160))", "attempt": "\(machines[url]?.attempt ?? 0)"])
        let unit = unit
        step(url) { $0.failed(generation: generation, reason: reason, unit: unit) }
    }

    private func reconnectFired(_ url: String, _ generation: Int) {
        links[url]?.reconnect = nil
        guard !stopped else { return }
        step(url) { $0.reconnectDue(generation: generation) }
    }

    // MARK: inbound

    private func handle(_ url: String, _ generation: Int, _ event: WebSocketConnection.Event) {
        guard machines[url]?.generation == generation else { return }
        switch event {
        case .closed(let reason):
            failed(url, generation, reason ?? "connection closed")
        case .brokeProtocol(let reason):
            log.notice("relay broke the protocol", metadata: ["relay": "\(url)", "reason": "\(reason.prefix(160))"])
            let now = now, unit = unit
            step(url) { $0.brokeProtocol(generation: generation, reason: reason, now: now, unit: unit) }
        case .pong(let ms):
            machines[url]?.stats.latencyMilliseconds = ms
        case .text(let text):
            machines[url]?.stats.eventsReceived += 1
            let message: RelayMessage
            do { message = try RelayMessage.decode(text, limits: .init(maxBytes: configuration.maxMessageBytes)) } catch {
                machines[url]?.stats.invalidMessages += 1
                junk(url, 1)
                return
            }
            handle(url, message)
        }
    }

    /// Junk the pool itself saw (unparseable, unasked for), counted in bulk: one machine step per 50.
    private func junk(_ url: String, _ count: Int) {
        poolJunk[url, default: 0] += count
        guard poolJunk[url, default: 0] >= 50 else { return }
        let seen = poolJunk.removeValue(forKey: url) ?? 0
        eventsChecked(relay: url, valid: 0, junk: seen)
    }

    /// The sync engine checked events from `relay` (signatures, decryption): `junk` of them failed. A
    /// relay whose traffic is mostly junk is dropped with a long backoff (`RelayMachine.eventsChecked`).
    public func eventsChecked(relay url: String, valid: Int, junk count: Int) {
        let now = now, unit = unit
        step(url) { $0.eventsChecked(valid: valid, junk: count, now: now, unit: unit) }
    }

    /// True while `relay` is dropped for junk: what is still queued from it is not worth checking.
    public nonisolated func isDroppedForJunk(_ url: String) -> Bool { dropped.withLock { $0.contains(url) } }

    private func handle(_ url: String, _ message: RelayMessage) {
        switch message {
        case .event(let sub, let event):
            // Only what we asked for: a relay cannot push unrelated events into a subscription.
            guard let s = subscriptions[sub], s.filters.contains(where: { $0.matches(event) }) else {
                machines[url]?.stats.invalidMessages += 1
                junk(url, 1)
                return
            }
            sink.yield(.event(relay: url, subscription: sub, event))
        case .eose(let sub):
            sink.yield(.eose(relay: url, subscription: sub))
        case .closed(let sub, let m):
            if m.prefix == .authRequired, let text = reqText(sub, url), var machine = machines[url],
               let actions = machine.refusedForAuth(key: "REQ " + sub, resend: text, canSign: authSigner != nil, now: now, unit: unit) {
                machines[url] = machine
                perform(actions, url)
                return
            }
            if m.prefix == .rateLimited, let s = subscriptions[sub] {
                // Ask again later, once.
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(10))
                    await self?.resubscribe(sub, s.filters, url)
                }
            }
            sink.yield(.closed(relay: url, subscription: sub, m))
        case .ok(let id, let accepted, let m):
            if machines[url]?.auth.pendingEventID == id {
                step(url) { $0.authAnswered(id, accepted: accepted, message: m) }
                return
            }
            if !accepted, m.prefix == .authRequired, let text = eventText(id), var machine = machines[url],
               let actions = machine.refusedForAuth(key: "EVENT " + id.hex, resend: text, canSign: authSigner != nil, now: now, unit: unit) {
                machines[url] = machine
                perform(actions, url)
                return
            }
            if !accepted, m.prefix == .restricted || m.prefix == .authRequired { step(url) { $0.writeRefused(m) } }
            for p in publishes.values { p.tracker.ok(relay: url, eventID: id, accepted: accepted, message: m) }
            settlePublishes()
        case .auth(let challenge):
            // Our subscriptions already name our key in `#p`, so answering a challenge reveals nothing new.
            let (now, unit) = (now, unit)
            step(url) { $0.challenged(challenge, now: now, unit: unit) }
        case .notice(let text):
            // Some relays refuse a REQ with a NOTICE instead of CLOSED; authenticate if we can.
            let m = RelayStatusMessage(text)
            if m.prefix == .authRequired || m.prefix == .restricted {
                let (now, unit) = (now, unit)
                step(url) { $0.noticeAsksForAuth(now: now, unit: unit) }
            }
            sink.yield(.notice(relay: url, text))
        case .count:
            break
        }
    }

    // MARK: NIP-42

    private func authenticate(_ url: String, _ challenge: String) {
        guard let signer = authSigner, let event = signer(url, challenge) else { return }
        let now = now
        step(url) { $0.authSent(event.id, challenge: challenge, now: now) }
        log.debug("AUTH sent", metadata: ["relay": "\(url)", "auths": "\(machines[url]?.stats.authsSent ?? 0)"])
        links[url]?.connection?.send(ClientMessage.auth(event).encoded())
    }

    // MARK: subscriptions

    /// Installs (or replaces) a subscription on the given relays (all when nil), now and on every reconnect.
    public func subscribe(_ id: String, filters: [Filter], relays only: Set<String>? = nil) {
        subscriptions[id] = Subscription(filters: filters, relays: only)
        for url in machines.keys where only?.contains(url) ?? true && links[url]?.connection != nil { sendREQ(id, filters, to: url) }
    }

    public func unsubscribe(_ id: String, relays only: Set<String>? = nil) {
        guard let sub = subscriptions[id] else { return }
        if let only, let current = sub.relays {
            let remaining = current.subtracting(only)
            subscriptions[id] = remaining.isEmpty ? nil : Subscription(filters: sub.filters, relays: remaining)
        } else {
            subscriptions[id] = nil
        }
        for url in machines.keys where only?.contains(url) ?? true {
            links[url]?.connection?.send(ClientMessage.close(subscriptionID: id).encoded())
        }
    }

    private func resubscribe(_ id: String, _ filters: [Filter], _ url: String) {
        guard subscriptions[id] != nil else { return }
        sendREQ(id, filters, to: url)
    }

    private func reqText(_ id: String, _ url: String) -> String? {
        guard let sub = subscriptions[id], let machine = machines[url] else { return nil }
        return ClientMessage.req(subscriptionID: id, filters: machine.clamped(sub.filters)).encoded()
    }

    private func sendREQ(_ id: String, _ filters: [Filter], to url: String) {
        guard let machine = machines[url] else { return }
        links[url]?.connection?.send(ClientMessage.req(subscriptionID: id, filters: machine.clamped(filters)).encoded())
    }

    /// The `limit` a relay will honour for `wanted` (its NIP-11 `max_limit`).
    public func effectiveLimit(_ wanted: Int, relay url: String) -> Int { machines[url]?.information?.clampedLimit(wanted) ?? wanted }

    // MARK: publishing

    /// Send gating (wire document §8.5, decided by `SendGate`): fails at once with no enabled or only
    /// read-only relays, otherwise waits up to `timeout` for a connected writable relay.
    public func waitForWritableRelay(timeout: Duration = .seconds(12)) async -> PublishError? {
        let deadline = ContinuousClock.now + timeout
        while true {
            switch SendGate.decide(Array(machines.values)) {
            case .ready: return nil
            case .fail(let error): return error
            case .wait: break
            }
            if ContinuousClock.now >= deadline { return .reconnectTimeout }
            try? await Task.sleep(for: configuration.gatePoll)
            if stopped { return .offline }
        }
    }

    /// Sends `events` to every writable relay. Succeeds once each event was accepted by one relay, fails as
    /// soon as one was refused everywhere. With `everyRelay` (a best-effort step) it waits for every relay
    /// instead and always succeeds with what each one said (`refusedBy`), unless no relay could be asked.
    public func publish(_ events: [NostrEvent], timeout: Duration = .seconds(8), everyRelay: Bool = false) async -> Result<PublishReceipt, PublishError> {
        let targets = machines.values.filter(\.writable)
        guard !targets.isEmpty else { return .failure(.offline) }
        let texts = events.map { ClientMessage.event($0).encoded() }
        let sendable = targets.filter { r in texts.allSatisfy { r.accepts(messageBytes: $0.utf8.count) } }
        guard !sendable.isEmpty else { return .failure(.tooLarge) }
        let key = UUID()
        let pending = PendingPublish(tracker: PublishTracker(eventIDs: events.map(\.id), relays: Set(sendable.map(\.url))), events: events,
                                     everyRelay: everyRelay)
        publishes[key] = pending
        for relay in sendable {
            for text in texts { links[relay.url]?.connection?.send(text) }
            machines[relay.url]?.stats.eventsSent += texts.count
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(key)
        }
        let result = await withCheckedContinuation { continuation in
            pending.continuation = continuation
            settlePublishes()
        }
        timer.cancel()
        return result
    }

    private func expire(_ key: UUID) {
        guard let p = publishes.removeValue(forKey: key) else { return }
        p.continuation?.resume(returning: p.everyRelay ? .success(p.tracker.report(unanswered: "no answer in time.")) : .failure(.timeout))
        p.continuation = nil
    }

    private func settlePublishes() {
        for (key, p) in publishes {
            let outcome: Result<PublishReceipt, PublishError>?
            if p.everyRelay {
                outcome = p.tracker.everyRelayAnswered ? .success(p.tracker.report(unanswered: "no answer.")) : nil
            } else {
                outcome = p.tracker.outcome
            }
            guard let outcome, let c = p.continuation else { continue }
            publishes[key] = nil
            p.continuation = nil
            c.resume(returning: outcome)
        }
    }

    private func eventText(_ id: EventID) -> String? {
        for p in publishes.values { if let e = p.events.first(where: { $0.id == id }) { return ClientMessage.event(e).encoded() } }
        return nil
    }

    // MARK: status

    private func publishStatus(_ url: String) {
        guard let machine = machines[url] else { return }
        sink.yield(.status(machine.snapshot))
    }
}
