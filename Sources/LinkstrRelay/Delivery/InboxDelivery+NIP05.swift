import Foundation
import LinkstrDomain
import NostrProtocol

/// Someone's NIP-05 document: the relays it lists for them (discovery), and whether it vouches for their
/// key (names people can verify). Fetched as every web fetch is (public addresses only, the delivery's
/// deadline, a byte limit), redirects not followed (NIP-05).
extension InboxDelivery {
    /// The relays, or nil when the document could not be read or does not map the name to the key.
    public func nip05Relays(_ id: NIP05Relays.Identifier, pubkey: Pubkey) async -> [String]? {
        guard case .success(let document) = await nip05Document(id),
              let relays = NIP05Relays.relays(document: document, name: id.name, pubkey: pubkey) else { return nil }
        return relays.filter { !isBlocked($0) }
    }

    /// Why a NIP-05 document could not be had, in words.
    public struct NIP05Failure: Error, Equatable, Sendable { public let words: String }

    /// Someone's NIP-05 document, fetched as every web fetch is (public addresses only, the delivery's
    /// deadline, 64 KiB at most, no redirect: NIP-05 forbids following them).
    public func nip05Document(_ id: NIP05Relays.Identifier) async -> Result<String, NIP05Failure> {
        let blocked = isBlocked
        let web = PublicWebGet(allowPrivateAddresses: allowPrivateAddresses, timeout: timeout,
                               refusesHost: { host in blocked("wss://" + host) || blocked("ws://" + host) })
        do {
            let (_, answer) = try await web.get(Self.documentURL(id), accept: "application/json", maxBytes: NIP05Relays.maxDocumentBytes,
                                                overflow: .fail, redirects: 0)
            guard answer.status == 200 else { return .failure(NIP05Failure(words: "HTTP \(answer.status) from \(id.domain)")) }
            return .success(String(decoding: answer.body, as: UTF8.self))
        } catch {
            return .failure(NIP05Failure(words: DisplayText.singleLine(String(describing: error))))
        }
    }

    /// The document's address; tests that allow private addresses may serve every domain from one
    /// loopback origin (`LINKSTR_NIP05_ORIGIN=http://127.0.0.1:PORT`: a domain cannot name a port).
    static func documentURL(_ id: NIP05Relays.Identifier, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard PublicAddress.privateAllowed(by: environment), let origin = environment["LINKSTR_NIP05_ORIGIN"], !origin.isEmpty else {
            return id.documentURL
        }
        return origin + "/.well-known/nostr.json?name=\(id.name)&domain=\(id.domain)"
    }
}
