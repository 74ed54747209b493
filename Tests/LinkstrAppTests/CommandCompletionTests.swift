import LinkstrApp
import LinkstrDomain
import XCTest

/// The command line's Tab completion of names (themes, sessions, people after `@`), `:session NAME`
/// and `:theme NAME` (issue 14 item 3).
final class CommandCompletionTests: XCTestCase {
    typealias F = Fixture

    func tab(_ h: inout ReducerHarness, _ typed: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        h.state.overlay = .commandLine(TextField(typed))
        _ = AppReducer.reduce(&h.state, .keyPressed(.tab))
        XCTAssertEqual(h.state.overlay, .commandLine(TextField(expected)), file: file, line: line)
    }

    func testNamesCompleteWithTab() {
        let rows = [F.session("s1", "Weekend films", members: [F.me, F.bob, F.carol]), F.session("s2", "Weekly reading"), F.session("s3", "Music")]
        var h = ReducerHarness(F.main(sessions: rows, contacts: [Contact(pubkey: F.bob, alias: "Bob"), Contact(pubkey: F.carol, alias: "Carla")]))
        tab(&h, "th", "theme ")
        tab(&h, "theme st", "theme storm")
        tab(&h, "theme m", "theme moon")
        tab(&h, "ses", "session ")
        tab(&h, "session mu", "session Music")
        tab(&h, "session we", "session Week")
        tab(&h, "session weeke", "session Weekend films")
        tab(&h, "session zz", "session zz")
        // People after @, by the names the app shows (the alias first).
        tab(&h, "post https://a.example for @b", "post https://a.example for @Bob")
        tab(&h, "post https://a.example @Ca", "post https://a.example @Carla")
        // :rename offers the open session's name to edit.
        h.state.overlay = nil
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s1"); feed.summary = rows[0]
            $0.sessions.open = feed
        }
        tab(&h, "rename ", "rename Weekend films")
    }

    func testSessionAndThemeCommands() {
        let rows = [F.session("s1", "Weekend films"), F.session("s2", "Weekly reading"), F.session("s3", "Music")]
        var h = ReducerHarness(F.main(sessions: rows))
        func command(_ line: String, _ effects: [AppEffect], _ change: @escaping (inout AppState) -> Void) {
            h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
            h.send(.textPasted(line)) { $0.overlay = .commandLine(TextField(line)) }
            h.enterCommand(effects) { $0.overlay = nil; change(&$0) }
        }
        command("session week", []) { $0.status = StatusLine("2 sessions match week: Tab completes.", .error) }
        command("session nothing", []) { $0.status = StatusLine("no session named nothing.", .error) }
        command("session music", [.sessions(.loadFeed(sessionID: "s3", limit: 50))]) {
            $0.sessions.selection = 2
            var feed = SessionFeed(sessionID: "s3"); feed.summary = rows[2]
            $0.sessions.open = feed
            $0.status = nil
        }
        command("theme", []) { $0.status = StatusLine("theme: night (:theme night|storm|moon|day).") }
        command("theme neon", []) { $0.status = StatusLine("no theme named neon: night, storm, moon, day.", .error) }
        command("theme Storm", [.settings(.applyTheme("storm"))]) { _ in }
        h.send(.settings(.themeApplied("storm"))) {
            $0.themeName = "storm"
            $0.status = StatusLine("theme storm for this run (theme = \"storm\" in config.toml keeps it).", .success)
        }
        h.send(.settings(.themeFailed(ClientError(.invalid, "no theme named storm (choose one of night)")))) { $0.status = StatusLine("no theme named storm (choose one of night)", .error) }
    }
}
