import LinkstrApp
import LinkstrStorage

/// Damaged stored records: readers leave them out and count them; the count is
/// reported when it grows, and `:repair` drops them.
extension EffectRunner {
    func sayDamagedRecords() {
        guard let seen = reads?.damagedRowsSeen, seen > accountView.damagedRecordsReported else { return }
        accountView.damagedRecordsReported = seen
        dispatch(.settings(.damagedRecordsLeftOut(seen)))
    }

    func runRepair() throws -> [AppAction] {
        guard let account else { return [] }
        let report = try account.repairDamagedRows()
        accountView.damagedRecordsReported = account.reads.damagedRowsSeen
        return [.settings(.damagedRecordsRepaired(dropped: report.total, historyReread: report.historyReread))]
    }
}
