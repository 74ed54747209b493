import Foundation
import LinkstrDomain
import NIOCore
import NIOPosix

/// Fetches a shared page's preview: GET with redirects (at most 3, http/https only), only from public
/// addresses (`PublicAddressPolicy`, checked on the address actually connected to), HTML only, and only the
/// first 512 KiB, which is where titles live.
public struct LinkPreviewFetcher: Sendable {
    public static let maxBytes = 512 << 10
    public static let maxRedirects = 3

    /// What went wrong fetching (shared with `ImageFetcher`).
    public typealias Failure = WebFetchFailure

    /// Allows loopback and private addresses: for tests against a local server only.
    public var allowPrivateAddresses: Bool
    public var timeout: TimeAmount
    /// Hosts never contacted: those of the relays we blocked.
    public var refusesHost: @Sendable (String) -> Bool = { _ in false }

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5)) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
    }

    /// The fetcher the apps use (see `PublicAddress.privateAllowed`).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> LinkPreviewFetcher {
        LinkPreviewFetcher(allowPrivateAddresses: PublicAddress.privateAllowed(by: environment))
    }

    public func fetch(_ link: String) async throws(Failure) -> LinkPreview {
        let web = PublicWebGet(allowPrivateAddresses: allowPrivateAddresses, timeout: timeout, refusesHost: refusesHost)
        let (url, response) = try await web.get(link, accept: "text/html,application/xhtml+xml", maxBytes: Self.maxBytes, overflow: .truncate)
        let type = response.header("Content-Type")?.lowercased() ?? "text/html"
        // A link that is itself a picture: its name is its title, and it is its own image (it
        // was "not a web page" and drew nothing). The thumbnail's fetch checks it as any page's image.
        if type.hasPrefix("image/"), ["image/png", "image/jpeg", "image/gif", "image/webp"].contains(where: { type.hasPrefix($0) }) {
            let name = url.lastPathComponent.isEmpty ? (url.host ?? link) : url.lastPathComponent
            return LinkPreview(title: DisplayText.singleLine(String(name.prefix(200))), imageURL: url.absoluteString)
        }
        guard type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") else {
            throw .notHTML(DisplayText.singleLine(String(type.prefix(60))))
        }
        guard let preview = LinkPreviewParser.parse(response.body, pageURL: url.absoluteString) else { throw .noTitle }
        return preview
    }
}
