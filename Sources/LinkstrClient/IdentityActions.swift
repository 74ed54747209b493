import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// The identities on this device, for the terminal app and the CLI alike: create, import, forget.
public struct IdentityActions: Sendable {
    public let vault: IdentityVault
    public let local: LocalStore

    public init(vault: IdentityVault, local: LocalStore) {
        self.vault = vault
        self.local = local
    }

    /// A new key, stored under `passphrase` and made active; `name` (optional) is the profile name to
    /// publish on the next sync. Returns the key and its opened account.
    public func create(name: String?, passphrase: String, logN: UInt8 = NIP49.defaultLogN, now: Int64) throws -> (key: SecretKey, store: AccountStore) {
        let key = SecretKey.generate()
        try vault.store(key, passphrase: passphrase, logN: logN, security: .notKnownInsecure)
        // Its only copy until the secret is shown, copied or exported.
        try vault.setBackedUp(key.publicKey.hex, false)
        try vault.setActive(key.publicKey.hex)
        let store = try local.account(key, now: now)
        if let name = name?.trimmingWhitespace(), !name.isEmpty { try store.setSetting(.profileNamePending, name) }
        return (key, store)
    }

    /// An existing key (`nsec`, 64-hex, or an `ncryptsec` opened with `ncryptsecPassword`), stored under
    /// `passphrase` and made active. A key that was ever in plain text is marked so (NIP-49 security byte).
    public func importKey(_ text: String, passphrase: String, ncryptsecPassword: String? = nil, logN: UInt8 = NIP49.defaultLogN) throws -> SecretKey {
        let input = text.trimmingWhitespace()
        let key = input.lowercased().hasPrefix("ncryptsec1")
            ? try NIP49.decrypt(input, password: ncryptsecPassword ?? passphrase).key
            : try SecretKey.parse(input)
        try vault.store(key, passphrase: passphrase, logN: logN, security: .knownInsecure)
        try vault.setActive(key.publicKey.hex)
        return key
    }

    /// Logs out: the key file goes; the account's local data too when `clearData` (else it stays for
    /// when the key is imported again).
    /// Answers what could not be removed from the keyring (best effort: the key file goes either way).
    @discardableResult
    public func forget(_ pubkey: Pubkey, store: AccountStore?, clearData: Bool) throws -> String? {
        if clearData, let store { try local.clearAccount(store) }
        let keyringProblem = vault.forgetKeyring(pubkey, npub: (try? PublicKey(hex: pubkey))?.npub ?? pubkey)
        try vault.remove(pubkey)
        return keyringProblem
    }
}

extension AccountActions {
    /// Account deletion, the relay part: an empty follow list and a NIP-62 request to vanish. Both must
    /// be accepted before anything is wiped here (wire document §7); then `IdentityActions.forget`.
    public func announceDeletion(relays: [String], now: Int64) async throws {
        let engine = try await engine()
        _ = try await engine.publish(NostrEventTemplates.followList([], now: now))
        _ = try await engine.publish(NostrEventTemplates.requestToVanish(relays: relays, now: now))
    }
}
