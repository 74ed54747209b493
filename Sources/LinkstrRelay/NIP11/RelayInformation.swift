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

    public init(name: String? = nil, supportedNIPs: [Int] = [], maxSubscriptions: Int? = nil, maxMessageLength: Int? = nil,
                maxLimit: Int? = nil, authRequired: Bool = false, restrictedWrites: Bool = false) {
        self.name = name; self.supportedNIPs = supportedNIPs; self.maxSubscriptions = maxSubscriptions
        self.maxMessageLength = maxMessageLength; self.maxLimit = maxLimit; self.authRequired = authRequired
        self.restrictedWrites = restrictedWrites
    }

    /// No document (or no limits in it): what we assume.
    public static let unknown = RelayInformation()

    /// Subscriptions we allow ourselves at once on this relay.
    public var subscriptionBudget: Int { max(1, min(maxSubscriptions ?? 10, 10)) }
    /// The `limit` we ask for: ours, clamped to the relay's.
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
        }
        return info
    }

    /// GET the document over http(s) with `Accept: application/nostr+json`, within `timeout`.
    public static func fetch(relayURL: URL, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             timeout: TimeAmount = .seconds(5)) async throws -> RelayInformation {
        guard let scheme = relayURL.scheme?.lowercased(), let host = relayURL.host else { throw ConnectionError.invalidURL(relayURL.absoluteString) }
        let secure = scheme == "wss"
        let port = relayURL.port ?? (secure ? 443 : 80)
        let path = relayURL.path.isEmpty ? "/" : relayURL.path
        let tls = secure ? try WebSocketConnection.makeTLSContext() : nil
        let body: String = try await withTimeout(timeout) {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls { try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: host)) }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
            return try await channel.executeThenClose { inbound, outbound in
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: relayURL.port == nil ? host : "\(host):\(port)")
                headers.add(name: "Accept", value: "application/nostr+json")
                headers.add(name: "Connection", value: "close")
                try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)))
                try await outbound.write(.end(nil))
                var collected = ByteBuffer()
                var status = 0
                for try await part in inbound {
                    switch part {
                    case .head(let head): status = Int(head.status.code)
                    case .body(var chunk):
                        guard collected.readableBytes + chunk.readableBytes <= 256 << 10 else { throw ConnectionError.io("relay information document too large") }
                        collected.writeBuffer(&chunk)
                    case .end: return status == 200 ? String(buffer: collected) : ""
                    }
                }
                return status == 200 ? String(buffer: collected) : ""
            }
        }
        guard let info = parse(body) else { throw ConnectionError.io("no relay information document") }
        return info
    }
}
