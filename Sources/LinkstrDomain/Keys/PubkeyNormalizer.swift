import NostrProtocol

/// A public key as the domain stores it: 64 lowercase hex characters.
public typealias Pubkey = String

/// Key normalization (wire document §1.2), stricter than iOS: exactly 64 hex digits, never "any even length".
public enum PubkeyNormalizer {
    /// Trimmed, lowercased 64-hex, or nil.
    public static func hex(_ input: String) -> Pubkey? {
        let s = input.trimmingWhitespace().lowercased()
        return Hex.isLowercaseHex(s, byteCount: 32) ? s : nil
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
