import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrTUI

/// Issue 54 (6): `:messages` draws the kept messages whole, wrapped in its box, within 80 columns.
final class MessagesViewTests: XCTestCase {
    func testMessagesAreDrawnWholeInTheirBox() {
        var state = AppFixture.main()
        state.screen = ScreenSize(columns: 80, rows: 24)
        let long = "yt-dlp is needed to play this video, which is not installed here: sudo apt install yt-dlp, or pipx install yt-dlp for the newest one."
        state.messages = [StatusLine("testing ws://relay.example…"), StatusLine("ws://relay.example: answered in 40 ms", .success), StatusLine(long, .error)]
        state.overlay = .messages(scroll: 0)
        let lines = AppView.render(state).lines
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Messages (3)"), text)
        XCTAssertTrue(text.contains("testing ws://relay.example…") && text.contains("answered in 40 ms"), text)
        XCTAssertTrue(text.contains("pipx install yt-dlp for the newest one."), "the long one whole, wrapped: \(text)")
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 80) }
    }
}
