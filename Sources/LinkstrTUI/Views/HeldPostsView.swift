import Foundation
import LinkstrApp
import LinkstrDomain

/// `:held`: the open session's held posts in a box over the feed, oldest first, each with
/// who, when and why, its link and the start of its note; scrolled like the doctor's report.
enum HeldPostsView {
    static func render(_ c: inout Canvas, _ state: AppState, _ held: [HeldPost], scroll: Int) {
        let r = OverlayViews.box(&c, title: "Held posts (\(held.count))", width: min(84, c.width - 4), height: c.height - 2)
        var lines: [(String, Style)] = [("They come in by themselves once a snapshot makes their sender a member at their date.", Style(.dim))]
        for h in held {
            let when = AppView.relative(h.post.createdAt, now: state.now)
            lines.append(("\(DisplayText.singleLine(AppView.name(h.post.author, state))) · \(when) · \(h.reason.rawValue)", Style(.title, bold: true)))
            lines.append(("  " + DisplayText.singleLine(h.post.url), Style(.accent)))
            lines.append(("  " + DisplayText.singleLine(h.post.note ?? ""), Style(.text)))
            lines.append(("", Style(.text)))
        }
        let rows = max(1, r.height - 4)
        for (i, line) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            c.put(line.0, x: r.x + 2, y: r.y + 2 + i, line.1, limit: r.width - 4)
        }
        let more = lines.count > rows ? "  ↑/↓ PgUp/PgDn scroll ·" : ""
        c.put(more + " Esc closes", x: r.x + 2, y: r.bottom - 2, Style(.dim), limit: r.width - 4)
    }
}
