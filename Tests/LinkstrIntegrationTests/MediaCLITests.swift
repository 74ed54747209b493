import Foundation
import LinkstrTestSupport
import XCTest

/// `linkstr preview` caches a post's thumbnail, `media info` tells what is cached for it, `cache usage`
/// and `cache clear` (posts stay), and the settings that shape it refuse bad values with words.
final class MediaCLITests: XCTestCase {
    func testPreviewMediaInfoAndTheCacheCommands() throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-cli-pics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 1600, height: 900), width: 1600, height: 900, as: .jpeg)!)
            .write(to: files.appendingPathComponent("wide.jpg"))
        let relay = try TestRelay()
        defer { relay.stop() }
        let server = try PreviewServer(files: files)
        defer { server.stop() }
        var home = try Home("cli-media", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let session = try home.ok(["session", "create", "Pictures"]).trimmed
        let post = try home.ok(["post", session, server.url("/page/wide.jpg"), "--note", "look"]).trimmed
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]

        func info() throws -> [String: Any] { try home.ok(["media", "info", post, "--json"]).json() as! [String: Any] }
        var media = try info()
        XCTAssertEqual(media["post_id"] as? String, post)
        XCTAssertTrue(media["title"] is NSNull, "nothing fetched yet")
        XCTAssertTrue(media["thumbnail"] is NSNull)
        XCTAssertEqual(media["saved"] as? Bool, false)

        let preview = try home.ok(["preview", post, "--json"], environment: allow).json() as! [String: Any]
        XCTAssertEqual(preview["title"] as? String, "Picture wide.jpg")
        XCTAssertEqual((preview["thumbnail"] as? [String: Any])?["width"] as? Int, 640)
        media = try info()
        XCTAssertEqual(media["title"] as? String, "Picture wide.jpg")
        let thumbnail = try XCTUnwrap(media["thumbnail"] as? [String: Any])
        XCTAssertEqual(thumbnail["width"] as? Int, 640)
        XCTAssertEqual(thumbnail["height"] as? Int, 360)
        XCTAssertEqual(thumbnail["format"] as? String, "jpeg")
        XCTAssertEqual(thumbnail["source"] as? String, server.url("/files/wide.jpg"))
        XCTAssertTrue(try home.ok(["media", "info", post]).out.contains("thumbnail: 640×360 jpeg, cached"))

        var usage = try home.ok(["cache", "usage", "--json"]).json() as! [String: Any]
        XCTAssertEqual(usage["files"] as? Int, 1)
        XCTAssertGreaterThan(usage["bytes"] as? Int ?? 0, 1_000)
        XCTAssertEqual(usage["limit_bytes"] as? Int, 1024 << 20)
        try home.writeConfig("media_cache_mb = 64\n")
        usage = try home.ok(["cache", "usage", "--json"]).json() as! [String: Any]
        XCTAssertEqual(usage["limit_bytes"] as? Int, 64 << 20)
        XCTAssertTrue(try home.ok(["cache", "usage"]).out.hasPrefix("media cache: 1 file, "))

        let cleared = try home.ok(["cache", "clear", "--json"]).json() as! [String: Any]
        XCTAssertEqual(cleared["cleared_files"] as? Int, 1)
        XCTAssertEqual((try home.ok(["cache", "usage", "--json"]).json() as! [String: Any])["files"] as? Int, 0)
        media = try info()
        XCTAssertTrue(media["thumbnail"] is NSNull)
        XCTAssertTrue(media["title"] is NSNull, "cached titles go too")
        XCTAssertEqual((try home.ok(["posts", session, "--json"]).json() as! [[String: Any]]).count, 1, "posts stay")

        let missing = try home.run(["media", "info", "nope"])
        XCTAssertEqual(missing.err, "linkstr: no post nope.\n")

        // Bad values: said, with what is allowed.
        try home.writeConfig("media_cache_mb = 1\n")
        let small = try home.run(["cache", "usage"])
        XCTAssertNotEqual(small.status, 0)
        XCTAssertTrue(small.err.contains("media_cache_mb is a size in MiB from 16 to 1048576"), small.err)
        try home.writeConfig("images = \"pictures\"\n")
        let images = try home.run(["cache", "usage"])
        XCTAssertTrue(images.err.contains("images is \"auto\", \"kitty\", \"sixel\", \"iterm\", \"symbols\" or \"off\""), images.err)
    }
}
