import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrStorage

/// What a NIP-77 sync keeps in the store (issue 31): each processed wrap's time, refusals per relay.
final class ReconcileStorageTests: StorageTestCase {
    /// Migration 12 (issue 31) on rows the previous schema wrote: processed wraps keep counting, are
    /// outside NIP-77's local set until a sync gives them their time, and refusals start empty.
    func testMigrationTwelveKeepsProcessedWrapsAndTheirTimesFillIn() throws {
        let me = SecretKey.generate()
        let wraps = (0..<5).map { String(repeating: String($0), count: 64) }
        // A database as the release with schema 11 left it: the account and its processed wraps, owners as hex.
        try paths.prepare()
        do {
            let db = try Database(path: paths.database.path)
            try Migrations.migrator.migrate(db.writer, upTo: "11")
            let (_, wrapped) = try FieldCipher.create(for: me, random: SystemRandom())
            let hex = SQLValue.text(me.publicKey.hex)
            try db.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) VALUES (?, ?, 1)", [hex, .blob(wrapped)])
            try db.run("INSERT INTO account_state (owner) VALUES (?)", [hex])
            for w in wraps { try db.run("INSERT INTO processed_wraps (owner, wrap_id, processed_at) VALUES (?, ?, 1)", [hex, .text(w)]) }
            XCTAssertEqual(try db.scalar("PRAGMA user_version").int, 11)
            try db.checkpoint()
            try db.close()
        }
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, Int64(Migrations.all.count))
        let account = try local.account(me, now: 2)
        XCTAssertEqual(try account.processedWrapCount(), 5)
        XCTAssertEqual(try account.alreadyProcessed(wraps), Set(wraps))
        XCTAssertEqual(try account.negentropySet().count, 0, "no time known yet")
        try account.fillWrapTimes(wraps.prefix(3).enumerated().map { ProcessedWrap(id: $1, createdAt: Int64(100 + $0)) })
        let set = try account.negentropySet()
        XCTAssertEqual(set.items.map(\.timestamp), [100, 101, 102])
        XCTAssertEqual(set.items.map(\.id.hex), Array(wraps.prefix(3)))
        XCTAssertNil(try account.negentropyRefusedAt("wss://relay.example"))
        try account.setNegentropyRefused("wss://relay.example", at: 50)
        XCTAssertEqual(try account.negentropyRefusedAt("wss://relay.example"), 50)
        try account.setNegentropyRefused("wss://relay.example", at: nil)
        XCTAssertNil(try account.negentropyRefusedAt("wss://relay.example"))
    }
}
