import LinkstrDomain

public struct UnlockState: Equatable, Sendable {
    public var pubkey: Pubkey
    public var npub: String
    public var passphrase = TextField()
    public var error: String?
    public var busy = false
    /// Locked after use (the idle lock, `:lock`, ^X): the screen shows nothing of the user's, not the npub.
    public var locked = false
    public init(pubkey: Pubkey, npub: String, locked: Bool = false) { self.pubkey = pubkey; self.npub = npub; self.locked = locked }
}

/// A backup chosen at onboarding and checked, waiting for the passphrase of its key here.
public struct PendingRestore: Equatable, Sendable {
    public var path: String
    /// A sealed backup's own passphrase.
    public var backupPassphrase: String?
    /// Whose account it holds.
    public var npub: String
    public init(path: String, backupPassphrase: String?, npub: String) { self.path = path; self.backupPassphrase = backupPassphrase; self.npub = npub }
}

public struct OnboardingState: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case choose(selection: Int)
        case createName(TextField)
        case importKey(TextField)
        case passphrase(TextField, confirm: TextField?, focusConfirm: Bool)
        /// Restoring: the path of a `.linkstrbackup` file.
        case restoreFile(TextField)
        /// Restoring a sealed backup: its own passphrase.
        case restoreSecret(path: String, TextField)
        /// After creating: explains the key; the nsec shows only on request.
        case backup(revealed: RevealedSecret?)
    }
    public var step: Step = .choose(selection: 0)
    /// What the passphrase step will do once done.
    public var pendingName: String?
    public var pendingImport: String?
    public var pendingRestore: PendingRestore?
    /// The new key's nsec, for the backup step only (dropped when it ends).
    public var secretToBackUp: RevealedSecret?
    public var error: String?
    /// A weak new passphrase was said to be weak: Enter again takes it.
    public var weakPassphraseSaid = false
    public var busy = false
    public init() {}
}
