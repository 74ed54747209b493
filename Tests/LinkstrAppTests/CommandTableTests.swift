import LinkstrDomain
import XCTest

@testable import LinkstrApp

/// Issue 28: the `:` commands are one table, read by the parser, the completion and the help, so none
/// can exist in one and be missing from another.
final class CommandTableTests: XCTestCase {
    typealias F = Fixture

    func testEveryCommandRunsCompletesAndIsInTheHelp() {
        let help = HelpText.lines(for: .sessions).joined(separator: " ")
        for command in CommandTable.all {
            // Each name and alias runs (whatever it then says, it is not "unknown").
            for name in command.names {
                var state = F.main(sessions: [F.session("s1", "Films")])
                _ = AppReducer.runCommand(&state, name)
                XCTAssertFalse(state.status?.text.hasPrefix("unknown command") ?? false, ":\(name) is unknown to the parser")
            }
            XCTAssertTrue(AppReducer.commands.contains(command.name), ":\(command.name) does not complete")
            if !command.help.isEmpty { XCTAssertTrue(help.contains(command.help), "the help lacks \(command.help)") }
        }
        XCTAssertEqual(AppReducer.commands, AppReducer.commands.sorted())
        XCTAssertFalse(AppReducer.commands.contains("q"), "an alias is run, never offered")
        var state = F.main()
        _ = AppReducer.runCommand(&state, "frobnicate")
        XCTAssertEqual(state.status, StatusLine("unknown command :frobnicate (try :help, or Tab to complete)", .error))
    }

    func testNamesAndAliasesAreUniqueAndEveryCommandIsHelpedOnce() {
        let names = CommandTable.all.flatMap(\.names)
        XCTAssertEqual(names.count, Set(names).count, "a name or alias used twice")
        // Only `:export-ios` shares another's line (`:export[-ios] PATH`).
        XCTAssertEqual(CommandTable.all.filter(\.help.isEmpty).map(\.name), ["export-ios"])
    }
}
