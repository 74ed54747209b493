import LinkstrDomain

/// `:doctor`: the delivery doctor for the open (or selected) session, else for everyone we know, shown
/// over the pane as it comes (each relay it checks has its own deadline); ↑/↓, j/k and the pages
/// scroll it, Esc or q closes it.
extension AppReducer {
    static func doctorCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        let sid = input.session?.id
        state.overlay = .doctor(DoctorReport(sessionID: sid))
        return [.settings(.runDoctor(sessionID: sid, width: doctorWidth(state)))]
    }

    /// The report's text width: the box less its borders, at most 80 (the CLI's width).
    public static func doctorWidth(_ state: AppState) -> Int { max(20, min(80, state.screen.columns - 8)) }

    static func doctorKey(_ state: inout AppState, _ report: DoctorReport, _ key: Key) -> [AppEffect] {
        var report = report
        let page = max(1, state.screen.rows - 8)
        let furthest = max(0, report.lines.count - page)
        switch key {
        case .escape, .char("q"):
            state.overlay = nil
            return []
        case .down, .char("j"): report.scroll = min(furthest, report.scroll + 1)
        case .up, .char("k"): report.scroll = max(0, report.scroll - 1)
        case .pageDown, .char(" "): report.scroll = min(furthest, report.scroll + page)
        case .pageUp: report.scroll = max(0, report.scroll - page)
        case .home, .char("g"): report.scroll = 0
        case .end, .char("G"): report.scroll = furthest
        default: break
        }
        state.overlay = .doctor(report)
        return []
    }
}
