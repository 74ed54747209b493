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
        guard let scroll = scrolled(report.scroll, lines: report.lines.count, state, key) else {
            state.overlay = nil
            return []
        }
        report.scroll = scroll
        state.overlay = .doctor(report)
        return []
    }

    /// A report shown over the pane (the doctor's, the held posts) scrolled by `key`: ↑/↓, j/k, the pages,
    /// g/G; nil when the key closes it (Esc, q).
    static func scrolled(_ scroll: Int, lines: Int, _ state: AppState, _ key: Key) -> Int? {
        let page = max(1, state.screen.rows - 8)
        let furthest = max(0, lines - page)
        switch key {
        case .escape, .char("q"): return nil
        case .down, .char("j"): return min(furthest, scroll + 1)
        case .up, .char("k"): return max(0, scroll - 1)
        case .pageDown, .char(" "): return min(furthest, scroll + page)
        case .pageUp: return max(0, scroll - page)
        case .home, .char("g"): return 0
        case .end, .char("G"): return furthest
        default: return scroll
        }
    }
}
