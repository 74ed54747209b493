import LinkstrApp
import LinkstrStorage

/// Damaged stored records: readers leave them out and count them; the count is
/// reported when it grows, and `:repair` drops them.
extension EffectRunner {
    func sayDamagedRecords() {
        guard let seen = store?.damagedRowsSeen, seen > accountView.damagedRecordsReported else { return }
        accountView.damagedRecordsReported = seen
        dispatch(.settings(.damagedRecordsLeftOut(seen)))
    }

    func runRepair() throws -> [AppAction] {
        guard let store else { return [] }
        let report = try store.repairDamagedRows()
        accountView.damagedRecordsReported = store.damagedRowsSeen
        return [.settings(.damagedRecordsRepaired(dropped: report.total, historyReread: report.historyReread))]
    }
}
