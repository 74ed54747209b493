import LinkstrDomain

/// What happened while opening an account: unlocking, creating, importing or restoring one.
public enum OnboardingAction: Equatable, Sendable {
    case identityMissing
    /// LINKSTR_PASSPHRASE (or --passphrase-file) gives the passphrase: onboarding does not ask for one.
    case passphraseInEnvironment
    case passphraseNeeded(pubkey: Pubkey, npub: String)
    case unlockFailed(ClientError)
    /// The passphrase the environment gave does not open the key: it is asked for here.
    case environmentPassphraseRefused
    case onboardingFailed(ClientError)
    case identityCreated(IdentityInfo, nsec: RevealedSecret)
    /// The chosen file is a sealed backup: its passphrase is needed to check it.
    case backupNeedsPassphrase(path: String)
    /// The backup passed every check (wire 2026 §8); it holds `npub`'s account.
    case backupChecked(path: String, backupPassphrase: String?, npub: String)
    /// A backup was restored and its account opened.
    case backupRestored(sessionsAdded: Int, postsAdded: Int)
}
