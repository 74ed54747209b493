import Foundation
import NostrProtocol

/// linkstr's own encrypted backup: the same contents as the iOS file, but nothing readable without the
/// passphrase. The secret key is a NIP-49 `ncryptsec` (so any NIP-49 tool can recover the key alone);
/// the rest is the iOS JSON with an empty `nsec`, sealed with XChaCha20-Poly1305 under a key scrypt
/// derives from the same passphrase with its own salt, the `ncryptsec` as associated data (the two
/// parts cannot be swapped between files).
public struct SealedBackup: Codable, Equatable, Sendable {
    public static let format = "linkstr-sealed-backup"
    public var format: String
    public var version: Int
    public var ncryptsec: String
    public var logN: UInt8
    public var salt: Data
    public var nonce: Data
    public var sealed: Data

    enum CodingKeys: String, CodingKey {
        case format, version, ncryptsec, logN = "log_n", salt, nonce, sealed
    }

    /// Whether `data` is this form (else it is read as the iOS file).
    public static func isSealed(_ data: Data) -> Bool {
        struct Probe: Decodable { let format: String }
        return (try? JSONDecoder().decode(Probe.self, from: data))?.format == format
    }

    public static func seal(_ file: IOSBackupFile, key: SecretKey, passphrase: String, logN: UInt8 = NIP49.defaultLogN,
                            random: any RandomSource = SystemRandom()) throws -> Data {
        let ncryptsec = try NIP49.encrypt(key, password: passphrase, logN: logN, security: .notKnownInsecure, random: random)
        var inner = file
        inner.nsec = ""
        var plain = [UInt8](try inner.encoded())
        defer { SecretBytes.wipe(&plain) }
        let salt = random.bytes(16), nonce = random.bytes(24)
        let sealed = try derive(passphrase, salt: salt, logN: logN).withUnsafeBytes { k in
            try nonce.withUnsafeBytes { n in
                try plain.withUnsafeBytes { p in
                    try Array(ncryptsec.utf8).withUnsafeBytes { a in try XChaCha20Poly1305.seal(key: k, nonce24: n, plaintext: p, aad: a) }
                }
            }
        }
        let out = SealedBackup(format: format, version: 1, ncryptsec: ncryptsec, logN: logN, salt: Data(salt), nonce: Data(nonce), sealed: Data(sealed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(out)
    }

    /// The iOS file inside, its `nsec` restored from the `ncryptsec`.
    public static func open(_ data: Data, passphrase: String) throws(BackupError) -> IOSBackupFile {
        guard let box = try? JSONDecoder().decode(SealedBackup.self, from: data), box.format == format else {
            throw .notABackup("not a linkstr sealed backup.")
        }
        guard box.version == 1 else { throw box.version > 1 ? .newerVersion : .invalid("unsupported sealed backup version \(box.version).") }
        guard box.logN >= 1, box.logN <= NIP49.maxLogN, box.salt.count == 16, box.nonce.count == 24 else {
            throw .invalid("its key derivation parameters are not valid.")
        }
        let key: SecretKey
        do { key = try NIP49.decrypt(box.ncryptsec, password: passphrase).key } catch {
            throw error == .wrongPasswordOrCorrupted ? .cannotOpen("wrong passphrase, or the backup is damaged.") : .invalid("its key: \(error).")
        }
        var plain: [UInt8]
        do {
            plain = try derive(passphrase, salt: [UInt8](box.salt), logN: box.logN).withUnsafeBytes { k in
                try [UInt8](box.nonce).withUnsafeBytes { n in
                    try [UInt8](box.sealed).withUnsafeBytes { c in
                        try Array(box.ncryptsec.utf8).withUnsafeBytes { a in try XChaCha20Poly1305.open(key: k, nonce24: n, sealed: c, aad: a) }
                    }
                }
            }
        } catch {
            throw .cannotOpen("wrong passphrase, or the backup is damaged.")
        }
        defer { SecretBytes.wipe(&plain) }
        var file = try IOSBackupFile.decode(Data(plain))
        file.nsec = key.revealNsec()
        return file
    }

    private static func derive(_ passphrase: String, salt: [UInt8], logN: UInt8) throws(BackupError) -> SecretBytes {
        var pw = NIP49.normalize(password: passphrase)
        defer { SecretBytes.wipe(&pw) }
        do {
            return try pw.withUnsafeBytes { p in try salt.withUnsafeBytes { s in try Scrypt.derive(password: p, salt: s, logN: logN, length: 32) } }
        } catch {
            throw .cannotOpen("could not derive the key from the passphrase (out of memory?).")
        }
    }
}
