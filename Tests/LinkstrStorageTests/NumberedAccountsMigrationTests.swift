import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrStorage

/// Migration 14 on a database written by the code before it (`Fixtures/schema-13.sqlite3`, two
/// accounts): every table's owner becomes the account's number, no row is lost or moves to the other
/// account, and both accounts read back what was stored.
final class NumberedAccountsMigrationTests: StorageTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schema-13.sqlite3")
    typealias F = SchemaThirteenFixture

    /// Rows per table and owner's key, read with the owner as the schema of the moment stores it.
    private func rowsByOwner(_ db: Database, numbered: Bool) throws -> [String: [String: Int64]] {
        var out = [String: [String: Int64]]()
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('accounts', 'grdb_migrations')")
            .compactMap { $0["name"].text }
        for table in tables {
            let sql = numbered
                ? "SELECT a.pubkey AS k, count(*) AS n FROM \(table) t JOIN accounts a ON a.number = t.owner GROUP BY a.pubkey"
                : "SELECT owner AS k, count(*) AS n FROM \(table) GROUP BY owner"
            out[table] = Dictionary(uniqueKeysWithValues: try db.query(sql).map { ($0["k"].text ?? "?", $0["n"].int ?? 0) })
        }
        return out
    }

    func testMigrationFourteenNumbersTheAccountsAndKeepsEveryRowWithItsAccount() throws {
        try paths.prepare()
        try FileManager.default.copyItem(at: Self.fixture, to: paths.database)
        let (before, indexesBefore) = try {
            let raw = try Database(path: paths.database.path)
            defer { try? raw.close() }
            XCTAssertEqual(try raw.scalar("PRAGMA user_version").int, 13)
            XCTAssertEqual(try raw.scalar("SELECT count(*) FROM posts WHERE typeof(owner) = 'text'").int, 44, "the fixture's owners are hex")
            return (try rowsByOwner(raw, numbered: false),
                    try raw.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").compactMap { $0["name"].text })
        }()
        XCTAssertEqual(before.count, 22)
        XCTAssertEqual(Set(before["processed_wraps"]?.keys.map { $0 } ?? []), [F.first.publicKey.hex, F.second.publicKey.hex])

        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, Int64(Migrations.all.count), "14 and every later one")
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM grdb_migrations WHERE identifier = '14'").int, 1)
        var afterRows = try rowsByOwner(local.db, numbered: true)
        XCTAssertEqual(afterRows.removeValue(forKey: "passed_over_events"), [:], "migration 15's table, empty")
        XCTAssertEqual(afterRows.removeValue(forKey: "nip05_checks"), [:], "migration 18's table, empty")
        XCTAssertEqual(afterRows.removeValue(forKey: "send_queue"), [:], "migration 19's table, empty")
        XCTAssertEqual(afterRows, before)
        let schema = try local.db.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT IN ('accounts', 'grdb_migrations')")
        XCTAssertEqual(schema.count, 25)
        for row in schema {
            let name = row["name"].text ?? "", sql = row["sql"].text ?? ""
            XCTAssertTrue(sql.contains("owner INTEGER") && sql.contains("REFERENCES accounts(number) ON DELETE CASCADE"), sql)
            XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM \(name) WHERE typeof(owner) != 'integer'").int, 0, name)
        }
        XCTAssertEqual(try local.db.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").compactMap { $0["name"].text },
                       indexesBefore.filter { $0 != "sqlite_autoindex_account_state_1" },
                       "the same indexes (account_state's owner is now its rowid, which needs none)")
        XCTAssertEqual(try local.db.query("PRAGMA foreign_key_check").count, 0)
        XCTAssertEqual(try local.db.scalar("PRAGMA integrity_check").text, "ok")
        XCTAssertEqual(try local.db.scalar("PRAGMA freelist_count").int, 0, "compacted: the old tables' pages are not kept as free space")

        // Both accounts read back what the old code stored, and what it held under the old membership rule
        // and today's lets in (issue 53), unread.
        let held = try sessionsHoldingPosts(local.db)
        XCTAssertFalse(held.isEmpty, "the fixture holds posts for want of membership")
        let a = try local.account(F.first, now: 2_000), b = try local.account(F.second, now: 2_000)
        let shownA = try a.visibleState(), shownB = try b.visibleState()
        assertReadsBack(shownA, try F.reference(F.first, F.firstMessages, choices: true).visibleState, released: held)
        assertReadsBack(shownB, try F.reference(F.second, F.secondMessages, choices: false).visibleState, released: held)
        XCTAssertTrue(try sessionsHoldingPosts(local.db).isSubset(of: held))
        XCTAssertGreaterThan(shownA.posts.values.map(\.count).reduce(0, +), 10)
        XCTAssertGreaterThan(shownB.posts.values.map(\.count).reduce(0, +), 3)
        XCTAssertEqual(try a.contacts().first?.alias, "Bob at schema 13")
        XCTAssertEqual(try a.sessionSummaries(archived: true).count, 1)
        let listed = try F.reference(F.first, F.firstMessages, choices: true).sessionSummaries(archived: nil).map(\.id).sorted()
        XCTAssertEqual(try a.drafts(), [listed[2]: F.draft])
        let relaysA = try a.relays(now: 2_000)
        XCTAssertTrue(relaysA.contains(StoredRelay(url: F.relays[0], enabled: true)))
        XCTAssertTrue(relaysA.contains(StoredRelay(url: F.relays[1], enabled: false)))
        XCTAssertEqual(try a.negentropyRefusedAt(F.relays[0]), 1_004)
        XCTAssertEqual(try a.relayList(MessageFactory.bob, kind: 10_050), F.inboxList)
        XCTAssertEqual(try a.relayHints(MessageFactory.carol), F.hints)
        XCTAssertEqual(try a.deliveries("rumor-1", members: [MessageFactory.bob]), [MessageFactory.bob: .inbox(relay: F.inboxList[0])])
        XCTAssertEqual(try a.ownProfile()?.content, F.profile)
        XCTAssertEqual(try a.processedWrapCount(), Int(before["processed_wraps"]?[F.first.publicKey.hex] ?? -1))
        XCTAssertEqual(try a.negentropySet().count, F.wraps(F.firstMessages).count, "every wrap keeps its created_at")
        XCTAssertEqual(try b.processedWrapCount(), F.wraps(F.secondMessages).count)
        XCTAssertTrue(try b.relays(now: 2_000).contains(StoredRelay(url: F.relays[0], enabled: true)))
        XCTAssertNil(try b.negentropyRefusedAt(F.relays[0]), "the first account's refusal stays its own")
        XCTAssertEqual(try b.drafts(), [:])

        // It keeps working: a new message lands for one account and a third account gets a new number.
        let session = try XCTUnwrap(shownA.sessions.first { $0.isMember }).id
        _ = try a.ingest([MessageFactory.root(session, by: F.first.publicKey.hex, at: 5_000, url: "https://example.com/after-14")], now: 5_000)
        let third = try local.account(SecretKey.generate(using: SeededRandom(seed: 1_315)), now: 5_000)
        XCTAssertEqual(try third.visibleState().sessions.count, 0)
        XCTAssertEqual(try local.db.scalar("SELECT count(DISTINCT number) FROM accounts").int, 3)
        let reopened = try LocalStore(paths: paths)
        XCTAssertEqual(try reopened.account(F.first, now: 5_001).postPage(in: session, limit: 1).first?.post.url, "https://example.com/after-14")

        // Deleting one account removes its rows only.
        try reopened.account(F.second, now: 5_002).deleteAllData()
        let after = try rowsByOwner(reopened.db, numbered: true)
        for (table, owners) in after { XCTAssertNil(owners[F.second.publicKey.hex], table) }
        XCTAssertEqual(try reopened.account(F.first, now: 5_003).visibleState().sessions, try a.visibleState().sessions)
        XCTAssertEqual(after["processed_wraps"]?[F.first.publicKey.hex], before["processed_wraps"]?[F.first.publicKey.hex])
    }
}
