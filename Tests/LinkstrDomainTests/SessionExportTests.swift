import Foundation
import LinkstrDomain
import NostrProtocol
import XCTest

/// The three forms of a session export: names, notes and titles from others are text in every one of
/// them (Markdown and HTML injection, terminal escapes, a `javascript:` link), scripts of every writing
/// direction come through whole, times are local, and the JSON has its schema and version.
final class SessionExportTests: XCTestCase {
    let alice = String(repeating: "1a", count: 32), me = String(repeating: "2b", count: 32)

    func session() -> ExportedSession {
        let hostile = "<script>alert(1)</script> [click](javascript:alert(2)) **bold** # \u{1B}[2Jcleared"
        return ExportedSession(id: "S1", name: "Film <club> \u{1B}]0;x\u{07}", members: ["you", "Alice"], posts: [
            .init(id: "p1", author: "Alice", authorPubkey: alice, mine: false, createdAt: 1_700_000_000, url: "https://example.com/a?x=1&y=2",
                  title: hostile, note: "שלום עולם\n日本語のノート 🎬\n\n" + hostile, reactions: [.init(emoji: "🔥", by: ["you", "<b>Bob</b>"])]),
            .init(id: "p2", author: "you", authorPubkey: me, mine: true, createdAt: 1_700_003_600, url: "javascript:alert(3)", title: nil,
                  note: nil, reactions: []),
        ], exportedAt: 1_700_010_000, utcOffset: 3600)
    }

    func testMarkdownEscapesWhatOthersWrote() {
        let md = SessionExport.markdown(session())
        XCTAssertTrue(md.hasPrefix("# Film \\<club\\> "), md)
        XCTAssertFalse(md.contains("<script>") || md.contains("](javascript") || md.contains("**bold**"), md)
        XCTAssertFalse(md.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "no terminal controls")
        XCTAssertTrue(md.contains("> שלום עולם\n> 日本語のノート 🎬\n>"), md)
        XCTAssertTrue(md.contains("## Alice · 2023-11-14 23:13"), "local time (UTC+1): \(md)")
        XCTAssertTrue(md.contains("<https://example.com/a?x=1&y=2>"), md)
        XCTAssertTrue(md.contains("🔥 you, \\<b\\>Bob\\</b\\>"), md)
        XCTAssertTrue(md.contains("2 posts"), md)
    }

    func testHTMLIsSelfContainedAndEscaped() {
        let html = SessionExport.html(session())
        XCTAssertFalse(html.lowercased().contains("<script"), "no script at all")
        XCTAssertFalse(html.contains("href=\"javascript"), "a non-web address is not a link")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html)
        XCTAssertTrue(html.contains("default-src 'none'"), "the page may load nothing")
        XCTAssertTrue(html.contains("href=\"https://example.com/a?x=1&amp;y=2\""), html)
        XCTAssertTrue(html.contains("prefers-color-scheme: dark"))
        XCTAssertTrue(html.contains("שלום עולם\n日本語のノート 🎬"), "paragraphs kept (pre-wrap)")
        XCTAssertFalse(html.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        XCTAssertTrue(html.contains("<time datetime=\"2023-11-14T23:13:20+01:00\">"), html)
        // A thumbnail, when given, is inlined; nothing else points outside the file but the links.
        var withPicture = session()
        withPicture.posts[0].thumbnail = (mime: "image/png", bytes: [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(SessionExport.html(withPicture).contains("src=\"data:image/png;base64,iVBORw==\""))
        XCTAssertFalse(html.contains("src=\"http"), "no remote source")
    }

    func testJSONHasItsSchemaAndEveryField() throws {
        let text = SessionExport.json(session())
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(doc["schema"] as? String, "linkstr.session-export")
        XCTAssertEqual(doc["version"] as? Int, 1)
        XCTAssertEqual(doc["exported_at"] as? String, "2023-11-15T02:00:00+01:00")
        let s = try XCTUnwrap(doc["session"] as? [String: Any])
        XCTAssertEqual(s["members"] as? [String], ["you", "Alice"])
        XCTAssertFalse((s["name"] as? String ?? "").unicodeScalars.contains { $0.value < 0x20 })
        let posts = try XCTUnwrap(doc["posts"] as? [[String: Any]])
        XCTAssertEqual(posts.map { $0["id"] as? String }, ["p1", "p2"])
        XCTAssertEqual(posts[0]["author_pubkey"] as? String, alice)
        XCTAssertEqual(posts[0]["mine"] as? Bool, false)
        XCTAssertEqual(posts[1]["mine"] as? Bool, true)
        XCTAssertEqual(posts[0]["created_at_unix"] as? Int, 1_700_000_000)
        XCTAssertTrue((posts[0]["note"] as? String ?? "").contains("日本語のノート 🎬"))
        XCTAssertTrue(posts[1]["note"] is NSNull && posts[1]["title"] is NSNull)
        let reaction = try XCTUnwrap((posts[0]["reactions"] as? [[String: Any]])?.first)
        XCTAssertEqual(reaction["emoji"] as? String, "🔥")
        XCTAssertEqual(reaction["by"] as? [String], ["you", "<b>Bob</b>"])
    }

    func testLocalTimeAcrossOffsetsAndYears() {
        XCTAssertEqual(SessionExport.json(ExportedSession(id: "s", name: "n", members: [], posts: [], exportedAt: 0, utcOffset: -18_000))
                        .contains("\"exported_at\":\"1969-12-31T19:00:00-05:00\""), true)
        XCTAssertTrue(SessionExport.markdown(ExportedSession(id: "s", name: "n", members: [], posts: [], exportedAt: 951_782_400, utcOffset: 0))
                        .contains("2000-02-29 00:00"), "a leap day")
    }
}
