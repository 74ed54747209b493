import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrTUI

/// Search, link hints and hyperlinks as drawn.
extension RenderTests {
    func testLinksAreMarkedForOSC8AndHintsLabelTheirLines() throws {
        let films = F.session("s1", "Films")
        let posts = (0..<4).map { F.post("p\($0)", in: "s1", at: 5_000 - Int64($0), url: "https://example.com/\($0)") }
            + [F.post("bad", in: "s1", at: 100, url: "https://example.com/é")]
        var state = F.feed(films, posts: posts)
        var c = render(state)
        // Each URL line is one link span over its drawn text; a URL a terminal could not carry safely is not.
        XCTAssertEqual(c.links.map(\.url), (0..<4).map { "https://example.com/\($0)" })
        for span in c.links {
            let text = (span.x..<span.end).map { c[$0, span.y].text }.joined()
            XCTAssertEqual(text, "[Link] " + span.url)
        }
        XCTAssertFalse(c.links.contains { c[2, $0.y].style.reverse }, "no labels before f")

        _ = AppReducer.reduce(&state, .keyPressed(.char("f")))
        c = render(state)
        for (i, span) in c.links.enumerated() {
            XCTAssertEqual(c[2, span.y].text, String(LinkHints.labels[i]), "the label sits at the start of post \(i)'s link line")
            XCTAssertTrue(c[2, span.y].style.reverse)
        }
        // A box over the feed takes the links under it away (its text is never a link).
        _ = AppReducer.reduce(&state, .keyPressed(.escape))
        state.overlay = .help
        c = render(state)
        XCTAssertTrue(c.links.isEmpty, "help covers the links: \(c.links)")
    }

    func testTheFeedShowsTheSearchPromptThenWhereTheHitsStand() throws {
        let films = F.session("s1", "Films")
        var state = F.feed(films, posts: [F.post("p0", in: "s1", note: "quokka")])
        _ = AppReducer.reduce(&state, .keyPressed(.char("/")))
        _ = AppReducer.reduce(&state, .textPasted("quo"))
        var c = render(state)
        XCTAssertTrue(c.row(1).contains(" / quo"), c.row(1))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        _ = AppReducer.reduce(&state, .search(.postSearchFinished(PostSearchAnswer(
            query: "quo", sessionID: "s1", hits: [SearchHit(postID: "p0", sessionID: "s1", createdAt: 1_000, rankInSession: 0)],
            truncated: false, previews: [], indexedPosts: 1))))
        c = render(state)
        XCTAssertTrue(c.row(1).contains("/quo  1/1  n·N"), c.row(1))
        for size in [(80, 24), (200, 60), (40, 12)] { XCTAssertFalse(render(state, columns: size.0, rows: size.1).lines.isEmpty) }
    }

    func testResultsOfASearchAcrossSessionsFitAt80x24() throws {
        var state = F.main(sessions: [F.session("s1", "Films"), F.session("s2", "Music")])
        let hits = (0..<12).map { SearchHit(postID: "p\($0)", sessionID: $0 % 2 == 0 ? "s1" : "s2", createdAt: 9_000 - Int64($0), rankInSession: $0 / 2) }
        let previews = hits.map { F.post($0.postID, in: $0.sessionID, url: "https://example.com/\($0.postID)", note: "about quokkas \($0.postID)") }
        _ = AppReducer.reduce(&state, .keyPressed(.char(":")))
        _ = AppReducer.reduce(&state, .textPasted("search quokkas"))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        _ = AppReducer.reduce(&state, .search(.postSearchFinished(PostSearchAnswer(query: "quokkas", sessionID: nil, hits: hits, truncated: false,
                                                                           previews: previews, sessionNames: ["s1": "Films", "s2": "Music"],
                                                                           indexedPosts: 40))))
        let c = render(state)
        XCTAssertTrue(c.lines.contains { $0.contains("Search · quokkas · 12") }, c.lines.joined(separator: "\n"))
        XCTAssertTrue(c.lines.contains { $0.contains("Films · Bob") || $0.contains("Films · ") })
        XCTAssertTrue(c.lines.contains { $0.contains("▌ about quokkas p0") })
        XCTAssertTrue(c.lines.contains { $0.contains("Enter open") })
        for line in c.lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 80) }
    }
}

extension RenderTests {
    /// The README shows the help as the app generates it (the default keys, the Sessions pane first).
    func testTheReadmeShowsTheHelpAsGenerated() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let block = OverlayViews.helpLines(for: .sessions).joined(separator: "\n")
        XCTAssertTrue(readme.contains("```\n" + block + "\n```"), "README's key block differs from:\n" + block)
    }
}
