/// Where things are on screen: the one geometry the views draw with and the mouse code reads clicks by.
public enum Layout {
    /// At most how many lines `note` wraps to at `width` columns (a character counted two columns
    /// unless ASCII): the bound of the detail's note scroll (the view knows the exact figure).
    public static func noteLineBound(_ note: String, width: Int) -> Int {
        let w = max(1, width)
        return note.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            let columns = line.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
            return total + max(1, (columns + w - 1) / w)
        }
    }

    /// Rows above the pane content: the tab bar and the pane title.
    public static let contentTop = 2
    public static let sessionRowHeight = 2
    /// The screen row where a pane's area starts (below the tab bar); the status line takes the last row.
    public static let paneTop = 1
    /// Settings: first relay row below the pane top (header, then the add field's row).
    public static let settingsRelayTop = 2

    /// Rows of a pane's area: the screen less the tab bar, the status line and the key hints.
    public static func paneHeight(screenRows: Int) -> Int { max(0, screenRows - 3) }

    /// The tab bar's labels (" 1 Sessions  2 Post …") and the columns each takes, from column 1.
    public static let tabs: [(pane: AppState.Pane, label: String, x: Int, width: Int)] = {
        var x = 1
        return AppState.Pane.allCases.map { pane in
            let label = " \(pane.rawValue) \(pane.title) "
            defer { x += label.count }
            return (pane, label, x, label.count)
        }
    }()

    /// The pane whose tab is drawn at `column` on the tab bar.
    public static func tab(atColumn column: Int) -> AppState.Pane? {
        tabs.first { column >= $0.x && column < $0.x + $0.width }?.pane
    }

    /// How many sessions (two rows each) fit under the Sessions pane's title.
    public static func sessionCapacity(screenRows: Int) -> Int {
        let paneBottom = paneTop + paneHeight(screenRows: screenRows)
        return max(1, (paneBottom - (paneTop + 1)) / sessionRowHeight)
    }

    /// How many relays (two rows each) the Settings pane shows above its storage and identity blocks.
    public static func settingsRelayCapacity(screenRows: Int) -> Int {
        let paneBottom = paneTop + paneHeight(screenRows: screenRows)
        return max(1, (paneBottom - 6 - (paneTop + settingsRelayTop)) / 2)
    }

    /// The first visible row of a list that keeps `selection` within `capacity` rows.
    public static func visibleScroll(selection: Int, scroll: Int, capacity: Int, count: Int) -> Int {
        var top = min(scroll, max(0, count - capacity))
        if selection < top { top = selection }
        if selection >= top + capacity { top = selection - capacity + 1 }
        return max(0, top)
    }
}
