import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Wire 2026 §3.5, the initial backup: aliases and archived sessions chosen before preferences synced
/// get a record once the relays sent theirs, dated at their origin, and go out.
final class PreferenceBackupTests: XCTestCase {
    func testChoicesMadeBeforePreferencesSyncedAreBackedUpOnce() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate(), bob = SecretKey.generate().publicKey.hex
        let store = try LocalStore().account(me, now: 1)
        let m = me.publicKey.hex
        XCTAssertEqual(try store.ingestFollowList(author: m, createdAt: 50, eventID: "f", tags: [["p", bob]], now: 60), .applied)
        XCTAssertTrue(try store.setAlias(bob, "Bob before sync"))
        _ = try store.ingest([MessageFactory.create("S", by: m, members: [m, bob], at: 400)], now: 500)
        try store.setArchived("S", true)

        let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
        await pool.setRelays([(relay.url, true)])
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        try await engine.start()
        let alias = PrivatePreference.dTag(for: "alias:" + bob, secretKey: me), archive = PrivatePreference.dTag(for: "archive:S", secretKey: me)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let a = try store.preference(dTag: alias), let s = try store.preference(dTag: archive), !a.pending, !s.pending { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        await engine.stop()
        XCTAssertEqual(try store.preference(dTag: alias)?.preference, .alias(pubkey: bob, name: "Bob before sync"))
        XCTAssertEqual(try store.preference(dTag: alias)?.stamp.createdAt, 1, "it never outranks an edit made elsewhere")
        XCTAssertEqual(try store.preference(dTag: archive)?.preference, .archive(sessionID: "S", archived: true))
        XCTAssertEqual(try store.preference(dTag: archive)?.stamp.createdAt, 400, "the session's creation")
        XCTAssertEqual(try store.pendingPreferenceEvents().count, 0, "published")
    }
}
