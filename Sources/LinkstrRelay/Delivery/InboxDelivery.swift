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

    /// What a host name resolved to, by the public-address rule.
    public enum Resolved: Sendable {
        case address(SocketAddress)
        case unresolvable
        case privateAddress
    }
    public typealias Resolve = @Sendable (_ host: String, _ port: Int, _ allowPrivate: Bool) async -> Resolved

    public var allowPrivateAddresses: Bool
    /// Each step's deadline: resolving the name, connecting, and the relay's OKs.
    public var timeout: TimeAmount
    /// The system resolver, or a test's (one that never answers, to show the deadline holds).
    public var resolve: Resolve
    /// How the deadlines wait: real time, or a test's clock.
    public var time: TimeSource

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5), resolve: @escaping Resolve = InboxDelivery.systemResolve,
                time: TimeSource = .live) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
        self.resolve = resolve
        self.time = time
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

    public func deliver(_ events: [NostrEvent], to relay: String) async -> Report {
        guard let url = URL(string: relay), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = url.host, !host.isEmpty else { return Report(relay: relay, accepted: 0, error: "invalid relay url") }
        let address: SocketAddress
        let name = DisplayText.singleLine(host), port = url.port ?? (scheme == "wss" ? 443 : 80)
        // A lookup can hang (a resolver that never answers): it has the same deadline as every other step.
        let resolve = self.resolve, allowPrivate = allowPrivateAddresses
        switch try? await withTimeout(timeout, sleep: time.sleep, { await resolve(host, port, allowPrivate) }) {
        case nil: return Report(relay: relay, accepted: 0, error: "\(name) did not resolve in \(Self.words(timeout))")
        case .unresolvable?: return Report(relay: relay, accepted: 0, error: "cannot resolve \(name)")
        case .privateAddress?: return Report(relay: relay, accepted: 0, error: "\(name) is a local or private address")
        case .address(let checked)?: address = checked
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
            let accepted = try await withTimeout(timeout, sleep: time.sleep) {
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
