import Foundation
import NostrProtocol

/// One relay's connection as a pure state machine: lifecycle (connecting, connected,
/// read-only, failed, disabled), reconnect backoff with exactly one timer, NIP-42 (through `AuthState`),
/// messages held until AUTH, read-only marking and NIP-11 limits. `RelayPool` feeds it what happened
/// (socket opened or failed, a message, a timer fired) and carries out the actions it answers; time
/// (`now`, monotonic seconds) and the jitter (`unit`, 0..<1) are parameters, so every sequence is
/// tested without a socket or a sleep.
public struct RelayMachine: Sendable, Equatable {
    public enum Action: Equatable, Sendable {
        /// Close any socket of an older attempt and open a new one, tagged `generation` (its events and
        /// timers are ignored once the generation moved on); fetch NIP-11 when it is not known yet.
        case open(generation: Int, fetchInformation: Bool)
        /// Close the socket and cancel its tasks and any reconnect timer.
        case close
        /// The one reconnect timer (replacing any earlier one).
        case startReconnectTimer(generation: Int, seconds: Double)
        /// Send every subscription meant for this relay.
        case sendSubscriptions
        case send(String)
        /// Sign an AUTH event for the challenge, send it and report `authSent`.
        case authenticate(challenge: String)
        /// NIP-42 relays answer AUTH with OK; some never do, and silence for a moment counts as acceptance.
        case startAuthTimer(generation: Int, eventID: EventID, seconds: Double)
        /// Publishes waiting for this relay's answer stop waiting for it.
        case dropPublishes
        /// The relay's snapshot changed.
        case status
        /// Connected and its NIP-11 limits known: a good moment to backfill it.
        case ready
        /// Given up on an AUTH loop (for the log).
        case authLoop
        /// Dropped for sending mostly junk: what is still queued from it is discarded unchecked.
        case junkDropped
    }

    public static let authAnswerSeconds = 1.5

    public let url: String
    public let backoff: Backoff
    public private(set) var enabled: Bool
    public private(set) var status: RelayStatus
    public private(set) var lastError: String?
    public var stats = RelayStats()
    public private(set) var generation = 0
    public private(set) var information: RelayInformation?
    public private(set) var connected = false
    /// Refused our writes (`restricted:` or an `auth-required:` we could not satisfy): publishing skips it.
    public private(set) var markedReadOnly = false
    public private(set) var auth = AuthState()
    /// Reconnect attempts since the last good connection (the backoff step).
    public private(set) var attempt = 0
    public private(set) var reconnectPending = false
    /// When this relay last looped on AUTH or broke the protocol (a message over the limit): until a
    /// connection outlives twice `AuthState.window`, reconnects keep backing off instead of starting
    /// again at the first step (a relay that breaks every connection at once was reconnected every second).
    private var troubleAt: Double?
    /// What this connection sent that failed its checks (see `JunkMeter`), and how often the relay was
    /// dropped for junk: each drop waits longer before reconnecting (`junkBackoff`).
    private var junk = JunkMeter()
    public private(set) var junkDrops = 0
    private var lastJunkDropAt: Double?
    public static let junkBackoff = Backoff(steps: [30, 60, 120, 300, 600])
    /// Messages refused with `auth-required:`, sent again once after AUTH succeeds; each key retried once
    /// per connection (a new one starts a new NIP-42 state, so what it refuses is retried again; held
    /// messages stay, as the resent subscriptions replace their REQs and an EVENT may still be awaited).
    private var awaitingAuth: [String] = []
    private var retriedAfterAuth: Set<String> = []

    public init(url: String, enabled: Bool, backoff: Backoff = Backoff()) {
        self.url = url
        self.enabled = enabled
        self.backoff = backoff
        status = enabled ? .connecting : .disabled
    }

    // MARK: lifecycle

    /// (Re)connect now: a new generation, a fresh NIP-42 state.
    public mutating func connect() -> [Action] {
        guard enabled else { return [] }
        generation += 1
        connected = false
        reconnectPending = false
        status = .connecting
        auth = AuthState()
        junk = JunkMeter()
        retriedAfterAuth = []
        return [.open(generation: generation, fetchInformation: information == nil), .status]
    }

    /// The socket of `generation` is open (with the relay's NIP-11 document when it was fetched).
    public mutating func opened(generation g: Int, information info: RelayInformation?, now: Double) -> [Action] {
        guard g == generation, enabled else { return [.close] }
        if let info { information = info }
        connected = true
        status = markedReadOnly ? .readOnly : .connected
        lastError = nil
        if troubleAt.map({ now - $0 > AuthState.window * 2 }) ?? true {
            attempt = 0
            troubleAt = nil
        }
        stats.connects += 1
        return [.sendSubscriptions, .status, .ready]
    }

    /// The attempt or connection of `generation` failed or closed: back off and try again.
    public mutating func failed(generation g: Int, reason: String, unit: Double) -> [Action] {
        guard g == generation else { return [] }
        connected = false
        status = enabled ? .failed : .disabled
        lastError = reason
        auth = AuthState()
        var actions: [Action] = [.close, .dropPublishes, .status]
        if enabled {
            let seconds = backoff.delay(attempt: attempt, unit: unit)
            attempt += 1
            reconnectPending = true
            actions.append(.startReconnectTimer(generation: generation, seconds: seconds))
        }
        return actions
    }

    /// The connection of `generation` was closed because the relay broke the protocol: back off without
    /// starting over at the next connection.
    public mutating func brokeProtocol(generation g: Int, reason: String, now: Double, unit: Double) -> [Action] {
        guard g == generation else { return [] }
        troubleAt = now
        return failed(generation: g, reason: reason + "; trying again later.", unit: unit)
    }

    /// The reconnect timer set for `generation` fired.
    public mutating func reconnectDue(generation g: Int) -> [Action] {
        guard g == generation, reconnectPending else { return [] }
        return connect()
    }

    public mutating func setEnabled(_ on: Bool) -> [Action] {
        guard on != enabled else { return [] }
        enabled = on
        if on {
            attempt = 0
            return connect()
        }
        return disconnect() + [.status]
    }

    /// Removed from the list, or the pool stops: closed, and nothing of it fires any more.
    public mutating func disconnect() -> [Action] {
        generation += 1
        connected = false
        reconnectPending = false
        if !enabled { status = .disabled }
        return [.close, .dropPublishes]
    }

    // MARK: junk

    /// The events of this connection were checked: `junk` of them failed. A connection whose traffic is
    /// mostly junk beyond a rate is dropped, and reconnects after 30 s, then 1, 2, 5 and 10 min.
    public mutating func eventsChecked(valid: Int, junk count: Int, now: Double, unit: Double) -> [Action] {
        guard connected, count > 0 || valid > 0 else { return [] }
        stats.junkEvents += count
        guard junk.record(valid: valid, junk: count, now: now) else { return [] }
        // A relay that behaved for ten minutes starts again at the first step.
        if lastJunkDropAt.map({ now - $0 > 600 + Self.junkBackoff.steps.last! }) ?? false { junkDrops = 0 }
        let seen = junk.junkInWindow
        let seconds = Self.junkBackoff.delay(attempt: junkDrops, unit: unit)
        junkDrops += 1
        lastJunkDropAt = now
        stats.junkDrops += 1
        var actions = failed(generation: generation, reason: "dropped: it sent mostly invalid events (\(seen) in \(Int(JunkMeter.window)) s); "
                             + "trying again in \(Self.spoken(seconds)).", unit: unit)
        // Its own (longer) wait replaces the ordinary reconnect step.
        actions = actions.map { if case .startReconnectTimer(let g, _) = $0 { .startReconnectTimer(generation: g, seconds: seconds) } else { $0 } }
        return [.junkDropped] + actions
    }

    static func spoken(_ seconds: Double) -> String {
        seconds < 90 ? "\(Int(seconds.rounded())) s" : "\(Int((seconds / 60).rounded())) min"
    }

    // MARK: NIP-42

    /// `["AUTH", challenge]` arrived.
    public mutating func challenged(_ challenge: String, now: Double, unit: Double) -> [Action] {
        perform(auth.challenged(challenge, now: now), now: now, unit: unit)
    }

    /// A NOTICE said `auth-required:` or `restricted:` (some relays refuse a REQ so).
    public mutating func noticeAsksForAuth(now: Double, unit: Double) -> [Action] {
        perform(auth.needed(now: now), now: now, unit: unit)
    }

    /// `message` (keyed `key`: "REQ id" or "EVENT id") was refused with `auth-required:`. Nil when it is
    /// not retried (retried once already, or we cannot sign): the refusal stands.
    public mutating func refusedForAuth(key: String, resend message: String, canSign: Bool, now: Double, unit: Double) -> [Action]? {
        guard canSign, !retriedAfterAuth.contains(key) else { return nil }
        retriedAfterAuth.insert(key)
        awaitingAuth.append(message)
        let decision = auth.needed(now: now)
        if auth.authenticated && auth.pendingEventID == nil && decision == .none { return flushAwaitingAuth() }
        return perform(decision, now: now, unit: unit)
    }

    /// We signed and sent AUTH `eventID` for `challenge`.
    public mutating func authSent(_ eventID: EventID, challenge: String, now: Double) -> [Action] {
        auth.sent(eventID, for: challenge, now: now)
        stats.authsSent += 1
        return [.startAuthTimer(generation: generation, eventID: eventID, seconds: Self.authAnswerSeconds)]
    }

    /// The relay answered our AUTH (`OK`).
    public mutating func authAnswered(_ eventID: EventID, accepted: Bool, message: RelayStatusMessage) -> [Action] {
        guard let result = auth.answered(eventID, accepted: accepted) else { return [] }
        var actions: [Action] = []
        switch result {
        case .authenticated(let resubscribeAll):
            // Subscriptions sent before the first AUTH may have been refused: install them again (same ids
            // replace). Later AUTHs re-send only what was refused for want of one.
            if resubscribeAll { actions.append(.sendSubscriptions) }
            actions += flushAwaitingAuth()
        case .refused:
            lastError = "authentication refused: " + (message.text.isEmpty ? message.raw : message.text)
            awaitingAuth = []
        }
        return actions + [.status]
    }

    /// No answer to AUTH `eventID` in time: taken as accepted.
    public mutating func authTimerFired(generation g: Int, eventID: EventID) -> [Action] {
        guard g == generation, auth.pendingEventID == eventID else { return [] }
        return authAnswered(eventID, accepted: true, message: RelayStatusMessage(""))
    }

    private mutating func perform(_ decision: AuthState.OnChallenge, now: Double, unit: Double) -> [Action] {
        switch decision {
        case .none: return []
        case .sign(let challenge): return [.authenticate(challenge: challenge)]
        case .loop:
            troubleAt = now
            stats.authLoops += 1
            return [.authLoop] + failed(generation: generation, reason: "AUTH loop: the relay keeps asking to authenticate again; retrying later.",
                                        unit: unit)
        }
    }

    private mutating func flushAwaitingAuth() -> [Action] {
        defer { awaitingAuth = [] }
        return awaitingAuth.map { .send($0) }
    }

    // MARK: writes

    /// One of our events was refused with `restricted:` or an `auth-required:` we could not satisfy.
    public mutating func writeRefused(_ message: RelayStatusMessage) -> [Action] {
        markedReadOnly = true
        status = .readOnly
        lastError = message.text.isEmpty ? message.raw : message.text
        return [.status]
    }

    /// Where publishing may go: enabled, connected and not read-only.
    public var writable: Bool { enabled && connected && !markedReadOnly }

    /// Whether a message of `bytes` fits this relay's NIP-11 `max_message_length`.
    public func accepts(messageBytes bytes: Int) -> Bool { information?.maxMessageLength.map { bytes <= $0 } ?? true }

    /// Limits clamped to the relay's NIP-11 `max_limit`.
    public func clamped(_ filters: [Filter]) -> [Filter] {
        guard let information else { return filters }
        return filters.map { f in
            var f = f
            if let limit = f.limit { f.limit = information.clampedLimit(limit) }
            return f
        }
    }

    public var snapshot: RelaySnapshot {
        RelaySnapshot(url: url, enabled: enabled, status: status, lastError: lastError, stats: stats, information: information,
                      authenticated: auth.authenticated)
    }
}

/// Send gating (wire document §8.5) over the pool's relays: go, wait for a writable relay, or fail now.
public enum SendGate {
    public enum Decision: Equatable, Sendable {
        case ready
        case wait
        case fail(PublishError)
    }

    public static func decide(_ relays: [RelayMachine]) -> Decision {
        let enabled = relays.filter(\.enabled)
        if enabled.isEmpty { return .fail(.noRelaysEnabled) }
        if enabled.allSatisfy(\.markedReadOnly) { return .fail(.onlyReadOnly) }
        if enabled.contains(where: \.writable) { return .ready }
        return .wait
    }
}
