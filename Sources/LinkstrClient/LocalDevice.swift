import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// This device's linkstr: the data directory's database (every account's store) beside the identities'
/// key files. The front ends reach the database only through it: an account opens as an
/// `AccountSession` (`openAccount`), identities are made, imported, restored and forgotten through
/// their use cases, and a damaged account is rebuilt.
public final class LocalDevice: Sendable {
    public let vault: IdentityVault
    let local: LocalStore

    /// The database in `paths` (made 0700/0600 when new).
    public init(paths: DataPaths, vault: IdentityVault) throws {
        local = try LocalStore(paths: paths)
        self.vault = vault
    }

    /// A database in memory (`--in-memory`: nothing is written to disk).
    public init(inMemoryWith vault: IdentityVault) throws {
        local = try LocalStore()
        self.vault = vault
    }

    /// Identities: create, import, forget.
    public var identities: IdentityActions { IdentityActions(vault: vault, local: local) }

    /// Backups: restore one, export one (`AccountSession.exportBackup`).
    public var backups: BackupActions { BackupActions(vault: vault, local: local) }

    /// Opens `key`'s account (`AccountSession.init` says what each argument is).
    public func openAccount(_ key: SecretKey, relayOverrides: [String], mediaCacheBytes: Int64 = Thumbnails.defaultCacheBytes,
                            indexers: [String] = [], holdsDataLock: Bool = false,
                            queueHoldAfterDays: Int = SendQueuePolicy.defaultHoldAfterDays, time: TimeSource = .live) throws -> AccountSession {
        try AccountSession(key, in: local, relayOverrides: relayOverrides, mediaCacheBytes: mediaCacheBytes, indexers: indexers,
                           holdsDataLock: holdsDataLock, queueHoldAfterDays: queueHoldAfterDays, time: time)
    }

    /// Whether `key`'s account's data key opens (when it does not, `rebuildAccount` is the way back).
    public func dataKeyOpens(_ key: SecretKey) throws -> Bool { try local.dataKeyOpens(key) }

    /// Clears `key`'s account's data here and starts it again (identity and relays kept).
    public func rebuildAccount(_ key: SecretKey, now: Int64) throws { _ = try local.rebuildAccount(key, now: now) }
}
