import Foundation

/// How a person is called, the one rule for the app and the CLI: "you", then your private alias for
/// them, then the profile name they chose (kind 0), then a short npub (the iOS order).
///
/// A profile name is anyone's to choose, so it never looks like an alias: it is shown as `~Pete`. And a
/// stranger who takes the name of one of your people ("Pete", your alias for a real contact, or a
/// contact's own profile name) is marked: `~Pete (not your Pete)`, in the request list and the feed alike.
public struct PersonNaming: Equatable, Sendable {
    public let me: Pubkey?
    private let aliases: [Pubkey: String]
    private let profileNames: [Pubkey: String]
    private let contacts: Set<Pubkey>
    /// Folded names that stand for your people, and whose they are.
    private let yours: [String: Set<Pubkey>]
    private let contactProfileNames: [String: Set<Pubkey>]

    public init(me: Pubkey?, contacts: [(pubkey: Pubkey, alias: String?)], profileNames: [Pubkey: String]) {
        self.me = me
        var aliases = [Pubkey: String](), yours = [String: Set<Pubkey>](), contactNames = [String: Set<Pubkey>]()
        for c in contacts {
            if let alias = c.alias.map(DisplayText.singleLine), !alias.isEmpty {
                aliases[c.pubkey] = alias
                yours[Self.fold(alias), default: []].insert(c.pubkey)
            }
            if let name = profileNames[c.pubkey].map(DisplayText.singleLine), !name.isEmpty {
                contactNames[Self.fold(name), default: []].insert(c.pubkey)
            }
        }
        self.aliases = aliases
        self.yours = yours
        contactProfileNames = contactNames
        self.contacts = Set(contacts.map(\.pubkey))
        self.profileNames = profileNames.compactMapValues { name in
            let line = DisplayText.singleLine(name)
            return line.isEmpty ? nil : line
        }
    }

    public func name(_ pubkey: Pubkey) -> String {
        if pubkey == me { return "you" }
        if let alias = aliases[pubkey] { return alias }
        guard let chosen = profileNames[pubkey] else { return AccountState.shortNpub(pubkey) }
        return isImpostor(pubkey, chosen) ? "~\(chosen) (not your \(chosen))" : "~\(chosen)"
    }

    /// Whether `name`, chosen by `pubkey`, is the alias of someone else, or (for a stranger) one of your
    /// contacts' own names.
    public func isImpostor(_ pubkey: Pubkey, _ name: String) -> Bool {
        let folded = Self.fold(name)
        if let owners = yours[folded], !owners.subtracting([pubkey]).isEmpty { return true }
        if !contacts.contains(pubkey), let owners = contactProfileNames[folded], !owners.subtracting([pubkey]).isEmpty { return true }
        return false
    }

    /// Names compared as people read them: case, width and accents aside, blanks trimmed.
    static func fold(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "~", with: "")
    }
}
