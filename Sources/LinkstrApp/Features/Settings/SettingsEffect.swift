import LinkstrDomain

/// Work for Settings: the relay list and its tests, the secret key, backups, theme, cache, repair, leaving.
public enum SettingsEffect: Equatable, Sendable {
    /// Loads a colour theme and redraws in it (the terminal loop does it: it owns the colours).
    case applyTheme(String)
    case addRelay(String)
    case removeRelay(String)
    case setRelayEnabled(String, Bool)
    /// Settings' "test relay": a fresh connection and one answered subscription, timed.
    case testRelay(String)
    case resetRelays
    /// Writes this account's backup to a new file: sealed with `passphrase`, or the iOS app's plain file (nil).
    case exportBackup(path: String, passphrase: String?)
    case revealSecret
    /// The key file sealed again with `new` (opened with `old`).
    case changePassphrase(old: String, new: String)
    /// The passphrase into the keyring (proved first), or out of it (nil).
    case setKeyring(passphrase: String?)
    /// The secret key was shown (or exported): it has a copy beyond this device's key file.
    case markKeyBackedUp
    /// The shown secret key to the clipboard (made into text only for that).
    case copySecret(RevealedSecret)
    case logout(clearData: Bool)
    case deleteAccount
    case clearCache
    /// How much the media cache holds, for the Storage row.
    case loadMediaUsage
    /// Drops stored records that no longer open, so relays can bring them back.
    case repairDamagedRecords
    /// Fresh relay figures (counts, latency) while Settings shows them: the pool counts without telling.
    case refreshRelayStats
    /// Our blocked relays (kind 10006): read, block one, unblock one.
    case loadBlockedRelays
    case blockRelay(String)
    case unblockRelay(String)
    /// Our inbox relays (kind 10050): read, or chosen (nil: the relays we use again).
    case loadInboxRelays
    case setInboxRelays([String]?)
    /// The delivery doctor for a session (nil: everyone we know), its lines wrapped to `width`.
    case runDoctor(sessionID: String?, width: Int)
    /// The user said yes to the hooks config.toml names: kept for this account, and they run from now.
    case allowHooks
}
