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

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notWeb
        case privateAddress(String)
        case unresolvable(String)
        case status(Int)
        case notHTML(String)
        case tooManyRedirects
        case noTitle
        case network(String)

        public var description: String {
            switch self {
            case .notWeb: return "only http and https links have previews"
            case .privateAddress(let host): return "not fetching a preview from \(host): it is a local or private address"
            case .unresolvable(let host): return "cannot resolve \(host)"
            case .status(let code): return "the page answered HTTP \(code)"
            case .notHTML(let type): return "not a web page (\(type))"
            case .tooManyRedirects: return "too many redirects"
            case .noTitle: return "the page has no title"
            case .network(let m): return m
            }
        }
    }

    /// Allows loopback and private addresses: for tests against a local server only.
    public var allowPrivateAddresses: Bool
    public var timeout: TimeAmount

    public init(allowPrivateAddresses: Bool = false, timeout: TimeAmount = .seconds(5)) {
        self.allowPrivateAddresses = allowPrivateAddresses
        self.timeout = timeout
    }

    /// The fetcher the apps use (see `PublicAddress.privateAllowed`).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> LinkPreviewFetcher {
        LinkPreviewFetcher(allowPrivateAddresses: PublicAddress.privateAllowed(by: environment))
    }

    public func fetch(_ link: String) async throws(Failure) -> LinkPreview {
        guard var url = URL(string: link), WebURL.normalized(link) != nil else { throw .notWeb }
        for _ in 0...Self.maxRedirects {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
                throw .notWeb
            }
            let address = try await resolve(host, port: url.port ?? (scheme == "https" ? 443 : 80))
            let response: HTTPGet.Response
            do {
                response = try await HTTPGet.fetch(url, accept: "text/html,application/xhtml+xml", maxBytes: Self.maxBytes,
                                                   overflow: .truncate, address: address, timeout: timeout)
            } catch ConnectionError.timeout {
                throw .network("the site did not answer in time")
            } catch {
                throw .network(String(describing: error))
            }
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.header("Location"), let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw .status(response.status)
                }
                url = next
                continue
            case 200:
                let type = response.header("Content-Type")?.lowercased() ?? "text/html"
                guard type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") else {
                    throw .notHTML(DisplayText.singleLine(String(type.prefix(60))))
                }
                guard let preview = LinkPreviewParser.parse(response.body, pageURL: url.absoluteString) else { throw .noTitle }
                return preview
            default:
                throw .status(response.status)
            }
        }
        throw .tooManyRedirects
    }

    private func resolve(_ host: String, port: Int) async throws(Failure) -> SocketAddress {
        switch await PublicAddress.resolve(host, port: port, allowPrivate: allowPrivateAddresses) {
        case .success(let address): return address
        case .failure(.unresolvable(let h)): throw .unresolvable(h)
        case .failure(.privateAddress(let h)): throw .privateAddress(h)
        }
    }
}
