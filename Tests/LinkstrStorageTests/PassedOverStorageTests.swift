import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrStorage

/// Events a sync passed over (issue 31): migration 15 on a database written by the code before it
/// (`Fixtures/schema-14.sqlite3`: the schema-13 fixture's two accounts as migration 14 left them), the
/// local sets that count them as held, and the limit per scope.
final class PassedOverStorageTests: StorageTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schema-14.sqlite3")
    typealias F = SchemaThirteenFixture

    private func rowCounts(_ db: Database) throws -> [String: Int64] {
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'grdb_migrations'").compactMap { $0["name"].text }
        return Dictionary(uniqueKeysWithValues: try tables.map { ($0, try db.scalar("SELECT count(*) FROM \($0)").int ?? -1) })
    }

    func testMigrationFifteenAddsTheTableAndKeepsEveryRow() throws {
        try paths.prepare()
        try FileManager.default.copyItem(at: Self.fixture, to: paths.database)
        let before = try {
            let raw = try Database(path: paths.database.path)
            defer { try? raw.close() }
            XCTAssertEqual(try raw.scalar("PRAGMA user_version").int, 14)
            return try rowCounts(raw)
        }()
        XCTAssertNil(before["passed_over_events"])
        XCTAssertEqual(before["posts"], 44)

        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, Int64(Migrations.all.count))
        var after = try rowCounts(local.db)
        XCTAssertEqual(after.removeValue(forKey: "passed_over_events"), 0)
        XCTAssertEqual(after.removeValue(forKey: "nip05_checks"), 0, "migration 18's table, empty")
        XCTAssertEqual(after.removeValue(forKey: "send_queue"), 0, "migration 19's table, empty")
        XCTAssertEqual(after, before, "no row of another table moved")
        XCTAssertEqual(try local.db.scalar("PRAGMA integrity_check").text, "ok")

        // The accounts read back as before, and pass events over from now on.
        let held = try sessionsHoldingPosts(local.db)
        let a = try local.account(F.first, now: 2_000)
        assertReadsBack(try a.visibleState(), try F.reference(F.first, F.firstMessages, choices: true).visibleState, released: held)
        XCTAssertEqual(try a.relayList(MessageFactory.bob, kind: 10_050), F.inboxList)
        let sets = (try a.profileNegentropySet([MessageFactory.bob]).count, try a.preferenceNegentropySet().count)
        try a.passOver(String(repeating: "7", count: 64), createdAt: 3, scope: .author(MessageFactory.bob))
        try a.passOver(String(repeating: "8", count: 64), createdAt: 4, scope: .preferences)
        XCTAssertEqual(try a.profileNegentropySet([MessageFactory.bob]).count, sets.0 + 1)
        XCTAssertEqual(try a.preferenceNegentropySet().count, sets.1 + 1)
        XCTAssertEqual(try local.account(F.second, now: 2_000).preferenceNegentropySet().count, 0, "the other account's are its own")
        try a.deleteAllData()
        XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM passed_over_events").int, 0)
    }

    func testPassedOverEventsCountAsHeldOnceAndEachScopeKeepsItsNewest() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(SecretKey.generate(), now: 1)
        let bob = MessageFactory.bob, carol = MessageFactory.carol
        let held = String(repeating: "a", count: 64)
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://inbox.example"], stamp: LWWStamp(createdAt: 50, eventID: held))
        // The same id passed over too (it cannot be both; the set holds it once all the same).
        try store.passOver(held, createdAt: 50, scope: .author(bob))
        for i in 0..<20 { try store.passOver(String(format: "%064x", i + 1), createdAt: Int64(i), scope: .author(bob)) }
        try store.passOver(String(repeating: "c", count: 64), createdAt: 9, scope: .author(carol))
        XCTAssertEqual(try store.passedOverCount(.author(bob)), 16, "the newest 16 of Bob's 21")
        let bobs = try store.profileNegentropySet([bob])
        XCTAssertEqual(bobs.count, 16, "his list once, and 15 passed over beside it")
        XCTAssertFalse(bobs.items.contains { $0.id.hex == String(format: "%064x", 1) }, "the oldest went")
        XCTAssertEqual(try store.profileNegentropySet([bob, carol]).count, 17)
        XCTAssertEqual(try store.profileNegentropySet([carol]).count, 1)
    }
}
