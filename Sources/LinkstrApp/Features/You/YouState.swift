import LinkstrDomain

public struct YouState: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case contact(Pubkey)
        /// Someone whose follow list names us and who is not a contact ("added you").
        case follower(Pubkey)
        case identity(IdentityEntry)
    }
    /// Who added us, as last asked (nil: not asked yet in this run).
    public var addedYou: [Pubkey]?
    public var askingAddedYou = false
    public var editingName: TextField?
    public var identities: [IdentityEntry] = []
    /// Index into `entries(contacts:)`: contacts first, then who added us, then the other identities.
    public var selection = 0
    public init() {}

    public func entries(contacts: [Contact]) -> [Entry] {
        let known = Set(contacts.map(\.pubkey))
        return contacts.map { .contact($0.pubkey) } + (addedYou ?? []).filter { !known.contains($0) }.map { .follower($0) }
            + (identities.count > 1 ? identities.map { .identity($0) } : [])
    }
}

public struct IdentityEntry: Equatable, Sendable {
    public var pubkey: Pubkey
    public var npub: String
    public var active: Bool
    public init(pubkey: Pubkey, npub: String, active: Bool) { self.pubkey = pubkey; self.npub = npub; self.active = active }
}

/// Adding a contact (key and private alias), or renaming one (`editing` fixes the key).
public struct ContactForm: Equatable, Sendable {
    public var key = TextField()
    public var alias = TextField()
    /// 0: the key field; 1: the alias field.
    public var focus = 0
    public var editing: Pubkey?
    public var busy = false
    public var error: String?
    public init() {}
    public init(editing pubkey: Pubkey, alias: String?) {
        editing = pubkey
        self.alias = TextField(alias ?? "")
        focus = 1
    }

    /// The key as typed, normalised: npub, nostr:npub…, text containing an npub, or hex.
    public var pubkey: Pubkey? { try? checkedKey.get() }

    /// The key, or why what was typed is not one (not a point on the curve, an nsec, …).
    public var checkedKey: Result<Pubkey, DomainError> { editing.map { .success($0) } ?? PubkeyNormalizer.userInput(key.text) }
}
