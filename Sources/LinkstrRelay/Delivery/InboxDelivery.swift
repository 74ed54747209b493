import Foundation
import LinkstrDomain
import NIOCore
import NostrProtocol

/// Short connections to relays outside our pool: delivering gift wraps to a recipient's inbox relays,
/// asking indexers for relay lists, checking a member's relays for the doctor. Only public addresses
/// unless allowed (tests), every step bounded in time, NIP-42 answered, NIP-11 limits honoured; best effort.
public struct InboxDelivery: Sendable {
    public struct Report: Sendable, Equatable {
        public let relay: String
        public let accepted: Int
        /// Why nothing (or not everything) was accepted; nil when every event was.
        public let error: String?
        /// The events the relay accepted (hex ids).
        public var acceptedIDs: Set<String>
        /// Why each other event was not accepted, in words (the relay's, or ours: too large, no answer).
        public var refusals: [String: String]

        public init(relay: String, accepted: Int, error: String?, acceptedIDs: Set<String> = [], refusals: [String: String] = [:]) {
            self.relay = relay; self.accepted = accepted; self.error = error; self.acceptedIDs = acceptedIDs; self.refusals = refusals
        }

        public static func == (a: Report, b: Report) -> Bool { a.relay == b.relay && a.accepted == b.accepted && a.error == b.error }
    }

    /// What a host name resolved to, by the public-address rule.
    public enum Resolved: Sendable {
        case address(SocketAddress)
        case unresolvable
        case privateAddress
    }
    public typealias Resolve = @Sendable (_ host: String, _ port: Int, _ allowPrivate: Bool) async -> Resolved

    public var allowPrivateAddresses: Bool
    /// Each step's deadline: resolving the name, connecting, and the relay's answers.
    public var timeout: TimeAmount
    /// The system resolver, or a test's (one that never answers, to show the deadline holds).
    public var resolve: Resolve
    /// How the deadlines wait: real time, or a test's clock.
    public var time: TimeSource
    /// Answers NIP-42 challenges (nil: never authenticates).
    public var signer: AuthSigner?
    /// Relays we blocked (our kind 10006): never dialled, whoever asks.
    public var isBlocked: @Sendable (String) -> Bool
    /// Read the relay's NIP-11 document beside the connection (its `max_message_length` decides what is sent).
    public var readsInformation: Bool

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5), resolve: @escaping Resolve = InboxDelivery.systemResolve,
                time: TimeSource = .live, signer: AuthSigner? = nil, isBlocked: @escaping @Sendable (String) -> Bool = { _ in false },
                readsInformation: Bool = true) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
        self.resolve = resolve
        self.time = time
        self.signer = signer
        self.isBlocked = isBlocked
        self.readsInformation = readsInformation
    }

    public static let systemResolve: Resolve = { host, port, allowPrivate in
        switch await PublicAddress.resolve(host, port: port, allowPrivate: allowPrivate) {
        case .success(let address): return .address(address)
        case .failure(.unresolvable): return .unresolvable
        case .failure(.privateAddress): return .privateAddress
        }
    }

    /// The delivery the apps use (see `PublicAddress.privateAllowed`).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> InboxDelivery {
        InboxDelivery(allowPrivateAddresses: PublicAddress.privateAllowed(by: environment))
    }

    /// "5 s", or "200 ms" under a second.
    static func words(_ t: TimeAmount) -> String {
        t.nanoseconds >= 1_000_000_000 ? "\(t.nanoseconds / 1_000_000_000) s" : "\(t.nanoseconds / 1_000_000) ms"
    }

    /// Sends `events` to `relay` and waits (bounded) for each OK. An event longer than the relay's
    /// `max_message_length` is not sent, and the report says so.
    public func deliver(_ events: [NostrEvent], to relay: String) async -> Report {
        let opened: Opened
        switch await open(relay) {
        case .failure(let why): return Report(relay: relay, accepted: 0, error: why.words, refusals: Self.all(events, why.words))
        case .success(let o): opened = o
        }
        defer { opened.connection.close() }
        var sendable = [NostrEvent](), refusals = [String: String]()
        let limit = await opened.information?.maxMessageLength
        for e in events {
            let bytes = ClientMessage.event(e).encoded().utf8.count
            if let limit, bytes > limit {
                refusals[e.id.hex] = "too large for this relay (\(bytes) bytes, it takes \(limit))"
            } else {
                sendable.append(e)
            }
        }
        let info = await opened.information
        let exchange = await run(.publish(sendable), on: opened)
        var accepted = Set<String>()
        for e in sendable {
            switch exchange.state.answers[e.id] {
            case (true, _)?: accepted.insert(e.id.hex)
            case (false, let message)?: refusals[e.id.hex] = Self.refusal(message, info)
            case nil: refusals[e.id.hex] = exchange.timedOut ? "no answer in \(Self.words(timeout))" : "the relay closed the connection"
            }
        }
        let error: String? = accepted.count == events.count ? nil
            : Set(refusals.values).count == 1 ? refusals.values.first : "\(events.count - accepted.count) refused"
        return Report(relay: relay, accepted: accepted.count, error: error, acceptedIDs: accepted, refusals: refusals)
    }

    /// The relay's words, with what its NIP-11 document explains (a paid or restricted relay).
    static func refusal(_ message: String, _ info: RelayInformation?) -> String {
        let said = message.isEmpty ? "refused" : "refused: " + String(DisplayText.singleLine(message).prefix(120))
        if info?.paymentRequired == true { return said + " (a paid relay)" }
        if info?.restrictedWrites == true { return said + " (it restricts who writes)" }
        return said
    }

    static func all(_ events: [NostrEvent], _ why: String) -> [String: String] {
        Dictionary(events.map { ($0.id.hex, why) }, uniquingKeysWith: { a, _ in a })
    }

    /// What a relay answered to one question (until EOSE, CLOSED, `maxEvents` or the deadline).
    public struct Answer: Sendable {
        public var events: [NostrEvent] = []
        /// Why there is no (complete) answer: could not connect, CLOSED's words, no EOSE in time.
        public var error: String?
        public var challenged = false
        public var authAccepted: Bool?
        public var information: RelayInformation?
        public var connected = false
        /// The relay answered with CLOSED (its words are `error`): it is up, and refused the question.
        public var closed = false
    }

    /// Asks `relay` one question. Events come back as the relay sent them: the caller checks them.
    public func query(_ filters: [Filter], on relay: String, maxEvents: Int = 500) async -> Answer {
        var answer = Answer()
        let opened: Opened
        switch await open(relay) {
        case .failure(let why):
            answer.error = why.words
            return answer
        case .success(let o): opened = o
        }
        defer { opened.connection.close() }
        answer.connected = true
        let exchange = await run(.query(subscription: "linkstr-q", filters: filters, maxEvents: maxEvents), on: opened)
        answer.events = exchange.state.received
        answer.challenged = exchange.state.challenged
        answer.authAccepted = exchange.state.authAccepted
        answer.information = await opened.information
        if let closed = exchange.state.closedWith {
            answer.error = "refused: " + String(DisplayText.singleLine(closed).prefix(120))
            answer.closed = true
        } else if !exchange.state.done {
            answer.error = exchange.timedOut ? "no answer in \(Self.words(timeout))" : "the relay closed the connection"
        }
        return answer
    }
}
