import LinkstrApp
import LinkstrDomain

/// `:doctor`: the delivery doctor's report in a box over the pane, scrolled with ↑/↓ and the pages.
enum DoctorView {
    static func render(_ c: inout Canvas, _ state: AppState, _ report: DoctorReport) {
        let width = AppReducer.doctorWidth(state) + 4
        let r = OverlayViews.box(&c, title: "Delivery doctor", width: width, height: c.height - 2)
        let rows = max(1, r.height - 4)
        if report.loading {
            c.put("checking each member's relays (5 s at most each)…", x: r.x + 2, y: r.y + 2, Style(.dim), limit: r.width - 4)
        }
        for (i, line) in report.lines.dropFirst(report.scroll).prefix(rows).enumerated() {
            // Section heads (a person, "You") stand out; the advice is the line to read.
            let trimmed = line.drop { $0 == " " }
            let style = !line.hasPrefix(" ") ? Style(.title, bold: true) : trimmed.hasPrefix("→") ? Style(.accent) : trimmed.hasPrefix("✗") ? Style(.error) : Style(.text)
            c.put(line, x: r.x + 2, y: r.y + 2 + i, style, limit: r.width - 4)
        }
        let more = report.lines.count > rows ? "  ↑/↓ PgUp/PgDn scroll ·" : ""
        c.put(more + " Esc closes", x: r.x + 2, y: r.bottom - 2, Style(.dim), limit: r.width - 4)
    }
}
