import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// A database written by the storage layer before GRDB (schema 6 in `PRAGMA user_version`, no
/// `grdb_migrations`) opens in place, is migrated, and shows the same sessions, posts and reactions.
final class GRDBUpgradeTests: StorageTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pre-grdb-v6.sqlite3")

    func testADatabaseWrittenBeforeGRDBOpensMigratesAndShowsTheSameData() throws {
        try paths.prepare()
        try FileManager.default.copyItem(at: Self.fixture, to: paths.database)
        // The fixture really is pre-GRDB: GRDB's migration record is absent.
        XCTAssertEqual(try Database(path: paths.database.path).scalar("SELECT count(*) FROM sqlite_master WHERE name = 'grdb_migrations'").int, 0)

        let local = try LocalStore(paths: paths)
        // Migrations 1–6 are recorded as applied (none runs again); the ones after 6 run on it.
        let applied = try local.db.query("SELECT identifier FROM grdb_migrations ORDER BY rowid").compactMap { $0["identifier"].text }
        XCTAssertEqual(Array(applied.prefix(6)), ["1", "2", "3", "4", "5", "6"])
        XCTAssertEqual(applied, (1...applied.count).map(String.init))
        XCTAssertGreaterThanOrEqual(applied.count, 7)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, Int64(applied.count))
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'preferences'").int, 1, "migration 7 ran")
        let store = try local.account(UpgradeFixture.key, now: 2_000)
        let expected = try UpgradeFixture.reference().visibleState
        let shown = try store.visibleState()
        XCTAssertEqual(shown, expected)
        // Not an empty equality: the fixture holds what it promises.
        XCTAssertEqual(shown.sessions.count, 24)
        XCTAssertEqual(shown.posts.values.map(\.count).reduce(0, +), 29)
        XCTAssertGreaterThan(shown.reactionStates.values.map(\.count).reduce(0, +), 0)
        XCTAssertEqual(try store.sessionSummaries(archived: true).count, 1)
        XCTAssertEqual(try store.contacts().first?.alias, "Bob from the fixture")
        XCTAssertEqual(try store.processedWrapCount(), 240)
        XCTAssertEqual(try store.sessionSummaries(archived: nil).filter { $0.decision == .undecided }.count, 24,
                       "the strangers' sessions are still requests, as the old code left them")

        // It keeps working: a new message lands, a reopen sees it, the schema is not migrated twice.
        let session = try XCTUnwrap(shown.sessions.first { $0.isMember }).id
        _ = try store.ingest([MessageFactory.root(session, by: UpgradeFixture.me, at: 5_000, url: "https://example.com/after-upgrade")],
                             now: 5_000)
        let reopened = try LocalStore(paths: paths).account(UpgradeFixture.key, now: 5_001)
        XCTAssertEqual(try reopened.postPage(in: session, limit: 1).first?.post.url, "https://example.com/after-upgrade")
        XCTAssertEqual(try LocalStore(paths: paths).db.scalar("SELECT count(*) FROM grdb_migrations").int, Int64(applied.count))
    }

    /// A newer schema than this build knows is refused with a clear error, and nothing in it changes.
    /// (Bytes are not compared: GRDB's pool setup touches the header's schema cookie on every open.)
    func testADatabaseFromANewerLinkstrIsRefused() throws {
        try LocalStore(paths: paths).db.close()
        let db = try Database(path: paths.database.path)
        try db.run("INSERT INTO grdb_migrations (identifier) VALUES ('99')")
        let schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        let before = (try db.query(schema).map(\.values), try db.query("SELECT identifier FROM grdb_migrations").map(\.values))
        let version = try db.scalar("PRAGMA user_version").int
        try db.close()
        XCTAssertThrowsError(try LocalStore(paths: paths)) { error in
            XCTAssertTrue("\(error)".contains("newer linkstr"), "\(error)")
        }
        let after = try Database(path: paths.database.path)
        XCTAssertEqual(try after.query(schema).map(\.values), before.0)
        XCTAssertEqual(try after.query("SELECT identifier FROM grdb_migrations").map(\.values), before.1)
        XCTAssertEqual(try after.scalar("PRAGMA user_version").int, version)
    }
}
