import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// What a NIP-77 sync keeps in the store (issue 31): each processed wrap's time, refusals per relay.
final class ReconcileStorageTests: StorageTestCase {
    /// Migration 12 (issue 31) on rows the previous schema wrote: processed wraps keep counting, are
    /// outside NIP-77's local set until a sync gives them their time, and refusals start empty.
    func testMigrationTwelveKeepsProcessedWrapsAndTheirTimesFillIn() throws {
        let me = SecretKey.generate()
        let wraps = (0..<5).map { String(repeating: String($0), count: 64) }
        do {
            let local = try LocalStore(paths: paths)
            let account = try local.account(me, now: 1)
            try account.markProcessed(wraps, now: 1)
            // Back to schema 11, as the previous release left it.
            try local.db.execute("""
                ALTER TABLE processed_wraps DROP COLUMN created_at; DROP TABLE negentropy_refusals;
                PRAGMA user_version = 11; DELETE FROM grdb_migrations WHERE identifier = '12';
                """)
        }
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA user_version").int, 12)
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
