import LinkstrDomain
import XCTest

/// Titles out of hostile HTML, and which addresses previews may be fetched from.
final class LinkPreviewParserTests: XCTestCase {
    private func title(_ html: String) -> String? { LinkPreviewParser.parse(Array(html.utf8))?.title }

    func testOpenGraphThenTwitterThenTitleTag() {
        XCTAssertEqual(title(#"<title>T</title><meta name="twitter:title" content="Tw"><meta property="og:title" content="OG">"#), "OG")
        XCTAssertEqual(title(#"<title>T</title><meta name="twitter:title" content="Tw">"#), "Tw")
        XCTAssertEqual(title("<TITLE>T</TITLE>"), "T")
        XCTAssertEqual(title(#"<meta property="og:title" content="   "><title>Used</title>"#), "Used", "a blank og:title falls through")
        XCTAssertEqual(LinkPreviewParser.parse(Array(#"<meta property="og:site_name" content="Site"><title>x</title>"#.utf8))?.siteName, "Site")
    }

    func testAttributesInAnyOrderAndQuoting() {
        XCTAssertEqual(title(#"<meta content="Reversed" property="og:title">"#), "Reversed")
        XCTAssertEqual(title("<meta property='og:title' content='Single'>"), "Single")
        XCTAssertEqual(title("<meta property=og:title content=Bare>"), "Bare")
        XCTAssertEqual(title("<meta\nproperty = \"og:title\"\n content = \"Spaced\" />"), "Spaced")
        XCTAssertEqual(title(#"<meta PROPERTY="OG:TITLE" CONTENT="Upper">"#), "Upper")
    }

    func testEntitiesControlCharactersAndLength() {
        XCTAssertEqual(title("<title>A &amp; B &lt;c&gt; &#233;&#xE9; &eacute; &bogus; &amp</title>"), "A & B <c> éé é &bogus; &amp")
        XCTAssertEqual(title("<title>\u{1B}]52;c;aGk=\u{07}x\u{1B}[2J\n\n  y\u{202E}</title>"), "]52;c;aGk=x[2J y")
        XCTAssertEqual(title("<title>&#27;[31mred&#x7;</title>"), "[31mred", "escapes written as entities are removed too")
        XCTAssertEqual(title("<title>" + String(repeating: "ab", count: 500) + "</title>")?.count, LinkPreview.maxLength)
        XCTAssertNil(title("<title> \u{1B} </title>"))
    }

    func testScriptsStylesBodyAndBrokenMarkup() {
        XCTAssertEqual(title("<script>var s = '<title>no</title>'</script><title>yes</title>"), "yes")
        XCTAssertEqual(title("<style>a>b{}</style><title>styled</title>"), "styled")
        XCTAssertNil(title("<head></head><body><title>in body</title></body>"), "only the head counts")
        XCTAssertEqual(title("<title>unclosed"), "unclosed")
        XCTAssertNil(title("<meta property=\"og:title\" content=\"never closed"))
        XCTAssertNil(title(""))
        XCTAssertNil(LinkPreviewParser.parse(Array(repeating: 0x3C, count: 100_000)), "100 000 '<' in a row")
    }

    func testLegacyEncodingsAndCutSequences() {
        XCTAssertEqual(LinkPreviewParser.parse([0x3C] + Array("title>Caf".utf8) + [0xE9] + Array("</title>".utf8))?.title, "Café")
        // Cut at the byte limit inside "é": the valid prefix is used, not Latin-1.
        let cut = Array("<title>Café</title> é".utf8).dropLast()
        XCTAssertEqual(LinkPreviewParser.parse(Array(cut))?.title, "Café")
    }

    func testOnlyPublicAddresses() {
        let refused: [[UInt8]] = [[127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1], [169, 254, 169, 254],
                                  [100, 64, 0, 1], [0, 0, 0, 0], [224, 0, 0, 1], [255, 255, 255, 255], [192, 0, 2, 1], [198, 51, 100, 7],
                                  [203, 0, 113, 9], [198, 18, 0, 1],
                                  [UInt8](repeating: 0, count: 15) + [1], [UInt8](repeating: 0, count: 16),
                                  [0xFD] + [UInt8](repeating: 0, count: 15), [0xFE, 0x80] + [UInt8](repeating: 0, count: 14),
                                  [0xFF, 0x02] + [UInt8](repeating: 0, count: 14), [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12),
                                  [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1], [1, 2, 3]]
        for a in refused { XCTAssertFalse(PublicAddressPolicy.isPublic(a), "\(a)") }
        let allowed: [[UInt8]] = [[93, 184, 216, 34], [172, 32, 0, 1], [100, 128, 0, 1], [8, 8, 8, 8],
                                  [0x2A, 0x00, 0x14, 0x50] + [UInt8](repeating: 0, count: 11) + [1],
                                  [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 93, 184, 216, 34]]
        for a in allowed { XCTAssertTrue(PublicAddressPolicy.isPublic(a), "\(a)") }
    }
}
