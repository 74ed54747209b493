import NostrProtocol

/// One short exchange with a relay outside our pool (a member's inbox relay, an indexer, a relay the
/// doctor checks): publish some events, or ask one question until EOSE. Pure: relay messages in, what to
/// send out; `InboxDelivery` runs it over a connection with a deadline.
///
/// NIP-42 is answered as it comes: a challenge is signed (when there is a signer), and an event or a
/// question refused with `auth-required:` is tried once more right after our AUTH went out (messages on
/// one connection are handled in order, and some relays, nostr-relay among them, never answer an AUTH
/// with OK). Inbox relays commonly want it: reading one's own wraps there needs it, some want it to write.
struct OneShotExchange: Sendable {
    enum Goal: Sendable {
        case publish([NostrEvent])
        case query(subscription: String, filters: [Filter], maxEvents: Int)
    }

    enum Action: Equatable, Sendable {
        case send(String)
        case finished
    }

    typealias Sign = @Sendable (_ challenge: String) -> NostrEvent?

    let goal: Goal
    private let sign: Sign?
    /// Events waiting for their OK (a refused `auth-required:` one stays until tried again).
    private(set) var pending: Set<EventID> = []
    /// The relay's answer to each event: accepted, and its words.
    private(set) var answers: [EventID: (accepted: Bool, message: String)] = [:]
    private var parked: [NostrEvent] = []
    private var retried: Set<EventID> = []
    private var byID: [EventID: NostrEvent] = [:]
    /// Our AUTH event's id, and whether the relay accepted it (nil: no answer yet).
    private var authID: EventID?
    private var authSent = false
    private(set) var authAccepted: Bool?
    private(set) var challenged = false
    /// What a query received, and how it ended: CLOSED's words, or nil after EOSE.
    private(set) var received: [NostrEvent] = []
    private(set) var closedWith: String?
    private(set) var done = false
    private var queryWaitsForAuth = false
    private var requeried = false

    init(_ goal: Goal, sign: Sign?) {
        self.goal = goal
        self.sign = sign
    }

    mutating func start() -> [Action] {
        switch goal {
        case .publish(let events):
            guard !events.isEmpty else { return finish() }
            for e in events { byID[e.id] = e; pending.insert(e.id) }
            return events.map { .send(ClientMessage.event($0).encoded()) }
        case .query(let id, let filters, _):
            return [.send(ClientMessage.req(subscriptionID: id, filters: filters).encoded())]
        }
    }

    mutating func received(_ message: RelayMessage) -> [Action] {
        guard !done else { return [] }
        switch message {
        case .auth(let challenge):
            challenged = true
            guard let sign, authAccepted != true, authSent == false, let event = sign(challenge) else { return [] }
            authID = event.id
            authSent = true
            return [.send(ClientMessage.auth(event).encoded())] + afterAuth()
        case .ok(let id, let accepted, _) where id == authID:
            authAccepted = accepted
            authID = nil
            return accepted ? [] : failParked()
        case .ok(let id, let accepted, let status) where pending.contains(id):
            if !accepted, status.prefix == .authRequired, sign != nil, !retried.contains(id), let event = byID[id] {
                retried.insert(id)
                answers[id] = (false, status.raw)  // kept should the second try never be answered
                if authSent { return [.send(ClientMessage.event(event).encoded())] }
                parked.append(event)
                return []
            }
            answers[id] = (accepted, status.raw)
            pending.remove(id)
            return pending.isEmpty ? finish() : []
        case .event(let sub, let event):
            guard case .query(let id, _, let maxEvents) = goal, sub == id else { return [] }
            received.append(event)
            return received.count >= maxEvents ? finish() : []
        case .eose(let sub):
            guard case .query(let id, _, _) = goal, sub == id, !queryWaitsForAuth else { return [] }
            return finish()
        case .notice(let text) where text.hasPrefix("auth-required:") || text.hasPrefix("restricted:"):
            // Some relays (nostr-relay) refuse a question with a NOTICE instead of CLOSED.
            guard case .query(let id, _, _) = goal else { return [] }
            return received(.closed(subscriptionID: id, message: RelayStatusMessage(text.hasPrefix("restricted:") && authAccepted == nil && !requeried
                                                                                     ? "auth-required:" + text.dropFirst("restricted:".count) : text)))
        case .closed(let sub, let status):
            guard case .query(let id, let filters, _) = goal, sub == id else { return [] }
            if status.prefix == .authRequired, sign != nil, !requeried {
                requeried = true
                if authSent { return [.send(ClientMessage.req(subscriptionID: id, filters: filters).encoded())] }
                queryWaitsForAuth = true
                closedWith = status.raw
                return []
            }
            closedWith = status.raw
            return finish()
        default:
            return []
        }
    }

    private mutating func afterAuth() -> [Action] {
        if queryWaitsForAuth, case .query(let id, let filters, _) = goal {
            queryWaitsForAuth = false
            closedWith = nil
            return [.send(ClientMessage.req(subscriptionID: id, filters: filters).encoded())]
        }
        defer { parked = [] }
        return parked.map { .send(ClientMessage.event($0).encoded()) }
    }

    /// The relay refused our AUTH: what still waits is refused for good.
    private mutating func failParked() -> [Action] {
        if queryWaitsForAuth { return finish() }
        for e in parked { pending.remove(e.id) }
        parked = []
        return pending.isEmpty ? finish() : []
    }

    private mutating func finish() -> [Action] {
        done = true
        return [.finished]
    }
}
