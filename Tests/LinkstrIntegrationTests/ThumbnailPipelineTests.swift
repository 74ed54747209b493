import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Thumbnails for an account, end to end against a local web server: pages name PNG, JPEG, WebP and GIF
/// images; titles are fetched first (they learn the images), then the thumbnails, made small and sealed
/// in the media cache; a hostile image shows nothing and is not asked for again; and nothing of any of it
/// is readable on disk.
final class ThumbnailPipelineTests: XCTestCase {
    func testEveryFormatIsFetchedMadeSmallAndSealedAndNothingLeaksToDisk() async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        let big = ImageFixtures.halves(width: 1600, height: 900)
        try Data(ImageFixtures.encode(big, width: 1600, height: 900, as: .png)!).write(to: files.appendingPathComponent("wide.png"))
        try Data(ImageFixtures.encode(big, width: 1600, height: 900, as: .jpeg)!).write(to: files.appendingPathComponent("photo.jpg"))
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 300, height: 300), width: 300, height: 300, as: .webp)!)
            .write(to: files.appendingPathComponent("square.webp"))
        try Data(ImageFixtures.redGIF).write(to: files.appendingPathComponent("dot.gif"))
        // A decompression bomb's header, and bytes that only claim to be an image.
        var bomb = ImageFixtures.encode(ImageFixtures.halves(width: 2, height: 2), width: 2, height: 2, as: .png)!
        bomb.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        try Data(bomb).write(to: files.appendingPathComponent("bomb.png"))
        try Data([0x89, 0x50, 0x4E, 0x47] + Array(repeating: 0, count: 200)).write(to: files.appendingPathComponent("broken.png"))

        let server = try PreviewServer(files: files)
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-thumbs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let paths = DataPaths.resolve(home: home.path)
        let local = try LocalStore(paths: paths)
        let store = try local.account(SecretKey.generate(), now: 1)
        let media = try XCTUnwrap(local.mediaCache(for: store, limitBytes: 64 << 20))
        let previews = LinkPreviewCache(store: store, fetcher: LinkPreviewFetcher(allowPrivateAddresses: true), clock: { 100 })
        let thumbnails = Thumbnails(store: store, media: media, fetcher: ImageFetcher(allowPrivateAddresses: true, timeout: .seconds(3)), clock: { 100 })

        let links = ["wide.png", "photo.jpg", "square.webp", "dot.gif", "bomb.png", "broken.png"].map { server.url("/page/\($0)") }
        let titles = await previews.refresh(links)
        XCTAssertEqual(titles.count, 6, "\(titles)")
        let none = await thumbnails.refresh([])
        XCTAssertTrue(none.isEmpty)
        let found = await thumbnails.refresh(links)
        XCTAssertEqual(Set(found.keys), Set(links.prefix(4)), "the bomb and the broken image show nothing")
        XCTAssertEqual(found[links[0]].map { [$0.width, $0.height] }, [640, 360], "made small once, its shape kept")
        XCTAssertEqual(found[links[1]].map { [$0.width, $0.height] }, [640, 360])
        XCTAssertEqual(found[links[2]].map { [$0.width, $0.height] }, [300, 300], "a small one stays as it is")
        XCTAssertEqual(found[links[3]].map { [$0.width, $0.height] }, [1, 1])
        XCTAssertEqual(thumbnails.cached(links), found, "cached: read back without fetching")
        let pixels = try XCTUnwrap(thumbnails.pixels(links[1]))
        XCTAssertEqual([pixels.width, pixels.height], [640, 360])
        XCTAssertEqual(pixels.format, .jpeg)

        // Asked again: nothing is fetched (the found ones are cached, the refused ones wait a day).
        let before = server.requests.count
        let again = await thumbnails.refresh(links)
        XCTAssertTrue(again.isEmpty)
        XCTAssertEqual(server.requests.count, before, "\(server.requests.suffix(4))")

        // Nothing readable at rest, under the data and the cache directories: no image signature, no URL, no title.
        try local.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let needles: [(String, [UInt8])] = [("PNG", [0x89, 0x50, 0x4E, 0x47]), ("JPEG", [0xFF, 0xD8, 0xFF]), ("WebP", Array("WEBP".utf8)),
                                            ("GIF", Array("GIF89a".utf8)), ("URL", Array("127.0.0.1".utf8)), ("path", Array("/files/".utf8)),
                                            ("title", Array("Picture".utf8))]
        var checked = 0
        for root in [paths.home, paths.cache] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
                let bytes = try Data(contentsOf: url)
                checked += 1
                for (name, needle) in needles where bytes.range(of: Data(needle)) != nil {
                    XCTFail("\(name) in the clear in \(url.lastPathComponent)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 5, "the database and four thumbnails were checked")
    }
}
