import NostrProtocol

/// NIP-05 as a source of relays: someone's kind 0 may name `name@domain`; the domain's
/// `/.well-known/nostr.json?name=name` may list relays for their key, where their relay lists can be
/// asked for. Pure: the identifier checked, the document's URL made, the document read and verified
/// (the name must map to that key, or none of its relays count).
public enum NIP05Relays {
    public static let maxDocumentBytes = 64 << 10
    /// Relays kept from one document.
    public static let maxRelays = 8

    public struct Identifier: Equatable, Sendable {
        public let name: String
        public let domain: String
        public var text: String { "\(name)@\(domain)" }
        /// The document to fetch (NIP-05: https, and its redirects are not followed).
        public var documentURL: String { "https://\(domain)/.well-known/nostr.json?name=\(name)" }
    }

    /// `nip05` of a kind 0's content, if it is an identifier (local part a–z, 0–9, `-_.`; a web host).
    public static func identifier(fromProfileContent content: String) -> Identifier? {
        guard case .object(let o)? = try? JSONParser.parse(content, limits: .init(maxBytes: 256 << 10, maxDepth: 8)),
              let value = o["nip05"]?.stringValue else { return nil }
        return identifier(value)
    }

    public static func identifier(_ text: String) -> Identifier? {
        let parts = text.trimmingWhitespace().lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 1 else { return nil }
        let name = parts.count == 2 ? String(parts[0]) : "_", domain = String(parts.last!)
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
              domain.count <= 253, WebURL.normalized("https://\(domain)/") != nil, !domain.contains(where: { "/:?#".contains($0) }) else { return nil }
        return Identifier(name: name, domain: domain)
    }

    /// The relays the document lists for `pubkey`, when it maps `name` to that key (nil otherwise).
    public static func relays(document: String, name: String, pubkey: Pubkey) -> [String]? {
        guard case .object(let o)? = try? JSONParser.parse(document, limits: .init(maxBytes: maxDocumentBytes, maxDepth: 8)),
              case .object(let names)? = o["names"], names[name]?.stringValue?.lowercased() == pubkey else { return nil }
        guard case .object(let relays)? = o["relays"], let listed = relays[pubkey]?.arrayValue else { return [] }
        var out = [String]()
        for value in listed {
            guard let url = value.stringValue.flatMap(RelayURL.normalized), !out.contains(url) else { continue }
            out.append(url)
            if out.count == maxRelays { break }
        }
        return out
    }
}
