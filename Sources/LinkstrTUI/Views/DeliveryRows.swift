import LinkstrApp
import LinkstrDomain

/// Under one of our posts: what became of each member's copy. Delivered only when a relay
/// that member reads accepted it; otherwise it says so, and why.
enum DeliveryRows {
    static func render(_ c: inout Canvas, _ state: AppState, _ rows: [MemberDeliveryRow], y start: Int, bottom: Int) -> Int {
        guard !rows.isEmpty, start + 1 < bottom else { return start }
        var y = start + 1
        let delivered = rows.filter { $0.outcome.isDelivered }.count
        c.put("  Delivery: \(delivered) of \(rows.count) in their inbox", x: 0, y: y, Style(.label, bold: true))
        y += 1
        // The ones that need attention first: not delivered, then shared relays only, then under way.
        let ordered = rows.sorted { rank($0.outcome) < rank($1.outcome) }
        for (i, row) in ordered.enumerated() where y < bottom {
            if y == bottom - 1, i < ordered.count - 1 {
                c.put("    … \(ordered.count - i) more (linkstr doctor tells each)", x: 0, y: y, Style(.dim))
                return y + 1
            }
            let (mark, role): (String, Role) = switch row.outcome {
            case .inbox: ("✓", .success)
            case .sharedOnly: ("~", .warning)
            case .pending: ("…", .dim)
            case .notDelivered: ("✗", .error)
            }
            let x = c.put("  \(mark) ", x: 0, y: y, Style(role, bold: true))
            let name = DisplayWidth.truncate(AppView.name(row.member, state), to: 16)
            let after = c.put(name, x: x, y: y, Style(.text))
            c.put("  " + DisplayWidth.truncate(DisplayText.singleLine(row.outcome.words), to: max(8, c.width - after - 3)), x: after, y: y, Style(role))
            y += 1
        }
        return y
    }

    private static func rank(_ outcome: MemberDelivery) -> Int {
        switch outcome {
        case .notDelivered: return 0
        case .sharedOnly: return 1
        case .pending: return 2
        case .inbox: return 3
        }
    }
}
