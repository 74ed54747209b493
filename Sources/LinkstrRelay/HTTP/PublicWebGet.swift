import Foundation
import LinkstrDomain
import NIOCore
import NIOPosix

/// What went wrong fetching from the web (a page's preview, an image).
public enum WebFetchFailure: Error, Equatable, CustomStringConvertible {
    case notWeb
    case privateAddress(String)
    /// The host is a relay we blocked (never dialled, for previews neither).
    case blockedHost(String)
    case unresolvable(String)
    case status(Int)
    case notHTML(String)
    case tooManyRedirects
    case noTitle
    /// An image was asked for and something else came (a page, say).
    case notImage(String)
    case network(String)

    public var description: String {
        switch self {
        case .notWeb: return "only http and https links have previews"
        case .privateAddress(let host): return "not fetching a preview from \(host): it is a local or private address"
        case .blockedHost(let host): return "not fetching from \(host): it is a relay you blocked"
        case .unresolvable(let host): return "no such host: \(host)"
        case .status(let code): return "the page answered HTTP \(code)"
        case .notHTML(let type): return "not a web page (\(type))"
        case .tooManyRedirects: return "too many redirects"
        case .noTitle: return "the page has no title"
        case .notImage(let type): return "not an image (\(type))"
        case .network(let m): return m
        }
    }
}

/// One GET from the public web, the way every fetch of a shared link's content is made: http(s) only,
/// redirects followed (at most 3), each hop resolved and checked against `PublicAddressPolicy` and
/// connected to the address checked, a byte limit and one deadline for the whole fetch (`timeout`:
/// every hop spends from it, so a chain of slow redirects takes no longer than one slow page).
struct PublicWebGet: Sendable {
    static let maxRedirects = LinkPreviewFetcher.maxRedirects
    var allowPrivateAddresses: Bool
    var timeout: TimeAmount
    /// Hosts never contacted (those of relays we blocked), checked at every hop.
    var refusesHost: @Sendable (String) -> Bool = { _ in false }

    /// The URL that answered (after redirects) and its response.
    /// `redirects`: how many are followed (NIP-05 documents: none).
    func get(_ link: String, accept: String, maxBytes: Int, overflow: HTTPGet.Overflow,
             redirects: Int = PublicWebGet.maxRedirects) async throws(WebFetchFailure) -> (URL, HTTPGet.Response) {
        guard var url = URL(string: link), WebURL.normalized(link) != nil else { throw .notWeb }
        let deadline = NIODeadline.now() + timeout
        for _ in 0...redirects {
            let left = deadline - .now()
            guard left > .zero else { throw .network("the site did not answer in time") }
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
                throw .notWeb
            }
            if refusesHost(host.lowercased()) { throw .blockedHost(DisplayText.singleLine(host)) }
            let address = try await resolve(host, port: url.port ?? (scheme == "https" ? 443 : 80))
            let response: HTTPGet.Response
            do {
                response = try await HTTPGet.fetch(url, accept: accept, maxBytes: maxBytes, overflow: overflow, address: address,
                                                   timeout: deadline - .now())
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
                return (url, response)
            default:
                throw .status(response.status)
            }
        }
        throw .tooManyRedirects
    }

    private func resolve(_ host: String, port: Int) async throws(WebFetchFailure) -> SocketAddress {
        switch await PublicAddress.resolve(host, port: port, allowPrivate: allowPrivateAddresses) {
        case .success(let address): return address
        case .failure(.unresolvable(let h)): throw .unresolvable(h)
        case .failure(.privateAddress(let h)): throw .privateAddress(h)
        }
    }
}
