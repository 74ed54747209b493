import LinkstrApp
import LinkstrDomain

/// `:messages`: the status line's past messages in a box, newest last, each whole (wrapped at the box's
/// width), errors in the error colour; scrolled like the doctor's report.
enum MessagesView {
    static func render(_ c: inout Canvas, _ state: AppState, scroll: Int) {
        let r = OverlayViews.box(&c, title: "Messages (\(state.messages.count))", width: min(100, c.width - 4), height: c.height - 2)
        let rows = max(1, r.height - 4)
        var y = r.y + 2
        for message in state.messages.dropFirst(scroll) {
            let role: Role = message.kind == .error ? .error : message.kind == .warning ? .warning : .text
            for line in PostViews.wrap(DisplayText.singleLine(message.text), width: max(10, r.width - 4)) {
                guard y < r.y + 2 + rows else { break }
                c.put(line, x: r.x + 2, y: y, Style(role), limit: r.width - 4)
                y += 1
            }
        }
        let more = state.messages.count > rows ? "  ↑/↓ PgUp/PgDn scroll ·" : ""
        c.put(more + " Esc closes", x: r.x + 2, y: r.bottom - 2, Style(.dim), limit: r.width - 4)
    }
}
