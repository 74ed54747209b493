import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

final class IdentityVaultTests: StorageTestCase {
    func testStoreUnlockSwitchAndRemove() throws {
        try paths.prepare()
        let vault = IdentityVault(paths: paths)
        let a = SecretKey.generate(), b = SecretKey.generate()
        XCTAssertNil(vault.activePubkey())
        try vault.store(a, passphrase: "correct horse", logN: 10)
        try vault.store(b, passphrase: "battery staple", logN: 10)
        XCTAssertEqual(vault.activePubkey(), a.publicKey.hex, "the first identity becomes active")
        XCTAssertEqual(try vault.list().map(\.pubkey), [a.publicKey.hex, b.publicKey.hex].sorted())
        XCTAssertTrue(try vault.unlock(a.publicKey.hex, passphrase: "correct horse").isSameKey(as: a))
        XCTAssertThrowsError(try vault.unlock(a.publicKey.hex, passphrase: "wrong")) { XCTAssertEqual($0 as? VaultError, .wrongPassphrase) }
        try vault.setActive(b.publicKey.hex)
        XCTAssertEqual(vault.activePubkey(), b.publicKey.hex)
        let file = vault.directory.appendingPathComponent("\(a.publicKey.hex).ncryptsec")
        XCTAssertEqual(try posixMode(file), 0o600)
        XCTAssertEqual(try posixMode(vault.directory), 0o700)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix("ncryptsec1"))
        XCTAssertFalse(try String(contentsOf: file, encoding: .utf8).contains(a.revealHex()))
        try vault.remove(b.publicKey.hex)
        XCTAssertEqual(vault.activePubkey(), a.publicKey.hex, "another identity takes over")
        XCTAssertThrowsError(try vault.unlock(b.publicKey.hex, passphrase: "battery staple")) { XCTAssertEqual($0 as? VaultError, .unknownIdentity) }
        XCTAssertThrowsError(try vault.store(b, passphrase: "")) { XCTAssertEqual($0 as? VaultError, .emptyPassphrase) }
    }

    func testDefaultCostMatchesNIP49() throws {
        try paths.prepare()
        let vault = IdentityVault(paths: paths)
        let key = SecretKey.generate()
        try vault.store(key, passphrase: "pw")
        let decoded = try Bech32.decode(try vault.ncryptsec(for: key.publicKey.hex))
        XCTAssertEqual(decoded.data[1], 16, "log_n 16 by default")
    }

    func testPassphraseSources() throws {
        try paths.prepare()
        let file = paths.home.appendingPathComponent("pw")
        try "from a file\nsecond line\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try PassphraseSource.resolve(file: file.path, environment: ["LINKSTR_PASSPHRASE": "env"], prompt: nil)?.read(), "from a file")
        XCTAssertEqual(try PassphraseSource.resolve(file: nil, environment: ["LINKSTR_PASSPHRASE": "env"], prompt: nil)?.read(), "env")
        XCTAssertEqual(try PassphraseSource.resolve(file: nil, environment: [:], prompt: { _ in "typed" })?.read(), "typed")
        XCTAssertNil(PassphraseSource.resolve(file: nil, environment: [:], prompt: nil))
        XCTAssertThrowsError(try PassphraseSource.file(paths.home.appendingPathComponent("missing")).read())
    }

    func testLogOutKeepingOrClearingData() throws {
        let local = try LocalStore(paths: paths)
        let vault = IdentityVault(paths: paths)
        let me = SecretKey.generate()
        try vault.store(me, passphrase: "pw", logN: 10)
        let store = try local.account(me, now: 1)
        try store.replaceContacts([SecretKey.generate().publicKey.hex], stamp: LWWStamp(createdAt: 1, eventID: "e"))
        try store.markProcessed(["w1"], now: 1)
        try FileManager.default.createDirectory(at: paths.cache(for: me.publicKey.hex), withIntermediateDirectories: true)
        // Log out, keep data: the identity file goes, the rows stay and open again after re-import.
        try vault.remove(me.publicKey.hex)
        try vault.store(me, passphrase: "pw", logN: 10)
        XCTAssertEqual(try local.account(me, now: 2).contacts().count, 1)
        // Log out and clear: rows, wrapped key and cached files go.
        try local.clearAccount(store)
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.cache(for: me.publicKey.hex).path))
        for table in ["accounts", "contacts", "processed_wraps", "relays", "account_state"] {
            XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM \(table)").int, 0, table)
        }
    }

    func testDataPathsFollowXDG() {
        let p = DataPaths.resolve(home: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "relative/ignored"])
        XCTAssertEqual(p.home.path, "/data/linkstr")
        XCTAssertEqual(p.cache.path, "/home/u/.cache/linkstr")
        XCTAssertEqual(p.config.path, "/home/u/.config/linkstr")
        XCTAssertEqual(DataPaths.resolve(home: "/x/y").database.path, "/x/y/linkstr.sqlite3")
    }
}
