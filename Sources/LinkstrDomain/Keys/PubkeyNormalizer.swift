import NostrProtocol

/// A public key as the domain stores it: 64 lowercase hex characters.
public typealias Pubkey = String

/// Key normalization (wire document §1.2), stricter than iOS: exactly 64 hex digits, never "any even length".
///
/// Keys from the wire are checked for form only (a member list of 2,000 keys is normalized on every
/// ingest; a key that is not a curve point simply receives nothing). Keys the user types go through
/// `userInput`, which also requires a point on the curve: `ffff…ffff` accepted as a member would be
/// skipped silently when sending.
public enum PubkeyNormalizer {
    /// Trimmed, lowercased 64-hex, or nil.
    public static func hex(_ input: String) -> Pubkey? {
        let s = input.trimmingWhitespace().lowercased()
        return Hex.isLowercaseHex(s, byteCount: 32) ? s : nil
    }

    /// A key typed or pasted by the user (npub, `nostr:`, nprofile, text holding an npub, or 64-hex) that
    /// names a point on secp256k1, or the precise reason it is not one.
    public static func userInput(_ input: String) -> Result<Pubkey, DomainError> {
        let s = input.trimmingWhitespace()
        if s.isEmpty { return .failure(.message("enter a public key (npub1… or 64 hex characters).")) }
        guard let pk = ContactKeyParser.pubkey(in: s) ?? fromAnyForm(s) else {
            do { _ = try PublicKey.parse(s) } catch {
                switch error {
                case .isSecretKey, .isEncryptedSecretKey, .notOnCurve: return .failure(.message(error.description))
                case .bech32(.badChecksum): return .failure(.message("that npub has a bad checksum: a character was mistyped or lost."))
                case .bech32(let b): return .failure(.message("that npub " + (b.description.hasPrefix("is ") || b.description.hasPrefix("has ") ? b.description : "is damaged: " + b.description)))
                default: break
                }
            }
            return .failure(.message("that is not a public key (npub1… or 64 hex characters)."))
        }
        guard (try? PublicKey(hex: pk)) != nil else {
            return .failure(.message("not a public key: \(pk.prefix(8))… is not a point on secp256k1."))
        }
        return .success(pk)
    }

    /// The relays an nprofile names (normalised, at most 3): where its person may be found.
    /// Anything else has none.
    public static func relayHints(in input: String) -> [String] {
        var s = input.trimmingWhitespace()
        if s.lowercased().hasPrefix("nostr:") { s = String(s.dropFirst(6)) }
        guard s.lowercased().hasPrefix("nprofile1"), case .nprofile(let profile)? = try? NIP19.decode(s) else { return [] }
        var out = [String]()
        for relay in profile.relays {
            if let url = RelayURL.normalized(relay), !out.contains(url) { out.append(url) }
            if out.count == 3 { break }
        }
        return out
    }

    /// An npub (or `nostr:npub…`, nprofile) or 64-hex.
    public static func fromAnyForm(_ input: String) -> Pubkey? {
        let s = input.trimmingWhitespace()
        let lower = s.lowercased()
        if lower.hasPrefix("npub1") || lower.hasPrefix("nostr:") || lower.hasPrefix("nprofile1") {
            return (try? PublicKey.parse(s))?.hex
        }
        return hex(s)
    }

    /// Normalizes each entry, silently dropping invalid ones; deduplicated, first-seen order.
    public static func dedupedList(_ inputs: [String]) -> [Pubkey] {
        var seen = Set<Pubkey>()
        var out = [Pubkey]()
        for input in inputs {
            guard let k = fromAnyForm(input), seen.insert(k).inserted else { continue }
            out.append(k)
        }
        return out
    }

    /// All-or-nothing: one invalid entry rejects the list. Deduplicated, first-seen order.
    public static func validatedList(_ inputs: [String]) -> [Pubkey]? {
        var seen = Set<Pubkey>()
        var out = [Pubkey]()
        for input in inputs {
            guard let k = fromAnyForm(input) else { return nil }
            if seen.insert(k).inserted { out.append(k) }
        }
        return out
    }
}
