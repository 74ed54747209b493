import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Drives the reducer the way the runtime does and checks, per action, the exact effects and the exact
/// next state: the expected state is the previous one with the changes the test spells out.
struct ReducerHarness {
    var state: AppState

    init(_ state: AppState = AppState()) { self.state = state }

    mutating func send(_ action: AppAction, _ effects: [AppEffect] = [], file: StaticString = #filePath, line: UInt = #line,
                       _ change: (inout AppState) -> Void = { _ in }) {
        var expected = state
        change(&expected)
        let actual = AppReducer.reduce(&state, action)
        // The status line's log (`:messages`) follows every status; MessagesReducerTests checks it.
        expected.messages = state.messages
        XCTAssertEqual(actual, effects, "effects of \(action)", file: file, line: line)
        if state != expected {
            XCTFail("state after \(action) differs:\n" + Self.diff(expected: expected, actual: state), file: file, line: line)
            state = expected  // continue from what the test expects, so one slip does not cascade
        }
    }

    /// Enter on the `:` command line: the line joins the history (saved by an effect), then runs.
    mutating func enterCommand(_ effects: [AppEffect] = [], file: StaticString = #filePath, line: UInt = #line,
                               _ change: (inout AppState) -> Void = { _ in }) {
        guard case .commandLine(let field)? = state.overlay else { return XCTFail("no command line open", file: file, line: line) }
        var text = field.text.trimmingWhitespace()
        if text.hasPrefix("/") { text.removeFirst() }
        var history = state.commandHistory
        var saved: [AppEffect] = []
        if !text.isEmpty, history.last != text {
            history = Array((history + [text]).suffix(AppReducer.commandHistoryLimit))
            saved = [.saveCommandHistory(history)]
        }
        send(.keyPressed(.enter), saved + effects, file: file, line: line) { $0.commandHistory = history; change(&$0) }
    }

    /// Keys typed one by one (each a `.keyPressed`), expecting no effects.
    mutating func type(_ text: String, file: StaticString = #filePath, line: UInt = #line, _ change: (inout AppState) -> Void) {
        var expected = state
        change(&expected)
        for ch in text {
            let effects = AppReducer.reduce(&state, .keyPressed(.char(ch)))
            XCTAssertEqual(effects, [], "typing \(ch)", file: file, line: line)
        }
        if state != expected {
            XCTFail("state after typing \(text) differs:\n" + Self.diff(expected: expected, actual: state), file: file, line: line)
            state = expected
        }
    }

    static func diff(expected: AppState, actual: AppState) -> String {
        var e = "", a = ""
        dump(expected, to: &e)
        dump(actual, to: &a)
        let el = e.split(separator: "\n"), al = a.split(separator: "\n")
        var out = [String]()
        for i in 0..<max(el.count, al.count) where el[safe: i] != al[safe: i] {
            out.append("  expected: \(el[safe: i] ?? "<none>")\n  actual:   \(al[safe: i] ?? "<none>")")
            if out.count > 8 { break }
        }
        return out.joined(separator: "\n")
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

typealias Fixture = AppFixture
