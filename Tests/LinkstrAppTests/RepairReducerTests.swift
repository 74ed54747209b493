import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// Issue 32 (9): damaged records are said once per new count and dropped by `:repair` after a `y`.
final class RepairReducerTests: XCTestCase {
    typealias F = Fixture

    func testDamageIsSaidOnceAndRepairAsksFirst() {
        var h = ReducerHarness(F.main(sessions: [F.session("s1", "Films")]))
        let said = StatusLine("2 damaged stored records could not be read and were left out · :repair drops them so relays can bring them back", .error)
        h.send(.settings(.damagedRecordsLeftOut(2))) { $0.damagedRecordsSaid = 2; $0.status = said; $0.status?.since = $0.now }
        h.send(.keyPressed(.escape)) { $0.status = nil }
        h.send(.settings(.damagedRecordsLeftOut(2)))  // the same count again: nothing more is said
        h.send(.settings(.damagedRecordsLeftOut(1)))

        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("repair")) { $0.overlay = .commandLine(TextField("repair")) }
        h.enterCommand {
            $0.overlay = .confirm(Confirmation(.repairDamagedRecords,
                                               "drop the stored records that no longer open? relays bring back what they still hold at the next start. (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.settings(.repairDamagedRecords)]) { $0.overlay = nil; $0.status = StatusLine("repairing…"); $0.status?.since = $0.now }
        h.send(.settings(.damagedRecordsRepaired(dropped: 2, historyReread: false)), [.sessions(.loadSessions(h.state.sessions.list))]) {
            $0.damagedRecordsSaid = 0
            $0.status = StatusLine("dropped 2 damaged records; the next start fetches them again from relays.", .success)
            $0.status?.since = $0.now
        }
        h.send(.settings(.damagedRecordsLeftOut(1))) {
            $0.damagedRecordsSaid = 1
            $0.status = StatusLine("1 damaged stored record could not be read and was left out · :repair drops them so relays can bring them back", .error)
            $0.status?.since = $0.now
        }
    }
}
