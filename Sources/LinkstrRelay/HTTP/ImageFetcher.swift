import Foundation
import LinkstrDomain
import NIOCore

/// Fetches a thumbnail's bytes: the same public-web GET as previews (redirects, public
/// addresses only, a deadline), at most `ImageLimits.maxBytes` (a larger image is refused, not cut).
/// What the bytes are is decided by their magic when decoded, never by the server's content type; only
/// a page served where an image was named is refused here.
public struct ImageFetcher: Sendable {
    public var allowPrivateAddresses: Bool
    public var timeout: TimeAmount
    /// Hosts never contacted: those of the relays we blocked.
    public var refusesHost: @Sendable (String) -> Bool = { _ in false }

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5)) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
    }

    /// The fetcher the apps use (see `PublicAddress.privateAllowed`).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> ImageFetcher {
        ImageFetcher(allowPrivateAddresses: PublicAddress.privateAllowed(by: environment))
    }

    public func fetch(_ link: String) async throws(WebFetchFailure) -> [UInt8] {
        let web = PublicWebGet(allowPrivateAddresses: allowPrivateAddresses, timeout: timeout, refusesHost: refusesHost)
        let (_, response) = try await web.get(link, accept: "image/webp,image/png,image/jpeg,image/gif", maxBytes: ImageLimits.maxBytes,
                                              overflow: .fail)
        let type = response.header("Content-Type")?.lowercased() ?? ""
        if type.hasPrefix("text/") || type.hasPrefix("application/xhtml") { throw .notImage(DisplayText.singleLine(String(type.prefix(60)))) }
        return response.body
    }
}
