import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NostrProtocol

/// What a relay says about itself (NIP-11), reduced to the limits we respect.
public struct RelayInformation: Equatable, Sendable {
    public var name: String?
    public var supportedNIPs: [Int]
    public var maxSubscriptions: Int?
    public var maxMessageLength: Int?
    public var maxLimit: Int?
    public var authRequired: Bool
    public var restrictedWrites: Bool
    public var paymentRequired: Bool

    public init(name: String? = nil, supportedNIPs: [Int] = [], maxSubscriptions: Int? = nil, maxMessageLength: Int? = nil,
                maxLimit: Int? = nil, authRequired: Bool = false, restrictedWrites: Bool = false, paymentRequired: Bool = false) {
        self.name = name; self.supportedNIPs = supportedNIPs; self.maxSubscriptions = maxSubscriptions
        self.maxMessageLength = maxMessageLength; self.maxLimit = maxLimit; self.authRequired = authRequired
        self.restrictedWrites = restrictedWrites; self.paymentRequired = paymentRequired
    }

    /// No document (or no limits in it): what we assume.
    public static let unknown = RelayInformation()

    /// Subscriptions we allow ourselves at once on this relay.
    public var subscriptionBudget: Int { max(1, min(maxSubscriptions ?? 10, 10)) }
    /// The `limit` we ask for: ours, clamped to the relay's; at least 1 (to NIP-01 a limit of 0 asks for
    /// no stored event, but nostr-relay reads it as no limit at all).
    public func clampedLimit(_ wanted: Int) -> Int { max(1, min(wanted, maxLimit ?? wanted)) }

    /// Parses the document; every field is optional and wrongly typed ones are ignored.
    public static func parse(_ text: String) -> RelayInformation? {
        guard case .object(let o)? = try? JSONParser.parse(text, limits: .init(maxBytes: 256 << 10, maxDepth: 16)) else { return nil }
        var info = RelayInformation()
        info.name = o["name"]?.stringValue
        info.supportedNIPs = (o["supported_nips"]?.arrayValue ?? []).compactMap { $0.integerValue.map(Int.init) }
        if case .object(let limitation)? = o["limitation"] {
            func positive(_ key: String) -> Int? {
                guard let v = limitation[key]?.integerValue, v > 0, v < Int64(Int32.max) else { return nil }
                return Int(v)
            }
            info.maxSubscriptions = positive("max_subscriptions")
            info.maxMessageLength = positive("max_message_length")
            info.maxLimit = positive("max_limit")
            info.authRequired = limitation["auth_required"]?.boolValue ?? false
            info.restrictedWrites = limitation["restricted_writes"]?.boolValue ?? false
            info.paymentRequired = limitation["payment_required"]?.boolValue ?? false
        }
        return info
    }

    /// GET the document over http(s) with `Accept: application/nostr+json`, within `timeout`; `address`:
    /// one already checked by the public-address rule (the host still goes into `Host` and SNI).
    public static func fetch(relayURL: URL, address: SocketAddress? = nil, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             timeout: TimeAmount = .seconds(5)) async throws -> RelayInformation {
        guard var parts = URLComponents(url: relayURL, resolvingAgainstBaseURL: false), let scheme = parts.scheme?.lowercased(),
              scheme == "ws" || scheme == "wss" else { throw ConnectionError.invalidURL(relayURL.absoluteString) }
        parts.scheme = scheme == "wss" ? "https" : "http"
        parts.query = nil
        guard let http = parts.url else { throw ConnectionError.invalidURL(relayURL.absoluteString) }
        let response = try await HTTPGet.fetch(http, accept: "application/nostr+json", maxBytes: 256 << 10, address: address, group: group,
                                            timeout: timeout)
        // Status 0: the connection closed before any answer came (a server that takes it and says nothing).
        guard response.status != 0 else { throw ConnectionError.io("no answer to the NIP-11 request (the connection closed without one)") }
        guard response.status == 200 else { throw ConnectionError.io("HTTP \(response.status) to the NIP-11 request") }
        guard let info = parse(String(decoding: response.body, as: UTF8.self)) else { throw ConnectionError.io("not a relay information document") }
        return info
    }
}
