import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// The shared use cases refuse bad input with the domain's words before they ask for the engine (so the
/// CLI never connects for nothing), against a real in-memory store and no network.
final class AccountActionsTests: XCTestCase {
    struct EngineUsed: Error {}

    func actions() throws -> (AccountActions, AccountStore, Pubkey) {
        let key = SecretKey.generate()
        let store = try LocalStore().account(key, now: 1)
        let friend = SecretKey.generate().publicKey.hex
        _ = try store.ingest([MessageFactory.create("S", by: friend, members: [friend, key.publicKey.hex], at: 10)], now: 10)
        _ = try store.ingest([MessageFactory.root("S", by: friend, at: 11, id: "p1")], now: 11)
        return (AccountActions(store: store, me: key.publicKey.hex, engine: { throw EngineUsed() }), store, friend)
    }

    func testBadInputIsRefusedBeforeTheEngineIsAskedFor() async throws {
        let (actions, _, friend) = try actions()
        await assertRefused({ _ = try await actions.sendPost(session: "S", url: "javascript:alert(1)", note: nil, now: 20) }, "enter a valid url.")
        await assertRefused({ _ = try await actions.sendPost(session: "nope", url: "https://a.b", note: nil, now: 20) }, SendRuleError.unknownSession.description)
        await assertRefused({ _ = try await actions.react(post: "missing", emoji: "👍", now: 20) }, SendRuleError.unknownPost.description)
        await assertRefused({ _ = try await actions.react(post: "p1", emoji: "👍👍👍", now: 20) }, SendRuleError.notAnEmoji.description)
        await assertRefused({ _ = try await actions.deletePost("p1", now: 20) }, SendRuleError.notYourPost.description)
        await assertRefused({ _ = try await actions.createSession(name: " ", members: [], now: 20, random: SeededRandom(seed: 1)) }, "enter a session name.")
        await assertRefused({ try await actions.setMembers(session: "S", members: [], now: 20, random: SeededRandom(seed: 1)) },
                            "only the session creator can manage members.")
        await assertRefused({ try await actions.removeContact(friend) }, "that key is not in your contacts.")
        // Asking for a state the reaction already has sends nothing.
        let unchanged = try await actions.react(post: "p1", emoji: "👍", active: false, now: 20)
        XCTAssertEqual(unchanged.change, .unchanged)
        XCTAssertEqual(unchanged.sessionID, "S")
    }

    func testAValidActionAsksForTheEngine() async throws {
        let (actions, _, _) = try actions()
        do {
            _ = try await actions.sendPost(session: "S", url: "https://example.com", note: "hi", now: 20)
            XCTFail("sent without an engine")
        } catch is EngineUsed {}
    }

    private func assertRefused(_ work: () async throws -> Void, _ words: String, line: UInt = #line) async {
        do {
            try await work()
            XCTFail("accepted", line: line)
        } catch is EngineUsed {
            XCTFail("asked for the engine before refusing", line: line)
        } catch {
            XCTAssertEqual(String(describing: error), words, line: line)
        }
    }
}

/// Identities: create (with a pending profile name), import (nsec, ncryptsec), forget (with or without data).
final class IdentityActionsTests: XCTestCase {
    func testCreateImportAndForget() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-identities-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = DataPaths.resolve(home: dir.path)
        let identities = IdentityActions(vault: IdentityVault(paths: paths), local: try LocalStore(paths: paths))
        let (created, store) = try identities.create(name: "  Ada  ", passphrase: "pass", logN: 4, now: 1)
        XCTAssertEqual(identities.vault.activePubkey(), created.publicKey.hex)
        XCTAssertEqual(try store.setting(.profileNamePending), "Ada")
        XCTAssertTrue(try identities.vault.unlock(created.publicKey.hex, passphrase: "pass").isSameKey(as: created))

        let other = SecretKey.generate()
        let imported = try identities.importKey(" \(other.revealNsec()) ", passphrase: "pass2", logN: 4)
        XCTAssertTrue(imported.isSameKey(as: other))
        XCTAssertEqual(identities.vault.activePubkey(), other.publicKey.hex)
        let third = SecretKey.generate()
        let ncryptsec = try NIP49.encrypt(third, password: "its own", logN: 4, security: .notKnownInsecure, random: SystemRandom())
        XCTAssertTrue(try identities.importKey(ncryptsec, passphrase: "pass3", ncryptsecPassword: "its own", logN: 4).isSameKey(as: third))
        XCTAssertThrowsError(try identities.importKey(other.publicKey.npub, passphrase: "x", logN: 4))

        try identities.forget(created.publicKey.hex, store: store, clearData: true)
        XCTAssertFalse(try identities.vault.list().contains { $0.pubkey == created.publicKey.hex })
        XCTAssertEqual(try store.sessionSummaries().count, 0)
    }
}
