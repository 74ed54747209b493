import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 54 (2): a post whose link is itself a picture got none: the image was fetched, found not to be a
/// page ("not a web page (image/png)"), and nothing was drawn or cached. An image link is its own
/// thumbnail, under the same limits and sealing as a page's image.
final class ImageLinkTests: XCTestCase {
    func testALinkThatIsAPictureIsItsOwnThumbnail() throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-image-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { removeTemporary(files) }
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 64, height: 32), width: 64, height: 32, as: .png)!)
            .write(to: files.appendingPathComponent("photo.png"))
        let server = try PreviewServer(files: files)
        defer { server.stop() }
        let relay = try TestRelay()
        defer { relay.stop() }
        var home = try Home("image-link", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let session = try home.ok(["session", "create", "Pictures"]).trimmed
        let post = try home.ok(["post", session, server.url("/files/photo.png")], environment: allow).trimmed
        let preview = try home.run(["preview", post, "--json"], environment: allow)
        XCTAssertEqual(preview.status, 0, preview.err)
        let json = try XCTUnwrap(try preview.json() as? [String: Any])
        XCTAssertEqual(json["title"] as? String, "photo.png")
        XCTAssertNotNil(json["thumbnail"] as? [String: Any], "\(json)")
        let info = try XCTUnwrap(try home.ok(["media", "info", post, "--json"]).json() as? [String: Any])
        XCTAssertNotNil(info["thumbnail"] as? [String: Any], "\(info)")
    }
}
