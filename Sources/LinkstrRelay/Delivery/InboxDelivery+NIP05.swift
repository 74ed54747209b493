import LinkstrDomain
import NostrProtocol

/// The relays someone's NIP-05 document lists for them (issue 30): fetched as every web fetch is
/// (public addresses only, the delivery's deadline, a byte limit), redirects not followed (NIP-05).
extension InboxDelivery {
    /// The relays, or nil when the document could not be read or does not map the name to the key.
    public func nip05Relays(_ id: NIP05Relays.Identifier, pubkey: Pubkey) async -> [String]? {
        let blocked = isBlocked
        let web = PublicWebGet(allowPrivateAddresses: allowPrivateAddresses, timeout: timeout,
                               refusesHost: { host in blocked("wss://" + host) || blocked("ws://" + host) })
        let answer: HTTPGet.Response
        do {
            (_, answer) = try await web.get(id.documentURL, accept: "application/json", maxBytes: NIP05Relays.maxDocumentBytes, overflow: .fail,
                                            redirects: 0)
        } catch {
            return nil
        }
        let relays = NIP05Relays.relays(document: String(decoding: answer.body, as: UTF8.self), name: id.name, pubkey: pubkey)
        return relays?.filter { !isBlocked($0) }
    }
}
