import LinkstrDomain
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrStorage
@testable import LinkstrSync

/// Profiles and private preferences over a fake pool: a kind 0 is never published from a guess, a
/// preference saved here goes out and a refusal keeps it pending, and a relay's kind 0 of ours is kept.
final class EngineProfileTests: XCTestCase {
    func testAFailedReadOfOurProfilePublishesNoKind0() async throws {
        let t = try EngineUnderTest()
        try t.store.setOwnProfile(content: #"{"name":"old","about":"set by another client"}"#, stamp: LWWStamp(createdAt: 5, eventID: String(repeating: "a", count: 64)))
        // A bad sector under our stored kind 0.
        try t.local.db.run("UPDATE settings SET value_enc = randomblob(length(value_enc)) WHERE key = '\(Setting.ownProfileContent.rawValue)'")
        do {
            try await t.engine.publishProfileName("new", waitingUpTo: .zero)
            XCTFail("a profile that cannot be read must not be replaced")
        } catch {}
        XCTAssertTrue(t.pool.published.isEmpty, "nothing published: a kind 0 made without the stored one would strip its fields")
    }

    func testANameIsMergedIntoOurNewestKind0() async throws {
        let t = try EngineUnderTest()
        try t.store.setOwnProfile(content: #"{"name":"old","about":"set by another client"}"#, stamp: LWWStamp(createdAt: 5, eventID: String(repeating: "a", count: 64)))
        let event = try await t.engine.publishProfileName("new", waitingUpTo: .zero)
        XCTAssertEqual(event.kind, 0)
        let content = try JSONSerialization.jsonObject(with: Data(event.content.utf8)) as? [String: Any]
        XCTAssertEqual(content?["name"] as? String, "new")
        XCTAssertEqual(content?["about"] as? String, "set by another client")
        XCTAssertEqual(t.pool.published.map { $0.map(\.kind) }, [[0]])
        XCTAssertEqual(try t.store.setting(.profileName), "new")
    }

    func testAPreferenceSavedHereGoesOutAndARefusalKeepsItPending() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate().publicKey.hex
        try await t.engine.savePreference(.alias(pubkey: bob, name: "Bob"))
        await t.engine.publishPendingPreferences()
        XCTAssertEqual(t.pool.published.map { $0.map(\.kind) }, [[PrivatePreference.kind]])
        XCTAssertEqual(try t.store.pendingPreferenceEvents().count, 0)

        t.pool.state.withLock { $0.answer = { _ in .failure(.rejected("blocked: no")) } }
        var updates = t.engine.updates.makeAsyncIterator()
        try await t.engine.savePreference(.alias(pubkey: bob, name: "Robert"))
        await t.engine.publishPendingPreferences()
        XCTAssertEqual(try t.store.pendingPreferenceEvents().count, 1, "kept for the next reconnect")
        let notices = await t.said(&updates) { update -> String? in update.enginesWords }
        XCTAssertEqual(notices, ["couldn't sync private preferences. local data is kept; linkstr will retry when you reconnect."])
    }
}
