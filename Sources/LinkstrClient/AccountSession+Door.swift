import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What the front ends do with an open account besides its use cases (`AccountActions`): its reads,
/// the few local writes that are no one else's (what the screen remembers, drafts, read marks), and
/// the engine's answers they show. The store, pool and engine stay inside (`AccountSession`).
extension AccountSession {
    /// The account's reads (never its writes).
    public var reads: any AccountReads { store }

    /// What the engine did, in order, for the one reader of this account (the app or `sync`).
    public var updates: AsyncStream<SyncUpdate> { engine.updates }

    /// The account's sealed media cache (thumbnails and saved media; nil for a store in memory).
    public var mediaCache: MediaCache? { thumbnails?.media }

    /// How each relay of the pool stands now.
    public func relaySnapshots() async -> [RelaySnapshot] { await pool.snapshots() }

    // MARK: what the screen and the CLI read

    /// How people are named here (aliases, profile names, short keys).
    public func naming() throws -> PersonNaming { try PersonNaming(store) }

    /// `people`'s `nip05` and what NIP-05 said of it.
    public func nip05Marks(of people: some Sequence<Pubkey>) throws -> [Pubkey: NIP05Mark] { try NIP05Names.marks(store, people: people) }

    /// Members of a session that a post would not reach where they read (`ReachCheck`).
    public func reachWarnings(session sessionID: String, ours: [String], now: Int64) throws -> [String] {
        try store.reachWarnings(session: sessionID, ours: ours, now: now)
    }

    /// Each member's delivery of one of our posts (`PostDeliveries`).
    public func deliveryRows(of post: PostRecord) throws -> [MemberDeliveryRow] { try store.deliveryRows(of: post) }
    public func deliveryRows(of postID: String) throws -> [MemberDeliveryRow] { try store.deliveryRows(of: postID) }

    /// The stored relay list, without this run's `--relay` (which the `relays` commands do not edit).
    public func storedRelays() throws -> RelayList { try RelayList(store: store, overrides: [], now: time.wallSeconds()) }

    // MARK: local writes (no wire form)

    /// The settings only this device's screen keeps; every other setting is a use case's.
    public enum ScreenSetting: Sendable {
        case uiPosition, mutedSessions, commandHistory

        var setting: Setting {
            switch self {
            case .uiPosition: .uiPosition
            case .mutedSessions: .mutedSessions
            case .commandHistory: .commandHistory
            }
        }
    }

    /// Saves what the screen remembers (where it was, muted sessions, the command history).
    public func saveScreenSetting(_ setting: ScreenSetting, _ value: String?) throws { try store.setSetting(setting.setting, value) }

    /// A session's unsent draft (nil clears it).
    public func saveDraft(_ draft: AccountStore.StoredDraft?, for sessionID: String, now: Int64) throws {
        try store.setDraft(draft, for: sessionID, now: now)
    }

    /// Read marks stay here (wire 2026 §4: no read receipts).
    public func markRead(postID: String, now: Int64) throws { try store.markRead(postID: postID, now: now) }
    public func markSessionRead(_ sessionID: String, now: Int64) throws { try store.markSessionRead(sessionID, now: now) }

    /// A profile name (and NIP-05 name) to publish, kept pending until a relay accepts the kind 0, like
    /// the name given at creation.
    public func setPendingProfileName(_ name: String, nip05: String?) throws {
        if let nip05 { try store.setSetting(.profileNIP05Pending, nip05) }
        try store.setSetting(.profileNamePending, name)
    }

    /// Link previews' titles forgotten (they are fetched again when shown).
    public func clearLinkMetadata() throws { try store.clearLinkMetadata() }

    /// Damaged rows dropped, so the next sync fetches them again.
    public func repairDamagedRows() throws -> AccountStore.DamageReport { try store.repairDamagedRows() }

    // MARK: the engine's work, asked for

    /// A queued send tried again now (nil: every failed or held one); how many were.
    public func retryQueued(_ id: Int64?) async throws -> Int { try await engine.retryQueued(id) }

    /// A queued send taken out, and what it was.
    public func cancelQueued(_ id: Int64) async throws -> QueuedSend { try await engine.cancelQueued(id) }

    /// The send queue drained once (connected first), the deliveries it started ended; how many items
    /// this account's engine has sent.
    public func drainSendQueue() async -> Int {
        let engine = await connectedEngine()
        await engine.drainSendQueue()
        await engine.finishDeliveries()
        return await engine.sendQueueTotals.sent
    }

    /// Inbox deliveries under way, ended (each within its deadline).
    public func finishDeliveries() async { await engine.finishDeliveries() }

    /// Our kind 10050 and 10002, published when the relay list changed them.
    public func publishOwnListsIfChanged() async { _ = await engine.publishOwnListsIfChanged() }
}

/// The account's files: a session exported, the account's backup, its local data cleared.
extension AccountSession {
    /// A session written to a file (`SessionExportFile`).
    @discardableResult
    public func exportSession(_ sessionID: String, to path: String, format: ExportFormat, since: Int64? = nil, replacing: Bool,
                              dataDirectory: URL, now: Int64, thumbnails: MediaCache? = nil) throws(SessionExportFile.Failure) -> ExportedSession {
        try SessionExportFile.write(store, me: me, sessionID: sessionID, to: path, format: format, since: since, replacing: replacing,
                                    dataDirectory: dataDirectory, now: now, thumbnails: thumbnails)
    }

    /// A session as an export reads it (`SessionExportReader`); nil for a session not here.
    public func readExport(_ sessionID: String, since: Int64? = nil, now: Int64, thumbnails: MediaCache? = nil) throws -> ExportedSession? {
        try SessionExportReader.read(store, me: me, sessionID: sessionID, since: since, now: now, thumbnails: thumbnails)
    }

    /// This account's data as a backup file (`BackupActions.export`).
    public func exportBackup(_ backups: BackupActions, format: BackupActions.Format, passphrase: String?, logN: UInt8 = NIP49.defaultLogN,
                             now: Int64) throws -> Data {
        try backups.export(store, key: key, format: format, passphrase: passphrase, logN: logN, now: now)
    }

    /// Logs this account out (`IdentityActions.forget`), its local data cleared when `clearData`.
    @discardableResult
    public func forget(with identities: IdentityActions, clearData: Bool) throws -> String? {
        try identities.forget(me, store: store, clearData: clearData)
    }
}
