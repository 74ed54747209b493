import LinkstrDomain

/// Damaged stored records: said once per new count, dropped by `:repair`.
extension AppReducer {
    static func applyRepair(_ state: inout AppState, _ action: SettingsAction) -> [AppEffect] {
        switch action {
        case .damagedRecordsLeftOut(let count):
            guard count > state.damagedRecordsSaid else { return [] }
            state.damagedRecordsSaid = count
            state.status = StatusLine("\(count) damaged stored record\(count == 1 ? "" : "s") could not be read and \(count == 1 ? "was" : "were") left out · "
                                      + ":repair drops them so relays can bring them back", .error)
            return []
        case .damagedRecordsRepaired(let dropped, let historyReread):
            state.damagedRecordsSaid = 0
            if dropped == 0 {
                state.status = StatusLine("no damaged records.", .success)
                return [.sessions(.loadSessions(state.sessions.list))]
            }
            state.status = StatusLine("dropped \(dropped) damaged record\(dropped == 1 ? "" : "s"); the next start fetches "
                                      + (historyReread ? "the history again." : "them again from relays."), .success)
            return [.sessions(.loadSessions(state.sessions.list))]
        default:
            return []
        }
    }
}
