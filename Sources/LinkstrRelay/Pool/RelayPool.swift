import Foundation
import LinkstrLogging
import Logging
import LinkstrDomain
import NIOCore
import NIOPosix
import NostrProtocol

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

/// The relays of one account: sockets kept healthy with jittered backoff (one timer per relay),
/// subscriptions re-installed on every (re)connect, NIP-11 limits, NIP-42 AUTH, OK/CLOSED prefixes,
/// and publishing with acknowledgements.
public actor RelayPool {
    public struct Configuration: Sendable {
        public var maxMessageBytes = 4 << 20
        public var connectTimeout: TimeAmount = .seconds(10)
        public var informationTimeout: TimeAmount = .seconds(5)
        public var backoff = Backoff()
        public var pingInterval: Duration = .seconds(30)
        public var gatePoll: Duration = .milliseconds(350)
        public init() {}
    }

    private struct Relay {
        let url: String
        var enabled: Bool
        var status: RelayStatus
        var lastError: String?
        var stats = RelayStats()
        var connection: WebSocketConnection?
        /// Incremented per attempt: events of an older socket are ignored.
        var generation = 0
        var information: RelayInformation?
        var attempt = 0
        /// The one pending reconnect timer.
        var reconnect: Task<Void, Never>?
        var tasks: [Task<Void, Never>] = []
        var markedReadOnly = false
        /// NIP-42 on the current connection (reset on every connect).
        var auth = AuthState()
        /// When this relay last looped on AUTH: until a connection outlives `AuthState.window`, reconnects
        /// keep backing off instead of starting again at the first step.
        var authLoopAt: Double?
        /// Messages refused with `auth-required:`, sent again once after AUTH succeeds.
        var awaitingAuth: [String] = []
        var retriedAfterAuth: Set<String> = []
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
    private var relays: [String: Relay] = [:]
    private var subscriptions: [String: Subscription] = [:]
    private var publishes: [UUID: PendingPublish] = [:]
    private var stopped = false

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
        for url in relays.keys where wanted[url] == nil {
            disconnect(url)
            relays.removeValue(forKey: url)
        }
        for (url, enabled) in wanted.sorted(by: { $0.key < $1.key }) {
            if relays[url] == nil {
                relays[url] = Relay(url: url, enabled: enabled, status: enabled ? .connecting : .disabled)
                if enabled { connect(url) } else { publishStatus(url) }
            } else if relays[url]!.enabled != enabled {
                relays[url]!.enabled = enabled
                if enabled { relays[url]!.attempt = 0; connect(url) } else { disconnect(url); relays[url]!.status = .disabled; publishStatus(url) }
            }
        }
    }

    public func snapshots() -> [RelaySnapshot] { relays.keys.sorted().map(snapshot) }

    /// Pending reconnect timers (there is at most one per relay).
    public func pendingReconnectTimers() -> Int { relays.values.filter { $0.reconnect != nil }.count }

    /// Closes every socket and cancels every timer; the pool can be discarded afterwards.
    public func stop() {
        stopped = true
        for url in relays.keys { disconnect(url) }
        for p in publishes.values { p.continuation?.resume(returning: .failure(.offline)); p.continuation = nil }
        publishes.removeAll()
        sink.finish()
    }

    /// Connections, failures, AUTH and publish outcomes: relay URLs and counts, never event content.
    private let log = LinkstrLogging.logger("relay")

    /// Seconds on a monotonic clock (NIP-42 bounds and loop backoff).
    private var uptime: Double { ProcessInfo.processInfo.systemUptime }

    // MARK: connecting

    private func connect(_ url: String) {
        guard !stopped, var relay = relays[url], relay.enabled else { return }
        relay.reconnect?.cancel()
        relay.reconnect = nil
        relay.connection?.close()
        relay.tasks.forEach { $0.cancel() }
        relay.tasks = []
        relay.generation += 1
        relay.status = .connecting
        relay.auth = AuthState()
        relays[url] = relay
        publishStatus(url)
        let generation = relay.generation
        let configuration = configuration, group = group
        let fetchInformation = relay.information == nil
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
        relays[url]?.tasks.append(task)
    }

    private func connected(_ url: String, _ generation: Int, _ connection: WebSocketConnection, _ information: RelayInformation?) {
        guard !stopped, var relay = relays[url], relay.generation == generation, relay.enabled else {
            connection.close()
            return
        }
        if let information { relay.information = information }
        relay.connection = connection
        relay.status = relay.markedReadOnly ? .readOnly : .connected
        relay.lastError = nil
        if relay.authLoopAt.map({ uptime - $0 > AuthState.window * 2 }) ?? true {
            relay.attempt = 0
            relay.authLoopAt = nil
        }
        relay.stats.connects += 1
        relay.stats.lastConnectedAt = Date()
        log.info("connected", metadata: ["relay": "\(url)", "connects": "\(relay.stats.connects)"])
        let reader = Task { [weak self] in
            for await event in connection.events { await self?.handle(url, generation, event) }
        }
        let pinger = Task { [weak self, interval = configuration.pingInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                connection.ping()
                _ = self
            }
        }
        relay.tasks = [reader, pinger]
        relays[url] = relay
        for (id, sub) in subscriptions where sub.relays?.contains(url) ?? true { sendREQ(id, sub.filters, to: url) }
        publishStatus(url)
        sink.yield(.ready(relay: url))
    }

    private func failed(_ url: String, _ generation: Int, _ reason: String) {
        guard var relay = relays[url], relay.generation == generation else { return }
        relay.connection?.close()
        relay.connection = nil
        relay.tasks.forEach { $0.cancel() }
        relay.tasks = []
        relay.status = relay.enabled ? .failed : .disabled
        relay.lastError = reason
        log.notice("connection failed", metadata: ["relay": "\(url)", "reason": "\(reason.prefix(160))", "attempt": "\(relay.attempt)"])
        relay.auth = AuthState()
        relays[url] = relay
        for p in publishes.values { p.tracker.relayDropped(url) }
        settlePublishes()
        publishStatus(url)
        scheduleReconnect(url)
    }

    /// Exactly one pending timer per relay: scheduling replaces any earlier one.
    private func scheduleReconnect(_ url: String) {
        guard !stopped, var relay = relays[url], relay.enabled else { return }
        relay.reconnect?.cancel()
        let delay = configuration.backoff.delay(attempt: relay.attempt, unit: Double.random(in: 0..<1))
        relay.attempt += 1
        relay.reconnect = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            if Task.isCancelled { return }
            await self?.reconnectFired(url)
        }
        relays[url] = relay
    }

    private func reconnectFired(_ url: String) {
        relays[url]?.reconnect = nil
        connect(url)
    }

    private func disconnect(_ url: String) {
        guard var relay = relays[url] else { return }
        relay.reconnect?.cancel()
        relay.reconnect = nil
        relay.tasks.forEach { $0.cancel() }
        relay.tasks = []
        relay.connection?.close()
        relay.connection = nil
        relay.generation += 1
        relays[url] = relay
        for p in publishes.values { p.tracker.relayDropped(url) }
        settlePublishes()
    }

    // MARK: inbound

    private func handle(_ url: String, _ generation: Int, _ event: WebSocketConnection.Event) {
        guard relays[url]?.generation == generation else { return }
        switch event {
        case .closed(let reason):
            failed(url, generation, reason ?? "connection closed")
        case .pong(let ms):
            relays[url]?.stats.latencyMilliseconds = ms
        case .text(let text):
            relays[url]?.stats.eventsReceived += 1
            let message: RelayMessage
            do { message = try RelayMessage.decode(text, limits: .init(maxBytes: configuration.maxMessageBytes)) } catch {
                relays[url]?.stats.invalidMessages += 1
                return
            }
            handle(url, message)
        }
    }

    private func handle(_ url: String, _ message: RelayMessage) {
        switch message {
        case .event(let sub, let event):
            // Only what we asked for: a relay cannot push unrelated events into a subscription.
            guard let s = subscriptions[sub], s.filters.contains(where: { $0.matches(event) }) else {
                relays[url]?.stats.invalidMessages += 1
                return
            }
            sink.yield(.event(relay: url, subscription: sub, event))
        case .eose(let sub):
            sink.yield(.eose(relay: url, subscription: sub))
        case .closed(let sub, let m):
            if m.prefix == .authRequired, retryAfterAuth(url, key: "REQ " + sub, message: reqText(sub, url)) { return }
            if m.prefix == .rateLimited, let s = subscriptions[sub] {
                // Ask again later, once.
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(10))
                    await self?.resubscribe(sub, s.filters, url)
                }
            }
            sink.yield(.closed(relay: url, subscription: sub, m))
        case .ok(let id, let accepted, let m):
            if relays[url]?.auth.pendingEventID == id {
                authResult(url, id, accepted: accepted, message: m)
                return
            }
            if !accepted, m.prefix == .authRequired, let text = eventText(id),
               retryAfterAuth(url, key: "EVENT " + id.hex, message: text) { return }
            if !accepted, m.prefix == .restricted || m.prefix == .authRequired {
                relays[url]?.markedReadOnly = true
                relays[url]?.status = .readOnly
                relays[url]?.lastError = m.text.isEmpty ? m.raw : m.text
                publishStatus(url)
            }
            for p in publishes.values { p.tracker.ok(relay: url, eventID: id, accepted: accepted, message: m) }
            settlePublishes()
        case .auth(let challenge):
            // Our subscriptions already name our key in `#p`, so answering a challenge reveals nothing new.
            guard var relay = relays[url] else { return }
            let decision = relay.auth.challenged(challenge, now: uptime)
            relays[url] = relay
            perform(decision, url)
        case .notice(let text):
            // Some relays refuse a REQ with a NOTICE instead of CLOSED; authenticate if we can.
            let m = RelayStatusMessage(text)
            if m.prefix == .authRequired || m.prefix == .restricted, var relay = relays[url] {
                let decision = relay.auth.needed(now: uptime)
                relays[url] = relay
                perform(decision, url)
            }
            sink.yield(.notice(relay: url, text))
        case .count:
            break
        }
    }

    // MARK: NIP-42

    /// Queues `message` to be sent again after AUTH; false when it was retried once already or we cannot authenticate.
    private func retryAfterAuth(_ url: String, key: String, message: String?) -> Bool {
        guard let message, authSigner != nil, var relay = relays[url], !relay.retriedAfterAuth.contains(key) else { return false }
        relay.retriedAfterAuth.insert(key)
        relay.awaitingAuth.append(message)
        let decision = relay.auth.needed(now: uptime)
        relays[url] = relay
        if relay.auth.authenticated && relay.auth.pendingEventID == nil && decision == .none {
            flushAwaitingAuth(url)
        } else {
            perform(decision, url)
        }
        return true
    }

    /// Does what the NIP-42 state machine decided: sign and send, or give up on an AUTH loop.
    private func perform(_ decision: AuthState.OnChallenge, _ url: String) {
        switch decision {
        case .none: return
        case .sign(let challenge): authenticate(url, challenge)
        case .loop:
            relays[url]?.authLoopAt = uptime
            relays[url]?.stats.authLoops += 1
            log.warning("AUTH loop", metadata: ["relay": "\(url)", "auths": "\(relays[url]?.stats.authsSent ?? 0)"])
            let generation = relays[url]?.generation ?? 0
            failed(url, generation, "AUTH loop: the relay keeps asking to authenticate again; retrying later.")
        }
    }

    private func authenticate(_ url: String, _ challenge: String) {
        guard var relay = relays[url], let signer = authSigner, let event = signer(url, challenge) else { return }
        relay.auth.sent(event.id, for: challenge, now: uptime)
        relay.stats.authsSent += 1
        log.debug("AUTH sent", metadata: ["relay": "\(url)", "auths": "\(relay.stats.authsSent)"])
        relays[url] = relay
        relay.connection?.send(ClientMessage.auth(event).encoded())
        // NIP-42 relays answer with OK; some never do. Silence for a moment counts as acceptance.
        let generation = relay.generation
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(1500))
            await self?.authTimedOut(url, generation, event.id)
        }
    }

    private func authTimedOut(_ url: String, _ generation: Int, _ id: EventID) {
        guard relays[url]?.generation == generation, relays[url]?.auth.pendingEventID == id else { return }
        authResult(url, id, accepted: true, message: RelayStatusMessage(""))
    }

    private func authResult(_ url: String, _ id: EventID, accepted: Bool, message: RelayStatusMessage) {
        guard var relay = relays[url], let result = relay.auth.answered(id, accepted: accepted) else { return }
        relays[url] = relay
        switch result {
        case .authenticated(let resubscribeAll):
            // Subscriptions sent before the first AUTH may have been refused: install them again (same ids
            // replace). Later AUTHs re-send only what was refused for want of one.
            if resubscribeAll { for (id, sub) in subscriptions where sub.relays?.contains(url) ?? true { sendREQ(id, sub.filters, to: url) } }
            flushAwaitingAuth(url)
        case .refused:
            relays[url]?.lastError = "authentication refused: " + (message.text.isEmpty ? message.raw : message.text)
            relays[url]?.awaitingAuth = []
        }
        publishStatus(url)
    }

    private func flushAwaitingAuth(_ url: String) {
        guard let relay = relays[url] else { return }
        for text in relay.awaitingAuth { relay.connection?.send(text) }
        relays[url]?.awaitingAuth = []
    }

    // MARK: subscriptions

    /// Installs (or replaces) a subscription on the given relays (all when nil), now and on every reconnect.
    public func subscribe(_ id: String, filters: [Filter], relays only: Set<String>? = nil) {
        subscriptions[id] = Subscription(filters: filters, relays: only)
        for url in relays.keys where only?.contains(url) ?? true && relays[url]?.connection != nil { sendREQ(id, filters, to: url) }
    }

    public func unsubscribe(_ id: String, relays only: Set<String>? = nil) {
        guard let sub = subscriptions[id] else { return }
        if let only, let current = sub.relays {
            let remaining = current.subtracting(only)
            subscriptions[id] = remaining.isEmpty ? nil : Subscription(filters: sub.filters, relays: remaining)
        } else {
            subscriptions[id] = nil
        }
        for url in relays.keys where only?.contains(url) ?? true {
            relays[url]?.connection?.send(ClientMessage.close(subscriptionID: id).encoded())
        }
    }

    private func resubscribe(_ id: String, _ filters: [Filter], _ url: String) {
        guard subscriptions[id] != nil else { return }
        sendREQ(id, filters, to: url)
    }

    private func reqText(_ id: String, _ url: String) -> String? {
        guard let sub = subscriptions[id] else { return nil }
        return ClientMessage.req(subscriptionID: id, filters: clamped(sub.filters, url)).encoded()
    }

    private func sendREQ(_ id: String, _ filters: [Filter], to url: String) {
        relays[url]?.connection?.send(ClientMessage.req(subscriptionID: id, filters: clamped(filters, url)).encoded())
    }

    /// Limits clamped to the relay's `max_limit`.
    private func clamped(_ filters: [Filter], _ url: String) -> [Filter] {
        guard let info = relays[url]?.information else { return filters }
        return filters.map { f in
            var f = f
            if let limit = f.limit { f.limit = info.clampedLimit(limit) }
            return f
        }
    }

    /// The `limit` a relay will honour for `wanted` (its NIP-11 `max_limit`).
    public func effectiveLimit(_ wanted: Int, relay url: String) -> Int { relays[url]?.information?.clampedLimit(wanted) ?? wanted }

    // MARK: publishing

    /// Send gating (wire document §8.5): fails at once with no enabled or only read-only relays,
    /// otherwise waits up to `timeout` for a connected writable relay.
    public func waitForWritableRelay(timeout: Duration = .seconds(12)) async -> PublishError? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let enabled = relays.values.filter(\.enabled)
            if enabled.isEmpty { return .noRelaysEnabled }
            if enabled.allSatisfy(\.markedReadOnly) { return .onlyReadOnly }
            if enabled.contains(where: { $0.connection != nil && !$0.markedReadOnly }) { return nil }
            if ContinuousClock.now >= deadline { return .reconnectTimeout }
            try? await Task.sleep(for: configuration.gatePoll)
            if stopped { return .offline }
        }
    }

    /// Sends `events` to every connected writable relay and waits for acknowledgements.
    /// Sends `events` to every writable relay. Succeeds once each event was accepted by one relay, fails as
    /// soon as one was refused everywhere. With `everyRelay` (a best-effort step) it waits for every relay
    /// instead and always succeeds with what each one said (`refusedBy`), unless no relay could be asked.
    public func publish(_ events: [NostrEvent], timeout: Duration = .seconds(8), everyRelay: Bool = false) async -> Result<PublishReceipt, PublishError> {
        let targets = relays.values.filter { $0.enabled && $0.connection != nil && !$0.markedReadOnly }
        guard !targets.isEmpty else { return .failure(.offline) }
        let texts = events.map { ClientMessage.event($0).encoded() }
        let sendable = targets.filter { r in
            guard let max = r.information?.maxMessageLength else { return true }
            return texts.allSatisfy { $0.utf8.count <= max }
        }
        guard !sendable.isEmpty else { return .failure(.tooLarge) }
        let key = UUID()
        let pending = PendingPublish(tracker: PublishTracker(eventIDs: events.map(\.id), relays: Set(sendable.map(\.url))), events: events,
                                     everyRelay: everyRelay)
        publishes[key] = pending
        for relay in sendable {
            for text in texts { relay.connection?.send(text) }
            relays[relay.url]?.stats.eventsSent += texts.count
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

    private func snapshot(_ url: String) -> RelaySnapshot {
        let r = relays[url]!
        return RelaySnapshot(url: url, enabled: r.enabled, status: r.status, lastError: r.lastError, stats: r.stats,
                             information: r.information, authenticated: r.auth.authenticated)
    }

    private func publishStatus(_ url: String) {
        guard relays[url] != nil else { return }
        sink.yield(.status(snapshot(url)))
    }
}
