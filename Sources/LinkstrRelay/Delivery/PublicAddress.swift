import Dispatch
import LinkstrDomain
import NIOCore

/// Resolves a host someone else named (a link, an inbox relay) and refuses it unless it is public
/// (`PublicAddressPolicy`). Resolution blocks, so it runs off the caller's thread.
enum PublicAddress {
    enum Failure: Error, Equatable {
        case unresolvable(String)
        case privateAddress(String)
    }

    /// `LINKSTR_ALLOW_PRIVATE_ADDRESSES=1` lifts the rule, for tests against loopback servers and relays.
    static func privateAllowed(by environment: [String: String]) -> Bool {
        environment["LINKSTR_ALLOW_PRIVATE_ADDRESSES"] == "1"
    }

    /// `lookUp`: the name service (tests pass one that fails). An address written out (`127.0.0.1`,
    /// `::1`, `[::1]`) is never looked up: getaddrinfo refuses an IPv6 literal on a machine without an
    /// IPv6 address configured, which said "cannot resolve ::1" instead of why it was not fetched.
    static func resolve(_ host: String, port: Int, allowPrivate: Bool,
                        lookUp: @escaping @Sendable (String, Int) throws -> SocketAddress = SocketAddress.makeAddressResolvingHost)
        async -> Result<SocketAddress, Failure> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
                guard let address = (try? SocketAddress(ipAddress: bare, port: port)) ?? (try? lookUp(bare, port)) else {
                    return continuation.resume(returning: .failure(.unresolvable(DisplayText.singleLine(host))))
                }
                let bytes: [UInt8]
                switch address {
                case .v4(let a): bytes = withUnsafeBytes(of: a.address.sin_addr) { Array($0) }
                case .v6(let a): bytes = withUnsafeBytes(of: a.address.sin6_addr) { Array($0) }
                default: bytes = []
                }
                guard allowPrivate || PublicAddressPolicy.isPublic(bytes) else {
                    return continuation.resume(returning: .failure(.privateAddress(DisplayText.singleLine(host))))
                }
                continuation.resume(returning: .success(address))
            }
        }
    }
}
