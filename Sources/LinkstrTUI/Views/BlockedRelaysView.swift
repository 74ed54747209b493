import LinkstrApp
import LinkstrDomain

/// Settings' blocked relays, drawn where our relays are: never dialled, for delivery, discovery or AUTH.
enum BlockedRelaysView {
    static func render(_ c: inout Canvas, _ view: BlockedRelaysState, _ area: Rect) -> Int {
        var x = c.put(" Blocked relays", x: 0, y: area.y, Style(.title, bold: true))
        x = c.put("  \(view.relays.count) · never dialled (kind 10006)", x: x, y: area.y, Style(.dim))
        if view.pending { c.put("  not yet published", x: x, y: area.y, Style(.warning)) }
        var y = area.y + Layout.settingsRelayTop - 1
        if let adding = view.adding {
            c.put("  block", x: 0, y: y, Style(.accent))
            AppView.drawField(&c, adding, x: 9, y: y, width: min(50, c.width - 11), focused: true)
        }
        y = area.y + Layout.settingsRelayTop
        if view.loaded, view.relays.isEmpty { c.put("  none blocked: a blocks a relay.", x: 0, y: y, Style(.dim)); y += 2 }
        let capacity = max(1, (area.bottom - 6 - y))
        let scroll = SessionsView.visibleScroll(selection: view.selection, scroll: 0, capacity: capacity, count: view.relays.count)
        for (i, url) in view.relays.enumerated().dropFirst(scroll) where y < area.bottom - 7 {
            let selected = i == view.selection
            c.put(selected ? "›" : " ", x: 1, y: y, Style(.accent, bold: true))
            c.put("⊘", x: 3, y: y, Style(.error))
            c.put(DisplayWidth.truncate(DisplayText.singleLine(url), to: c.width - 8), x: 5, y: y, Style(.text, bold: selected, reverse: selected))
            y += 1
        }
        c.put("  a block · x unblock · b or Esc back to your relays", x: 0, y: max(y + 1, area.bottom - 7), Style(.dim), limit: c.width - 1)
        return y
    }
}
