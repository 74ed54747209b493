import LinkstrApp
import LinkstrDomain

/// Settings' own relay lists, drawn where the relays we use are: the blocked relays (never dialled, for
/// delivery, lookups, checks or AUTH) or the inbox relays (where senders deliver our gift wraps).
enum OwnRelayListView {
    static func render(_ c: inout Canvas, _ view: OwnRelayListState, _ area: Rect) -> Int {
        let blocked = view.kind == .blocked
        var x = c.put(blocked ? " Blocked relays" : " Inbox relays", x: 0, y: area.y, Style(.title, bold: true))
        x = c.put(blocked ? "  \(view.relays.count) · never dialled (kind 10006)" : "  where you read gift wraps (kind 10050)", x: x, y: area.y, Style(.dim))
        if blocked, view.pending { c.put("  not yet published", x: x, y: area.y, Style(.warning)) }
        if !blocked, view.loaded, !view.chosen { c.put("  (the relays you use)", x: x, y: area.y, Style(.dim)) }
        var y = area.y + Layout.settingsRelayTop - 1
        if let adding = view.adding {
            c.put(blocked ? "  block" : "  add", x: 0, y: y, Style(.accent))
            AppView.drawField(&c, adding, x: 9, y: y, width: min(50, c.width - 11), focused: true)
        }
        y = area.y + Layout.settingsRelayTop
        if view.loaded, view.relays.isEmpty {
            c.put(blocked ? "  none blocked: a blocks a relay." : "  none: a adds one.", x: 0, y: y, Style(.dim))
            y += 2
        }
        let capacity = max(1, (area.bottom - 7 - y))
        let scroll = SessionsView.visibleScroll(selection: view.selection, scroll: 0, capacity: capacity, count: view.relays.count)
        for (i, url) in view.relays.enumerated().dropFirst(scroll) where y < area.bottom - 7 {
            let selected = i == view.selection
            c.put(selected ? "›" : " ", x: 1, y: y, Style(.accent, bold: true))
            c.put(blocked ? "⊘" : "✉", x: 3, y: y, Style(blocked ? .error : .accent))
            c.put(DisplayWidth.truncate(DisplayText.singleLine(url), to: c.width - 8), x: 5, y: y, Style(.text, bold: selected, reverse: selected))
            y += 1
        }
        let keys = blocked ? "  a block · x unblock · b or Esc back to your relays"
            : "  a add · x remove" + (view.chosen ? " · R the relays you use" : "") + " · i or Esc back to your relays"
        c.put(keys, x: 0, y: max(y + 1, area.bottom - 7), Style(.dim), limit: c.width - 1)
        return y
    }
}
