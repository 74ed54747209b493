import LinkstrDomain

/// Work for the You pane: contacts, identities, "added you", our profile name.
public enum YouEffect: Equatable, Sendable {
    case loadContacts
    case loadIdentities
    case loadAddedYou
    /// Keep "added you" current from live follow lists (on once it was asked).
    case watchAddedYou(Bool)
    /// `input`: the key as typed (an nprofile's relay hints are kept).
    case addContact(Pubkey, alias: String?, input: String = "")
    case setAlias(Pubkey, alias: String?)
    case removeContact(Pubkey)
    case setProfileName(String?)
    case switchIdentity(Pubkey)
}
