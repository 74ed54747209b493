import Foundation
import LinkstrStorage
import NostrProtocol
import XCTest

/// The sealed media cache (issue 29): what goes in comes out only through the account's key, names and
/// bytes say nothing, damage costs the file, and the least recently used files go first.
final class MediaCacheTests: StorageTestCase {
    let alice = SecretKey.generate(), bob = SecretKey.generate()
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a picture of the secret film".utf8)

    private func cache(_ key: SecretKey, limit: Int64 = 1 << 30) throws -> (LocalStore, MediaCache) {
        let local = try LocalStore(paths: paths)
        let store = try local.account(key, now: 1)
        return (local, try XCTUnwrap(local.mediaCache(for: store, limitBytes: limit)))
    }

    private func entry(_ source: String = "https://img.example/secret-film.png") -> MediaCache.Entry {
        .init(kind: .thumbnail, source: source, width: 640, height: 360, format: "png", savedAt: 5)
    }

    func testWhatIsStoredComesBackAndNothingOfItIsReadableOnDisk() throws {
        let (_, media) = try cache(alice)
        try media.store(png, key: "https://example.com/secret-film", entry: entry())
        let back = try XCTUnwrap(try media.read("https://example.com/secret-film"))
        XCTAssertEqual(back.bytes, png)
        XCTAssertEqual(back.entry, entry())
        XCTAssertEqual(try media.entry("https://example.com/secret-film")?.width, 640)
        XCTAssertNil(try media.read("https://example.com/other"))

        let names = try FileManager.default.contentsOfDirectory(atPath: media.directory.path)
        XCTAssertEqual(names.count, 1)
        XCTAssertFalse(names[0].contains("secret"), "the name is a blind reference")
        let file = media.directory.appendingPathComponent(names[0])
        XCTAssertEqual(try posixMode(file), 0o600)
        XCTAssertEqual(try posixMode(media.directory), 0o700)
        XCTAssertEqual(try posixMode(media.directory.deletingLastPathComponent()), 0o700)
        let raw = try Data(contentsOf: file)
        for needle in [Data(png.prefix(8)), Data("secret".utf8), Data("img.example".utf8), Data("thumbnail".utf8)] {
            XCTAssertNil(raw.range(of: needle), "\(needle) in the clear")
        }
    }

    func testALargeFileIsSealedInChunksAndStreamedBack() throws {
        let (_, media) = try cache(alice)
        var random = SeededRandom(seed: 7)
        let video = random.bytes(3 * (1 << 20) + 12_345)
        let writer = try media.writer(key: "video", entry: .init(kind: .video, source: "https://v.example/v", savedAt: 9))
        var at = 0
        while at < video.count {  // arbitrary pieces, as a pipe delivers them
            let n = min(65_000 + at % 7_000, video.count - at)
            try writer.append(Array(video[at..<at + n]))
            at += n
        }
        XCTAssertNil(try media.entry("video"), "nothing under the name before it is finished")
        try writer.finish()
        var streamed = [UInt8](), chunks = 0
        let entry = try media.stream("video") { streamed += $0; chunks += 1 }
        XCTAssertEqual(entry?.kind, .video)
        XCTAssertEqual(streamed, video)
        XCTAssertEqual(chunks, 4)
    }

    func testACancelledWriteLeavesNothing() throws {
        let (_, media) = try cache(alice)
        let writer = try media.writer(key: "video", entry: .init(kind: .video, source: "s", savedAt: 1))
        try writer.append(Array(repeating: 1, count: 2_000_000))
        writer.cancel()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: media.directory.path), [])
        XCTAssertEqual(try media.usage(), .init(files: 0, bytes: 0))
    }

    func testAlteredCutOrForeignFilesDoNotOpenAndAreRemoved() throws {
        let (_, media) = try cache(alice)
        let big = Array(repeating: UInt8(7), count: (1 << 20) + 10)
        for key in ["flipped", "cut", "moved"] { try media.store(big, key: key, entry: entry()) }
        let file = { (key: String) in media.url(key) }

        var flipped = try Data(contentsOf: file("flipped"))
        flipped[flipped.count - 20] ^= 1
        try flipped.write(to: file("flipped"))
        XCTAssertThrowsError(try media.read("flipped")) { XCTAssertEqual($0 as? MediaCache.Failure, .damaged) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("flipped").path), "a damaged file goes")

        // The last chunk dropped: every chunk left opens, but none says it ends the file.
        let whole = try Data(contentsOf: file("cut"))
        let firstData = 5 + 4 + Int(whole[5...8].reduce(0) { $0 << 8 | Int($1) })
        let n = Int(whole[firstData..<firstData + 4].reduce(0) { $0 << 8 | Int($1) })
        try whole.prefix(firstData + 4 + n).write(to: file("cut"))
        XCTAssertThrowsError(try media.read("cut")) { XCTAssertEqual($0 as? MediaCache.Failure, .damaged) }

        // Another key's file under this key's name: bound to its own name, it does not open.
        try FileManager.default.copyItem(at: file("moved"), to: media.url("elsewhere"))
        XCTAssertThrowsError(try media.read("elsewhere")) { XCTAssertEqual($0 as? MediaCache.Failure, .damaged) }

        // Another account's cache cannot open this one's files.
        try media.store(png, key: "shared", entry: entry())
        let (_, bobs) = try cache(bob)
        try FileManager.default.createDirectory(at: bobs.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file("shared"), to: bobs.url("shared"))
        XCTAssertThrowsError(try bobs.read("shared"))
    }

    func testTheLeastRecentlyUsedGoFirstAndClearingRemovesAll() throws {
        let (_, media) = try cache(alice)
        let image = Array(repeating: UInt8(3), count: 1_000)
        for (i, key) in ["a", "b", "c"].enumerated() {
            try media.store(image, key: key, entry: entry())
            if i == 0 { media.limitBytes = 3 * (try media.usage().bytes) }  // room for three
            try setUsed(key, media, Date(timeIntervalSince1970: 1_000 + Double(i)))
        }
        XCTAssertEqual(try media.usage().files, 3)
        _ = try media.read("a")  // used now: "b" is the oldest
        try media.store(image, key: "d", entry: entry())
        XCTAssertNotNil(try media.entry("a"))
        XCTAssertNil(try media.entry("b"))
        XCTAssertNotNil(try media.entry("c"))
        XCTAssertNotNil(try media.entry("d"))
        let usage = try media.usage()
        XCTAssertEqual(usage.files, 3)
        XCTAssertLessThanOrEqual(usage.bytes, media.limitBytes)

        try media.clear()
        XCTAssertEqual(try media.usage(), .init(files: 0, bytes: 0))
    }

    func testClearingTheAccountRemovesItsCache() throws {
        let (local, media) = try cache(alice)
        try media.store(png, key: "k", entry: entry())
        let store = try local.account(alice, now: 2)
        try local.clearAccount(store)
        XCTAssertFalse(FileManager.default.fileExists(atPath: media.directory.path))
    }

    func testTheWipeRemovesEveryAccountsCache() throws {
        let (_, media) = try cache(alice)
        try media.store(png, key: "k", entry: entry())
        _ = try Wipe.run(paths)
        XCTAssertFalse(FileManager.default.fileExists(atPath: media.directory.path))
    }

    private func setUsed(_ key: String, _ media: MediaCache, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: media.url(key).path)
    }
}
