import NostrProtocol

/// NIP-42 on one connection, as a pure state machine: the pool feeds it what the relay said and does
/// what it answers. Time is passed in (seconds, any monotonic origin).
///
/// Bounds, because a relay may issue a fresh challenge after every AUTH or REQ (seen in the field: 860
/// signatures and 2,600 REQs a second): each distinct challenge is answered once; more than
/// `maxChallenges` distinct challenges within `window` seconds is an AUTH loop, and the pool drops the
/// connection and retries later with backoff. Subscriptions are installed again after the first
/// accepted AUTH only; later ones re-send just the messages that were refused for want of AUTH.
public struct AuthState: Sendable, Equatable {
    private struct Answer: Equatable, Sendable {
        let challenge: String
        let at: Double
    }

    public static let maxChallenges = 4
    public static let window: Double = 60

    public private(set) var challenge: String?
    public private(set) var pendingEventID: EventID?
    public private(set) var authenticated = false
    private var answered: [Answer] = []
    private var resubscribed = false

    public init() {}

    public enum OnChallenge: Equatable, Sendable {
        /// Sign and send AUTH for this challenge.
        case sign(String)
        /// Nothing to do (already answered, or an AUTH is in flight and will be answered first).
        case none
        /// Too many distinct challenges: drop the connection, mark the relay failed, back off.
        case loop
    }

    public enum OnResult: Equatable, Sendable {
        /// Accepted: re-send every subscription (first time on this connection) and the refused messages.
        case authenticated(resubscribeAll: Bool)
        case refused
    }

    /// `["AUTH", challenge]` arrived. Once authenticated, a new challenge is only kept: authentication
    /// lasts for the connection, and it is answered when the relay refuses something for want of it.
    public mutating func challenged(_ text: String, now: Double) -> OnChallenge {
        challenge = text
        if authenticated { return .none }
        return answer(text, now: now)
    }

    private mutating func answer(_ text: String, now: Double) -> OnChallenge {
        if answered.contains(where: { $0.challenge == text }) { return .none }
        answered.removeAll { now - $0.at > Self.window }
        if answered.count >= Self.maxChallenges { return .loop }
        return pendingEventID == nil ? .sign(text) : .none
    }

    /// Something was refused with `auth-required:` (or a NOTICE said so): sign the current challenge
    /// if it was not answered yet.
    public mutating func needed(now: Double) -> OnChallenge {
        guard let challenge, pendingEventID == nil, !answered.contains(where: { $0.challenge == challenge }) else { return .none }
        authenticated = false
        return answer(challenge, now: now)
    }

    /// The AUTH event for `challenge` was signed and sent.
    public mutating func sent(_ id: EventID, for challenge: String, now: Double) {
        pendingEventID = id
        answered.append(Answer(challenge: challenge, at: now))
    }

    /// The relay answered our AUTH (or stayed silent long enough, which counts as acceptance).
    public mutating func answered(_ id: EventID, accepted: Bool) -> OnResult? {
        guard id == pendingEventID else { return nil }
        pendingEventID = nil
        guard accepted else { authenticated = false; return .refused }
        authenticated = true
        defer { resubscribed = true }
        return .authenticated(resubscribeAll: !resubscribed)
    }
}
