import LinkstrApp
import LinkstrDomain
import XCTest

/// Issue 54 (6): status messages were cut and vanished. The last 200 are kept, in order, each once;
/// `:messages` shows them (opened at the newest), Esc closes.
final class MessagesReducerTests: XCTestCase {
    typealias F = Fixture

    func testTheStatusLinesMessagesAreKeptAndShown() {
        var state = F.main(sessions: [F.session("s1", "Films")])
        state.screen = ScreenSize(columns: 80, rows: 24)
        _ = AppReducer.reduce(&state, .keyPressed(.char(":")))
        _ = AppReducer.reduce(&state, .textPasted("messages"))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        XCTAssertEqual(state.status, StatusLine("no messages yet."))
        XCTAssertEqual(state.messages.map(\.text), ["no messages yet."])
        for i in 0..<250 { _ = AppReducer.reduce(&state, .failed(.relayList, ClientError(.invalid, "number \(i)"))) }
        XCTAssertEqual(state.messages.count, AppReducer.messagesKept)
        XCTAssertEqual(state.messages.last?.text.hasSuffix("number 249"), true, "\(String(describing: state.messages.last))")
        XCTAssertEqual(state.messages.first?.text.hasSuffix("number 50"), true, "the oldest went")
        _ = AppReducer.reduce(&state, .keyPressed(.escape))
        _ = AppReducer.reduce(&state, .keyPressed(.char(":")))
        _ = AppReducer.reduce(&state, .textPasted("messages"))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        XCTAssertEqual(state.overlay, .messages(scroll: AppReducer.messagesKept + 1 - (24 - 8)), "at the newest")
        _ = AppReducer.reduce(&state, .keyPressed(.char("g")))
        XCTAssertEqual(state.overlay, .messages(scroll: 0))
        _ = AppReducer.reduce(&state, .keyPressed(.escape))
        XCTAssertNil(state.overlay)
    }
}
