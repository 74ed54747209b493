import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// `.linkstrbackup` files, for the terminal app and the CLI alike (wire 2026 §8): restore one from
/// the iOS app or from an export made here, and export in either form.
public struct BackupActions: Sendable {
    public let vault: IdentityVault
    public let local: LocalStore

    public init(vault: IdentityVault, local: LocalStore) {
        self.vault = vault
        self.local = local
    }

    public enum Format: String, Sendable, CaseIterable {
        /// The iOS app's file: plain JSON with the secret key in plain text.
        case ios
        /// linkstr's own: the key as NIP-49, the rest sealed under the passphrase.
        case sealed
    }

    /// What the user is told before a plain export is written.
    public static let plaintextWarning =
        "this file holds your secret key (nsec) in plain text: anyone who reads it can act as you. Keep it offline, and delete it once restored."

    /// Whether the file at `path` is a sealed export (it needs the backup passphrase to read).
    public static func needsPassphrase(_ path: String) throws(BackupError) -> Bool {
        SealedBackup.isSealed(try read(path))
    }

    /// Reads, opens (a sealed file with `passphrase`) and checks every wire 2026 §8 rule. Nothing is written.
    public static func load(_ path: String, passphrase: String?) throws(BackupError) -> ValidatedBackup {
        let data = try read(path)
        if SealedBackup.isSealed(data) {
            guard let passphrase else { throw .cannotOpen("this backup is sealed: its passphrase is needed.") }
            return try BackupValidation.validate(try SealedBackup.open(data, passphrase: passphrase))
        }
        return try BackupValidation.validate(data)
    }

    /// The file's bytes, refused before reading when it is over the limit.
    static func read(_ path: String) throws(BackupError) -> Data {
        let url = URL(fileURLWithPath: path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw .notABackup("cannot read \(path).")
        }
        if let size = attributes[.size] as? NSNumber, size.intValue > BackupLimits.fileBytes {
            throw .tooLarge("\(size.intValue / (1024 * 1024)) MiB; a backup holds at most 128 MiB.")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular, let data = try? Data(contentsOf: url) else {
            throw .notABackup("cannot read \(path).")
        }
        return data
    }

    /// Restores `backup`: its key is stored under `passphrase` (unless this device already holds it)
    /// and made active, then its data merges into the account's. A conflict changes nothing stored.
    public func restore(_ backup: ValidatedBackup, passphrase: String?, logN: UInt8 = NIP49.defaultLogN,
                        now: Int64) throws -> (key: SecretKey, store: AccountStore, outcome: BackupRestore.Outcome) {
        let key = backup.secretKey
        let known = try vault.list().contains { $0.pubkey == key.publicKey.hex }
        if !known, (passphrase ?? "").isEmpty { throw VaultError.emptyPassphrase }
        // The data first (one transaction; a conflict throws and leaves it as it was), then the key: a
        // refused backup leaves no identity behind, and a retry merges the same data again harmlessly.
        let store = try local.account(key, now: now)
        let outcome = try store.restoreBackup(backup, now: now)
        if !known, let passphrase {
            // The iOS file held the key in plain text (NIP-49 security byte).
            try vault.store(key, passphrase: passphrase, logN: logN, security: .knownInsecure)
        }
        try vault.setActive(key.publicKey.hex)
        return (key, store, outcome)
    }

    /// This account's data as a backup file.
    public func export(_ store: AccountStore, key: SecretKey, format: Format, passphrase: String?,
                       logN: UInt8 = NIP49.defaultLogN, now: Int64) throws -> Data {
        let file = BackupExport.file(try store.backupContents(secretKey: key), now: now)
        switch format {
        case .ios:
            return try file.encoded()
        case .sealed:
            guard let passphrase, !passphrase.isEmpty else { throw VaultError.emptyPassphrase }
            return try SealedBackup.seal(file, key: key, passphrase: passphrase, logN: logN)
        }
    }

    /// Writes a new file, 0600, never replacing one (a backup must not overwrite what might be another).
    public static func write(_ data: Data, to path: String) throws {
        do { try PrivateFile.create(data, at: path) } catch {
            switch error {
            case .exists: throw BackupError.cannotOpen("\(path) exists already: choose another name.")
            case .cannotCreate(let why): throw BackupError.cannotOpen("cannot create \(path): \(why).")
            case .writeFailed: throw BackupError.cannotOpen("could not write \(path) (disk full?); nothing was kept.")
            }
        }
    }
}
