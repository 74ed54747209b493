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

    static func resolve(_ host: String, port: Int, allowPrivate: Bool) async -> Result<SocketAddress, Failure> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                guard let address = try? SocketAddress.makeAddressResolvingHost(host, port: port) else {
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
