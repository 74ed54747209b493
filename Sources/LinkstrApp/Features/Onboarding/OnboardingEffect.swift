import LinkstrDomain

/// Work for opening an account: unlock it, create, import or restore one, or run in memory.
public enum OnboardingEffect: Equatable, Sendable {
    case continueInMemory
    case unlock(passphrase: String)
    /// A nil passphrase is the one the environment gives (`passphraseInEnvironment`).
    case createIdentity(name: String?, passphrase: String?)
    case importIdentity(key: String, passphrase: String?)
    /// Reads and checks the backup at `path` (answers `backupNeedsPassphrase`, `backupChecked` or `onboardingFailed`).
    case checkBackup(path: String, backupPassphrase: String?)
    /// Restore it: `passphrase` stores its key here (nil: the environment's).
    case restoreBackup(path: String, backupPassphrase: String?, passphrase: String?)
}
