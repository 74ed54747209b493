/// Parsing keys that people paste, with errors that say what went wrong.
extension SecretKey {
    /// Accepts `nsec1…` or 64 hex characters (surrounding whitespace ignored).
    public static func parse(_ input: String) throws(KeyError) -> SecretKey {
        let text = input.trimmingWhitespace()
        guard !text.isEmpty else { throw .empty }
        let lower = text.lowercased()
        if lower.hasPrefix("npub1") || lower.hasPrefix("nprofile1") { throw .isPublicKey }
        if lower.hasPrefix("ncryptsec1") { throw .isEncryptedSecretKey }
        if lower.hasPrefix("nsec1") {
            do {
                guard case .nsec(let key) = try NIP19.decode(text) else { throw KeyError.unrecognized }
                return key
            } catch let error as NIP19Error {
                switch error {
                case .bech32(let b): throw .bech32(b)
                case .invalidKey(let k): throw k
                default: throw .unrecognized
                }
            } catch let error as KeyError {
                throw error
            } catch {
                throw .unrecognized
            }
        }
        if text.utf8.allSatisfy({ Hex.nibble($0) != nil }) {
            return try SecretKey(hex: text)
        }
        throw .unrecognized
    }
}

extension PublicKey {
    /// Accepts `npub1…`, `nprofile1…`, an optional `nostr:` prefix, or 64 hex characters.
    public static func parse(_ input: String) throws(KeyError) -> PublicKey {
        var text = input.trimmingWhitespace()
        guard !text.isEmpty else { throw .empty }
        if text.lowercased().hasPrefix("nostr:") { text = String(text.dropFirst(6)) }
        let lower = text.lowercased()
        if lower.hasPrefix("nsec1") { throw .isSecretKey }
        if lower.hasPrefix("ncryptsec1") { throw .isEncryptedSecretKey }
        if lower.hasPrefix("npub1") || lower.hasPrefix("nprofile1") {
            let entity: NIP19.Entity
            do { entity = try NIP19.decode(text) } catch {
                switch error {
                case .bech32(let b): throw .bech32(b)
                case .invalidKey(let k): throw k
                default: throw .unrecognized
                }
            }
            switch entity {
            case .npub(let key): return key
            case .nprofile(let profile): return profile.publicKey
            default: throw .unrecognized
            }
        }
        if text.utf8.allSatisfy({ Hex.nibble($0) != nil }) {
            return try PublicKey(hex: text.lowercased())
        }
        throw .unrecognized
    }
}

extension String {
    /// Trims whitespace and line breaks (Unicode-aware) from both ends.
    public func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace || f.isNewline { s.removeFirst() }
        while let l = s.last, l.isWhitespace || l.isNewline { s.removeLast() }
        return String(s)
    }
}
