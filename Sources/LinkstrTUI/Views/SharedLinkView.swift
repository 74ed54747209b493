import LinkstrApp
import LinkstrDomain

/// The "Shared link" box: the link, its note and kind, then the sessions it can go into, filtered by
/// what is typed.
enum SharedLinkView {
    static func render(_ c: inout Canvas, _ state: AppState, _ picker: SharedLinkPicker) {
        let link = picker.link
        let width = min(72, c.width - 4)
        let lines = PostViews.wrap(DisplayText.singleLine(link.url), width: width - 4).prefix(4)
        let note = link.note.map { PostViews.wrap("“" + DisplayText.singleLine($0) + "”", width: width - 4).prefix(3) } ?? []
        let choices = picker.choices(in: state.sessions)
        // The box: the link (≤ 4), the note (≤ 3), the kind, the filter, the choices, the keys.
        let fixed = lines.count + note.count + 9
        let capacity = max(1, min(max(1, choices.count), c.height - 2 - fixed))
        let r = OverlayViews.box(&c, title: "Shared link", width: width, height: fixed + capacity)
        var y = r.y + 2
        for line in lines { c.put(line, x: r.x + 2, y: y, Style(.link)); y += 1 }
        for line in note { c.put(line, x: r.x + 2, y: y, Style(.note)); y += 1 }
        c.put(URLClassifier.classify(link.url).label, x: r.x + 2, y: y, Style(.label), limit: width - 4)
        y += 2
        let x = c.put("Share into: ", x: r.x + 2, y: y, Style(.accent))
        AppView.drawField(&c, picker.filter, x: x, y: y, width: r.x + r.width - 2 - x, focused: true, placeholder: "type to filter sessions")
        y += 1
        if choices.isEmpty {
            let name = picker.filter.text.trimmingWhitespace()
            let said = name.isEmpty ? "no session to post in yet: Enter starts one" : "no session named like that: Enter starts “\(DisplayText.singleLine(name))”"
            c.put(said, x: r.x + 4, y: y, Style(.dim), limit: width - 6)
        } else {
            let scroll = SessionsView.visibleScroll(selection: picker.selection, scroll: 0, capacity: capacity, count: choices.count)
            for (i, session) in choices.enumerated().dropFirst(scroll).prefix(capacity) {
                c.put(DisplayText.singleLine(session.name), x: r.x + 4, y: y + i - scroll,
                      Style(.text, reverse: i == picker.selection), limit: width - 6)
            }
        }
        OverlayViews.footer(&c, r, "↑↓ choose · Enter share · ^O open · ^Y copy · Esc discard", error: false)
    }
}
