import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The account in `Fixtures/pre-grdb-v6.sqlite3`: a database written by linkstr before storage moved
/// to GRDB (commit 3fda50f, schema 6, `PRAGMA user_version` and no `grdb_migrations`). The file was
/// made once by `UpgradeFixture.apply` on that code; the upgrade test replays the same steps into the
/// pure reference and expects the migrated file to show exactly that.
enum UpgradeFixture {
    static let key = SecretKey.generate(using: SeededRandom(seed: 4_242))
    static var me: Pubkey { key.publicKey.hex }
    static let messages = ScenarioGenerator.stream(count: 240, seed: 4_242, me: me)
    static let contact = MessageFactory.bob

    /// The local choices made on top of the messages (the same calls on the store and the reference).
    static func apply(to store: AccountStore) throws {
        _ = try store.ingest(messages, processedWraps: messages.flatMap(\.wrapIDs), now: 1_000)
        _ = try store.ingestFollowList(author: me, createdAt: 5, eventID: "f1", tags: [["p", contact]], now: 1_000)
        _ = try store.setAlias(contact, "Bob from the fixture")
        let listed = try store.sessionSummaries(archived: nil).map(\.id).sorted()
        try store.setArchived(listed[0], true)
        try store.markSessionRead(listed[1], now: 1_001)
    }

    static func reference() throws -> AccountState {
        var s = AccountState(me: me)
        for m in messages { _ = try s.ingest(m, restoringHistory: false) }
        _ = try s.ingestFollowList(author: me, createdAt: 5, eventID: "f1", tags: [["p", contact]])
        _ = try s.setAlias(contact, "Bob from the fixture")
        let listed = s.sessionSummaries(archived: nil).map(\.id).sorted()
        s.setArchived(listed[0], true)
        s.markSessionRead(listed[1], at: 1_001)
        return s
    }
}
