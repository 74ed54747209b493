import Foundation
import LinkstrDomain
import LinkstrMedia
import LinkstrRelay
import XCTest

/// A thumbnail from a real local web server, end to end: the page names its image (relatively), the
/// image is fetched with the preview rules (public addresses only unless allowed), decoded within the
/// limits and drawn as cells; a bomb, an image over the byte limit, a page where an image was named, and
/// a server that never answers each show nothing, said, in bounded time.
final class ThumbnailFetchTests: XCTestCase {
    func testAPagesImageIsFetchedDecodedAndDrawn() async throws {
        let server = try PreviewServer()
        defer { server.stop() }
        // By default this machine is not fetched from: links come from other people.
        do {
            _ = try await ImageFetcher().fetch(server.url("/pic.png"))
            XCTFail("a loopback image was fetched")
        } catch {
            XCTAssertEqual(error, .privateAddress("127.0.0.1"))
        }
        let page = try await LinkPreviewFetcher(allowPrivateAddresses: true).fetch(server.url("/with-image"))
        XCTAssertEqual(page.imageURL, server.url("/pic.png"), "made absolute against the page")
        let fetcher = ImageFetcher(allowPrivateAddresses: true, timeout: .seconds(2))
        let image = try ImageDecoder.decode(try await fetcher.fetch(try XCTUnwrap(page.imageURL)))
        XCTAssertEqual([image.width, image.height], [8, 4])
        let art = SymbolArt.render(image, columns: 4, rows: 2, colors: .truecolor)
        XCTAssertEqual(art.cell(x: 0, y: 0).background, 0xFF0000)
        XCTAssertEqual(art.cell(x: 3, y: 1).background, 0x0000FF)
        // The bytes decide, not the content type.
        let octets = try await fetcher.fetch(server.url("/pic-as-octets"))
        XCTAssertEqual(try ImageDecoder.decode(octets).format, .png)

        func refused(_ path: String) async -> String {
            do {
                _ = try ImageDecoder.decode(try await fetcher.fetch(server.url(path)))
                return "drawn"
            } catch {
                return String(describing: error)
            }
        }
        let bomb = await refused("/bomb.png")
        XCTAssertEqual(bomb, "the image is too large to draw (60000×60000)")
        let huge = await refused("/huge.png")
        XCTAssertTrue(huge.contains("larger than"), huge)
        let page2 = await refused("/og")
        XCTAssertEqual(page2, "not an image (text/html; charset=utf-8)")
        // The server sleeps 30 s before answering; the 2 s deadline answers first.
        let slow = await refused("/slow")
        XCTAssertEqual(slow, "the site did not answer in time")
    }
}
