import Foundation
import XCTest

@testable import LinkstrStorage

/// Issue 32 (13): a first `identity create` killed while the database was being made left
/// `linkstr.sqlite3.new-<UUID>` files forever. The next creation removes those older than ten minutes
/// (a younger one may be another process's, being made right now).
final class AbandonedTemporaryTests: XCTestCase {
    func testTheNextCreationRemovesOldTemporaryDatabasesAndKeepsYoungOnes() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-temps-\(UUID().uuidString)")
        defer { XCTAssertNoThrow(try FileManager.default.removeItem(at: home)) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let old = home.appendingPathComponent("linkstr.sqlite3.new-\(UUID().uuidString)")
        let oldJournal = URL(fileURLWithPath: old.path + "-wal")
        let young = home.appendingPathComponent("linkstr.sqlite3.new-\(UUID().uuidString)")
        for file in [old, oldJournal, young] { try Data("half a database".utf8).write(to: file) }
        for file in [old, oldJournal] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: file.path)
        }
        _ = try LocalStore(paths: DataPaths.resolve(home: home.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldJournal.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: young.path), "a temporary younger than ten minutes may be in use")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent("linkstr.sqlite3").path))
    }
}
