import Foundation
import XCTest

@testable import LinkstrStorage

/// Issue 32 (3): a backup (or key file) is never visible under its final name before it is whole, so a
/// process killed mid-write leaves no truncated file that import would call "not a linkstr backup" and
/// a new export would refuse.
final class PrivateFileTests: StorageTestCase {
    func testTheFinalNameAppearsOnlyOnceTheBytesAreWhole() throws {
        let target = tmp.appendingPathComponent("a.linkstrbackup").path
        let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        var seen: (finalExists: Bool, temporary: Data?)?
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        try PrivateFile.write(data, at: target, replacing: false) { temporary in
            // Where a kill between write and rename would leave things.
            seen = (FileManager.default.fileExists(atPath: target), FileManager.default.contents(atPath: temporary))
        }
        XCTAssertEqual(seen?.finalExists, false, "nothing under the final name while the bytes are written")
        XCTAssertEqual(seen?.temporary, data, "the temporary holds every byte, synced, before it is named")
        XCTAssertEqual(FileManager.default.contents(atPath: target), data)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["a.linkstrbackup"], "no temporary left")
        XCTAssertThrowsError(try PrivateFile.create(Data("x".utf8), at: target)) { XCTAssertEqual($0 as? PrivateFile.Failure, .exists) }
        XCTAssertEqual(FileManager.default.contents(atPath: target), data, "an existing file is never replaced by create")
    }

    /// Issue 53 (6.6): a killed export's temporary stayed for good; the next write of the same file
    /// removes it (and no other file).
    func testTheNextWriteRemovesAKilledWritesLeftover() throws {
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let leftover = tmp.appendingPathComponent(".b.linkstrbackup.partial-\(UUID().uuidString)")
        let other = tmp.appendingPathComponent(".c.linkstrbackup.partial-\(UUID().uuidString)")
        try Data(count: 1_000).write(to: leftover)
        try Data(count: 1_000).write(to: other)
        try PrivateFile.create(Data("whole".utf8), at: tmp.appendingPathComponent("b.linkstrbackup").path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted(), [other.lastPathComponent, "b.linkstrbackup"].sorted())
    }

    func testReplaceSwapsWholeFiles() throws {
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let target = tmp.appendingPathComponent("key.ncryptsec").path
        try PrivateFile.replace(Data("old".utf8), at: target)
        var during: Data?
        try PrivateFile.write(Data("new".utf8), at: target, replacing: true) { _ in during = FileManager.default.contents(atPath: target) }
        XCTAssertEqual(during, Data("old".utf8), "the old file stays whole until the new one takes its name")
        XCTAssertEqual(FileManager.default.contents(atPath: target), Data("new".utf8))
    }
}
