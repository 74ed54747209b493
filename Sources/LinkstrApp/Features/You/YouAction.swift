import LinkstrDomain

/// What happened in the You pane: contacts, identities, "added you", our profile name.
public enum YouAction: Equatable, Sendable {
    case contactsLoaded([Contact])
    case profileNamesLoaded([Pubkey: String])
    /// People's `nip05` and what NIP-05 said of each.
    case nip05Loaded([Pubkey: NIP05Mark])
    /// Our own name as the relays have it (set on another device or client).
    case ownProfileNameLoaded(String?)
    case identitiesLoaded([IdentityEntry])
    /// "Added you" (wire 2026 §7.2): who follows us, as the relays answered.
    /// `complete`: every relay sent its whole answer (else the list may be short).
    case addedYouLoaded([Pubkey], complete: Bool)
    case addedYouFailed(ClientError)
    /// A follow list arrived live while "added you" is shown.
    case addedYouChanged([Pubkey])
    case contactSaved(Pubkey)
    case contactSaveFailed(ClientError)
    case contactRemoved(Pubkey)
    case profileNameSaved(String?)
}
