import Foundation
import LinkstrDomain
import NostrProtocol

/// Identities as NIP-49 `ncryptsec` files (0600) in `<home>/identities` (0700); one is active.
public struct IdentityVault: Sendable {
    public let directory: URL
    private var activeFile: URL { directory.appendingPathComponent("active") }

    public init(paths: DataPaths) { directory = paths.identities }

    public struct Identity: Equatable, Sendable {
        public let pubkey: Pubkey
        public var npub: String { (try? PublicKey(hex: pubkey))?.npub ?? pubkey }
        public let isActive: Bool
    }

    public func list() throws(VaultError) -> [Identity] {
        let active = activePubkey()
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch { return [] }
        return names.filter { $0.hasSuffix(".ncryptsec") }.map { String($0.dropLast(10)) }
            .filter { Hex.isLowercaseHex($0, byteCount: 32) }.sorted()
            .map { Identity(pubkey: $0, isActive: $0 == active) }
    }

    public func activePubkey() -> Pubkey? {
        guard let text = try? String(contentsOf: activeFile, encoding: .utf8) else { return nil }
        let pk = text.trimmingWhitespace()
        return FileManager.default.fileExists(atPath: file(for: pk).path) ? pk : nil
    }

    public func setActive(_ pubkey: Pubkey) throws(VaultError) {
        guard FileManager.default.fileExists(atPath: file(for: pubkey).path) else { throw .unknownIdentity }
        try write(Data((pubkey + "\n").utf8), to: activeFile)
    }

    /// Encrypts `key` with the passphrase and stores it; the first identity becomes active.
    @discardableResult
    public func store(_ key: SecretKey, passphrase: String, logN: UInt8 = NIP49.defaultLogN,
                      security: NIP49.KeySecurity = .untracked) throws(VaultError) -> Identity {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        let encrypted: String
        do { encrypted = try NIP49.encrypt(key, password: passphrase, logN: logN, security: security) } catch { throw .crypto(error.description) }
        try write(Data((encrypted + "\n").utf8), to: file(for: key.publicKey.hex))
        if activePubkey() == nil { try setActive(key.publicKey.hex) }
        return Identity(pubkey: key.publicKey.hex, isActive: activePubkey() == key.publicKey.hex)
    }

    public func ncryptsec(for pubkey: Pubkey) throws(VaultError) -> String {
        let path = file(for: pubkey).path
        guard FileManager.default.fileExists(atPath: path) else { throw .unknownIdentity }
        // A key another user planted (or can replace) is not ours to unlock.
        if let why = FileTrust.distrust(path, allowRoot: false) { throw .io(why + ".") }
        // An unreadable file is not a missing identity: say what is wrong with it.
        let bytes: [UInt8]
        do throws(BoundedRead.Failure) { bytes = try BoundedRead.file(path, limit: InputLimits.keyText, what: "the key file") } catch {
            throw .io(error.description)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    /// Decrypts the identity; a wrong passphrase is `.wrongPassphrase`, never a crash.
    public func unlock(_ pubkey: Pubkey, passphrase: String) throws(VaultError) -> SecretKey {
        try opened(pubkey, passphrase: passphrase).key
    }

    /// Re-encrypts the identity's key file under `new` (unlocked with `old` first; a wrong one changes
    /// nothing), at the scrypt cost `logN`, keeping what the file says of the key's handling. The new file
    /// replaces the old by rename after it is synced (`PrivateFile`): a kill at any moment leaves one of
    /// the two, whole.
    public func changePassphrase(_ pubkey: Pubkey, old: String, new: String, logN: UInt8) throws(VaultError) {
        guard !new.isEmpty else { throw .emptyPassphrase }
        let (key, security) = try opened(pubkey, passphrase: old)
        let encrypted: String
        do { encrypted = try NIP49.encrypt(key, password: new, logN: logN, security: security ?? .untracked) } catch { throw .crypto(error.description) }
        try write(Data((encrypted + "\n").utf8), to: file(for: pubkey))
    }

    /// The key file opened with `passphrase`, and what it says of the key's handling.
    private func opened(_ pubkey: Pubkey, passphrase: String) throws(VaultError) -> (key: SecretKey, security: NIP49.KeySecurity?) {
        let text = try ncryptsec(for: pubkey)
        let opened: (key: SecretKey, security: NIP49.KeySecurity?)
        do { opened = try NIP49.decrypt(text, password: passphrase) } catch {
            throw error == .wrongPasswordOrCorrupted ? .wrongPassphrase : .crypto(error.description)
        }
        guard opened.key.publicKey.hex == pubkey else { throw .corrupt }
        return opened
    }

    /// False for a key made here whose secret was never shown, copied or exported: its file is the only
    /// copy, and logging out would lose the account. (A marker file beside the key, `<pubkey>.unsaved`;
    /// no secret in it, so it is read without the passphrase.)
    public func isBackedUp(_ pubkey: Pubkey) -> Bool {
        !FileManager.default.fileExists(atPath: unsavedMarker(for: pubkey).path)
    }

    /// Records whether the key has a copy outside this file (shown, copied, exported).
    public func setBackedUp(_ pubkey: Pubkey, _ backedUp: Bool) throws(VaultError) {
        let marker = unsavedMarker(for: pubkey)
        if backedUp {
            guard FileManager.default.fileExists(atPath: marker.path) else { return }
            do { try FileManager.default.removeItem(at: marker) } catch { throw .io("cannot update \(marker.path): \(FileErrorWords.reason(error))") }
        } else {
            try write(Data(), to: marker)
        }
    }

    func unsavedMarker(for pubkey: Pubkey) -> URL { directory.appendingPathComponent("\(pubkey).unsaved") }

    /// Whether the passphrase of `pubkey` was put in the keyring (`identity keyring on`): only then is the
    /// keyring asked, and what goes wrong with it said.
    public func usesKeyring(_ pubkey: Pubkey) -> Bool {
        FileManager.default.fileExists(atPath: keyringMarker(for: pubkey).path)
    }

    public func setUsesKeyring(_ pubkey: Pubkey, _ uses: Bool) throws(VaultError) {
        let marker = keyringMarker(for: pubkey)
        if uses {
            try write(Data(), to: marker)
        } else if FileManager.default.fileExists(atPath: marker.path) {
            do { try FileManager.default.removeItem(at: marker) } catch { throw .io("cannot update \(marker.path): \(FileErrorWords.reason(error))") }
        }
    }

    func keyringMarker(for pubkey: Pubkey) -> URL { directory.appendingPathComponent("\(pubkey).keyring") }

    /// Forgets the identity file (log out). Local data stays unless cleared separately.
    public func remove(_ pubkey: Pubkey) throws(VaultError) {
        do { try FileManager.default.removeItem(at: file(for: pubkey)) } catch { throw .unknownIdentity }
        if FileManager.default.fileExists(atPath: unsavedMarker(for: pubkey).path) {
            do { try FileManager.default.removeItem(at: unsavedMarker(for: pubkey)) } catch { throw .io("cannot remove \(unsavedMarker(for: pubkey).path)") }
        }
        if (try? String(contentsOf: activeFile, encoding: .utf8))?.trimmingWhitespace() == pubkey {
            try? FileManager.default.removeItem(at: activeFile)
            if let next = try list().first { try setActive(next.pubkey) }
        }
    }

    func file(for pubkey: Pubkey) -> URL { directory.appendingPathComponent("\(pubkey).ncryptsec") }

    /// Atomic, synced write of a 0600 file inside the 0700 directory (`PrivateFile`).
    private func write(_ data: Data, to url: URL) throws(VaultError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw .io(FileErrorWords.reason(error)) }
        do { try PrivateFile.replace(data, at: url.path) } catch {
            switch error {
            case .writeFailed: throw .io("could not write \(url.path) (disk full?); the previous file was kept.")
            case .cannotCreate(let why): throw .io("cannot write \(url.path): \(why).")
            case .exists: throw .io("cannot write \(url.path).")
            }
        }
    }
}

public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownIdentity
    case wrongPassphrase
    case emptyPassphrase
    case noPassphrase
    case corrupt
    case crypto(String)
    case io(String)

    public var description: String {
        switch self {
        case .unknownIdentity: return "no such identity on this device."
        case .wrongPassphrase: return "wrong passphrase."
        case .emptyPassphrase: return "a passphrase is required to protect the key on disk."
        case .noPassphrase: return "a passphrase is needed: set LINKSTR_PASSPHRASE, pass --passphrase-file, or run in a terminal."
        case .corrupt: return "the identity file is damaged."
        case .crypto(let m): return m
        case .io(let m): return m
        }
    }
}
