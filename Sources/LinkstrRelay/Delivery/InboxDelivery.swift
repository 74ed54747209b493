import Foundation
import LinkstrDomain
import NIOCore
import NostrProtocol

/// Delivers gift wraps to relays outside our pool (a recipient's inbox relays): connect, send each event,
/// wait for the OKs, close. Only public addresses unless allowed (tests), bounded in time; best effort.
public struct InboxDelivery: Sendable {
    public struct Report: Sendable, Equatable {
        public let relay: String
        public let accepted: Int
        /// Why nothing (or not everything) was accepted; nil when every event was.
        public let error: String?
    }

    public var allowPrivateAddresses: Bool
    public var timeout: TimeAmount

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5)) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
    }

    /// The delivery the apps use (see `PublicAddress.privateAllowed`).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> InboxDelivery {
        InboxDelivery(allowPrivateAddresses: PublicAddress.privateAllowed(by: environment))
    }

    public func deliver(_ events: [NostrEvent], to relay: String) async -> Report {
        guard let url = URL(string: relay), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = url.host, !host.isEmpty else { return Report(relay: relay, accepted: 0, error: "invalid relay url") }
        let address: SocketAddress
        switch await PublicAddress.resolve(host, port: url.port ?? (scheme == "wss" ? 443 : 80), allowPrivate: allowPrivateAddresses) {
        case .failure(.unresolvable(let h)): return Report(relay: relay, accepted: 0, error: "cannot resolve \(h)")
        case .failure(.privateAddress(let h)): return Report(relay: relay, accepted: 0, error: "\(h) is a local or private address")
        case .success(let checked): address = checked
        }
        let connection: WebSocketConnection
        // To the address that was checked, not to a second lookup that could answer differently.
        do { connection = try await WebSocketConnection.connect(to: url, address: address, timeout: timeout) } catch {
            return Report(relay: relay, accepted: 0, error: String(describing: error))
        }
        defer { connection.close() }
        for event in events { connection.send(ClientMessage.event(event).encoded()) }
        let wanted = Set(events.map(\.id))
        do {
            let accepted = try await withTimeout(timeout) {
                var pending = wanted, accepted = 0
                for await message in connection.events {
                    guard case .text(let text) = message else {
                        if case .closed = message { break }
                        continue
                    }
                    if case .ok(let id, let ok, _)? = try? RelayMessage.decode(text), pending.remove(id) != nil {
                        if ok { accepted += 1 }
                        if pending.isEmpty { break }
                    }
                }
                return accepted
            }
            return Report(relay: relay, accepted: accepted, error: accepted == events.count ? nil : "\(events.count - accepted) refused")
        } catch {
            return Report(relay: relay, accepted: 0, error: "no answer in time")
        }
    }
}
