import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrTUI

/// Issue 54 (7): a session with a saved draft had no mark in the list; it says "✎ draft" now.
final class DraftMarkTests: XCTestCase {
    typealias F = AppFixture

    func testASessionWithADraftIsMarkedInTheList() {
        var state = F.main(sessions: [F.session("s1", "Films"), F.session("s2", "Music")])
        state.drafts["s1"] = Draft(link: "https://example.com/half", note: "")
        state.drafts["s2"] = Draft(link: " ", note: "")
        state.screen = ScreenSize(columns: 80, rows: 24)
        let lines = AppView.render(state).lines
        let films = lines.firstIndex { $0.contains("Films") }!, music = lines.firstIndex { $0.contains("Music") }!
        XCTAssertTrue(lines[films + 1].contains("✎ draft · "), lines[films + 1])
        XCTAssertFalse(lines[music + 1].contains("draft"), "an empty draft is none: \(lines[music + 1])")
    }
}
