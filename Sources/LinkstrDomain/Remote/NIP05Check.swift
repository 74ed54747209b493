/// Names people can verify (NIP-05): a profile's `nip05` (`alice@example.com`) is shown as verified only
/// when the domain's `/.well-known/nostr.json?name=alice` maps that name to the profile's own key. What
/// was found is kept (sealed) and asked again at most once a day, or at once when the name changes.
public struct NIP05Check: Equatable, Sendable {
    /// The identifier as checked (`name@domain`, lowercased; `_@domain` for a bare domain).
    public var identifier: String
    public var verified: Bool
    public var checkedAt: Int64

    public init(identifier: String, verified: Bool, checkedAt: Int64) {
        self.identifier = identifier
        self.verified = verified
        self.checkedAt = checkedAt
    }

    public static let recheckAfter: Int64 = 24 * 3600

    /// Whether `nip05` (as the profile says it now) must be asked about again at `now`.
    public func isStale(for nip05: String, now: Int64) -> Bool {
        identifier != NIP05Relays.identifier(nip05)?.text || now - checkedAt >= Self.recheckAfter || checkedAt > now
    }

    /// Whether `document` maps `id`'s name to `pubkey` (the rest of the document is not looked at).
    public static func verifies(document: String, id: NIP05Relays.Identifier, pubkey: Pubkey) -> Bool {
        NIP05Relays.relays(document: document, name: id.name, pubkey: pubkey) != nil
    }
}

/// A person's `nip05` as the front ends show it, with what NIP-05 said (nil: not asked yet).
public struct NIP05Mark: Equatable, Sendable {
    public var nip05: String
    public var verified: Bool?

    public init(nip05: String, verified: Bool?) {
        self.nip05 = nip05
        self.verified = verified
    }

    /// "✓ alice@example.com" when verified, "alice@example.com (unverified)" when the domain did not
    /// vouch for the key (or could not be asked), the bare name while unchecked. Never verified-looking
    /// otherwise: a name a stranger chose is theirs to claim.
    public var text: String {
        let shown = DisplayText.singleLine(nip05)
        switch verified {
        case true?: return "✓ " + shown
        case false?: return shown + " (unverified)"
        case nil: return shown
        }
    }
}
