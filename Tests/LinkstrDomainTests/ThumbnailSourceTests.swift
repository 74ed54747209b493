import LinkstrDomain
import XCTest

/// Where a thumbnail comes from: the page's own image (absolute, http(s), bounded), or YouTube's image
/// for a video id without fetching the page.
final class ThumbnailSourceTests: XCTestCase {
    private func image(_ html: String, page: String? = "https://example.com/articles/1") -> String? {
        LinkPreviewParser.parse(Array(("<title>t</title>" + html).utf8), pageURL: page)?.imageURL
    }

    func testThePagesImageInOrderOfPreference() {
        XCTAssertEqual(image(#"<meta name="twitter:image" content="https://cdn.example.com/t.jpg"><meta property="og:image" content="https://cdn.example.com/og.jpg">"#),
                       "https://cdn.example.com/og.jpg")
        XCTAssertEqual(image(#"<meta property="og:image" content="http://a.example.com/x.png"><meta property="og:image:secure_url" content="https://a.example.com/x.png">"#),
                       "https://a.example.com/x.png", "the secure URL first")
        XCTAssertEqual(image(#"<meta name="twitter:image:src" content="https://b.example.com/y.webp">"#), "https://b.example.com/y.webp")
        XCTAssertNil(image(""), "no image named")
    }

    func testRelativeEntitiesAndHostileValues() {
        XCTAssertEqual(image(#"<meta property="og:image" content="/img/cover.jpg">"#), "https://example.com/img/cover.jpg")
        XCTAssertEqual(image(#"<meta property="og:image" content="cover.jpg">"#), "https://example.com/articles/cover.jpg")
        XCTAssertEqual(image(#"<meta property="og:image" content="//cdn.example.net/a.jpg">"#), "https://cdn.example.net/a.jpg")
        XCTAssertEqual(image(#"<meta property="og:image" content="https://example.com/a.jpg?w=1&amp;h=2">"#), "https://example.com/a.jpg?w=1&h=2")
        XCTAssertNil(image(#"<meta property="og:image" content="javascript:alert(1)">"#))
        XCTAssertNil(image(#"<meta property="og:image" content="data:image/png;base64,iVBORw0KGgo=">"#))
        XCTAssertNil(image(#"<meta property="og:image" content="file:///etc/passwd">"#))
        XCTAssertNil(image(#"<meta property="og:image" content="/relative.jpg">"#, page: nil), "relative with no page to resolve against")
        XCTAssertNil(image(#"<meta property="og:image" content="https://example.com/"# + String(repeating: "a", count: 3_000) + #"">"#), "too long")
        XCTAssertNil(image("<meta property=\"og:image\" content=\"https://example.com/a\u{1B}[2J.jpg\">"), "control characters")
    }

    func testYouTubeVideosUseTheirOwnThumbnail() {
        let thumb = "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"
        XCTAssertEqual(ThumbnailSource.youTube(for: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"), thumb)
        XCTAssertEqual(ThumbnailSource.youTube(for: "https://youtu.be/dQw4w9WgXcQ?t=42"), thumb)
        XCTAssertEqual(ThumbnailSource.youTube(for: "https://www.youtube.com/shorts/dQw4w9WgXcQ"), thumb)
        XCTAssertNil(ThumbnailSource.youTube(for: "https://www.youtube.com/@channel"))
        XCTAssertNil(ThumbnailSource.youTube(for: "https://www.youtube.com/watch?v=../../x"))
        XCTAssertNil(ThumbnailSource.youTube(for: "https://example.com/watch?v=dQw4w9WgXcQ"))
        let page = LinkPreview(title: "t", imageURL: "https://example.com/og.jpg")
        XCTAssertEqual(ThumbnailSource.url(for: "https://youtu.be/dQw4w9WgXcQ", page: page), thumb, "no page fetch needed for a video")
        XCTAssertEqual(ThumbnailSource.url(for: "https://example.com/a", page: page), "https://example.com/og.jpg")
    }
}
