import Foundation
import NostrProtocol

/// Finds a contact's npub in pasted or scanned text (wire document §1.3), trying in order:
/// the whole text, a `nostr:` prefix, the first npub-looking word anywhere, a URL `npub` query item.
public enum ContactKeyParser {
    public static func npub(in text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        if isValidNpub(trimmed) { return trimmed.lowercased() }
        if trimmed.lowercased().hasPrefix("nostr:") {
            let rest = String(trimmed.dropFirst(6))
            if isValidNpub(rest) { return rest.lowercased() }
        }
        for candidate in npubLikeWords(in: trimmed) where isValidNpub(candidate) { return candidate }
        if let components = URLComponents(string: trimmed) {
            for item in components.queryItems ?? [] where item.name.lowercased() == "npub" {
                if let v = item.value, isValidNpub(v) { return v.lowercased() }
            }
        }
        return nil
    }

    /// The public key hex for pasted text: an npub found as above, or 64 hex characters.
    public static func pubkey(in text: String) -> Pubkey? {
        if let npub = npub(in: text), let key = try? PublicKey.parse(npub) { return key.hex }
        return PubkeyNormalizer.hex(text)
    }

    private static func isValidNpub(_ s: String) -> Bool {
        guard s.lowercased().hasPrefix("npub1"), case .npub? = try? NIP19.decode(s) else { return false }
        return true
    }

    /// Substrings matching `npub1[023456789acdefghjklmnpqrstuvwxyz]{20,}`.
    private static func npubLikeWords(in text: String) -> [String] {
        let charset = Set("023456789acdefghjklmnpqrstuvwxyz")
        let chars = Array(text)
        var out = [String]()
        var i = 0
        while i + 5 <= chars.count {
            if String(chars[i..<(i + 5)]) == "npub1" {
                var j = i + 5
                while j < chars.count, charset.contains(chars[j]) { j += 1 }
                if j - i - 5 >= 20 { out.append(String(chars[i..<j])) }
                i = j
            } else {
                i += 1
            }
        }
        return out
    }
}
