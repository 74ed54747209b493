import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Drafts (issue 14, item 8): kept per session across a reopen, sealed at rest, gone with the session
/// or the account's data.
final class DraftStorageTests: StorageTestCase {
    func testDraftsSurviveAReopenSealedAndGoWithTheirSessionOrTheAccount() throws {
        let me = SecretKey.generate()
        let local = try LocalStore(paths: paths)
        let store = try local.account(me, now: 1)
        try store.setDraft(.init(link: "https://example.com/secret-draft-link", note: "a draft nobody saw"), for: "S1", now: 2)
        try store.setDraft(.init(link: "", note: "second"), for: "S2", now: 2)
        try store.setDraft(.init(link: "", note: "second, edited"), for: "S2", now: 3)
        let reopened = try LocalStore(paths: paths).account(me, now: 4)
        XCTAssertEqual(try reopened.drafts(), ["S1": .init(link: "https://example.com/secret-draft-link", note: "a draft nobody saw"),
                                               "S2": .init(link: "", note: "second, edited")])
        try local.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = try Data(contentsOf: paths.database)
        for needle in ["secret-draft-link", "a draft nobody saw"] { XCTAssertNil(bytes.range(of: Data(needle.utf8)), needle) }
        try reopened.setDraft(nil, for: "S2", now: 5)
        XCTAssertEqual(try reopened.drafts().keys.sorted(), ["S1"])
        // Our delete of our session takes its draft along.
        let m = me.publicKey.hex
        _ = try reopened.ingest([MessageFactory.create("S1", by: m, members: [m, MessageFactory.alice], at: 10)], now: 11)
        _ = try reopened.ingest([MessageFactory.sessionDelete("S1", by: m, at: 20)], now: 21)
        XCTAssertEqual(try reopened.drafts(), [:])
        // Every table that holds an account's rows is cleared with the account's data.
        let owned = try local.db.query("SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'owner')")
            .compactMap { $0["name"].text }
        try reopened.setDraft(.init(link: "", note: "x"), for: "S9", now: 30)
        try reopened.deleteAllData()
        for table in owned { XCTAssertEqual(try local.db.scalar("SELECT count(*) FROM \(table)").int, 0, table) }
    }
}
