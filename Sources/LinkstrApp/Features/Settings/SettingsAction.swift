import LinkstrDomain

/// What happened in Settings: relay rows and tests, the secret shown, backups, cache, theme, repair.
public enum SettingsAction: Equatable, Sendable {
    case relaysChanged([RelayRow])
    /// Cached media and previews were cleared.
    case cacheCleared
    case mediaUsageLoaded(MediaUsage)
    /// A backup file was written at `path`.
    case backupExported(path: String)
    case backupExportFailed(ClientError)
    case secretRevealed(RevealedSecret)
    /// Settings' passphrase change answered.
    case passphraseChangeAnswered(PassphraseChange)
    case keyringAnswered(KeyringChange)
    case relayTested(url: String, summary: String, ok: Bool)
    /// `:theme NAME` took effect (the colours are redrawn), or could not.
    case themeApplied(String)
    case themeFailed(ClientError)
    /// Stored records whose sealed values no longer open were left out of what was read (so far, in all).
    case damagedRecordsLeftOut(Int)
    /// `:repair` dropped them; `historyReread`: the next start reads the whole history again.
    case damagedRecordsRepaired(dropped: Int, historyReread: Bool)
    /// Our blocked relays as they stand (`pending`: not yet published).
    case blockedRelaysLoaded([String], pending: Bool)
    /// A relay was blocked or unblocked; `note`: why it is not published yet.
    case blockedRelayEdited(url: String, blocked: Bool, note: String?)
    /// Our inbox relays as they stand (`chosen`: chosen, else the relays we use).
    case inboxRelaysLoaded([String], chosen: Bool)
    /// Our inbox relays were chosen (or reset); `note`: why they are not published yet.
    case inboxRelaysSaved(note: String?)
    /// The delivery doctor's report, in lines.
    case doctorReported(sessionID: String?, lines: [String])
    /// config.toml names hooks this account has not allowed (new, or changed since): each `kind = command`.
    case hooksNeedConsent([String])
    /// A hook could not run, ran over its time or failed (said once each).
    case hookSaid(String)
}
