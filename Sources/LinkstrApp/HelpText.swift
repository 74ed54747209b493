/// The `?` help, generated from the keys in force (so a `keys.toml` binding shows as it is), the shown
/// pane's keys first. Every line fits 76 columns (the box at 80); a screen too short for all of it
/// scrolls (↑↓ PgUp PgDn).
public enum HelpText {
    public static let width = 74
    static let indent = 10

    /// The sections of each view, in the order a pane puts first.
    static func contexts(for pane: AppState.Pane) -> [KeyContext] {
        switch pane {
        case .sessions: return [.list, .feed]
        case .post: return [.post]
        case .you: return [.you]
        case .settings: return [.settings]
        }
    }

    /// Keys that are not rebindable (fields, the composer, quick reactions) and the commands.
    static let composer = ["Enter link→note→send", "Tab field", "^V paste", "^L clear", "^O $EDITOR", "Esc keep as draft"]
    static let reactions = ["+ 👍", "- 👎", "* 👀"]
    static let fields = ["^A ^E start/end", "^W word", "^U clear", "terminal paste works", "Ctrl-Z suspend"]
    static let commands = CommandTable.helpLines + ["Tab completes", "↑↓ history"]

    public static func lines(for pane: AppState.Pane, keymap: Keymap = .standard) -> [String] {
        func items(_ context: KeyContext, _ actions: [String]? = nil) -> [String] {
            Keymap.bindings.filter { $0.context == context && (actions?.contains($0.action) ?? true) }
                .map { b in keymap.keys(b).map(\.name).joined(separator: "/") + " " + b.help }
        }
        var sections: [(title: String, items: [String], pane: AppState.Pane?)] = [
            ("Sessions", items(.list), .sessions),
            ("Session", items(.feed), .sessions),
            ("Composer", composer, .post),
            ("Post", items(.post) + reactions, .post),
            ("You", items(.you), .you),
            ("Settings", items(.settings), .settings),
            ("Panes", items(.global, ["pane_sessions", "pane_post", "pane_you", "pane_settings", "next_pane", "previous_pane"]), nil),
            ("Move", items(.global, ["down", "up", "top", "bottom", "page_down", "page_up"]), nil),
            ("App", items(.global, ["help", "command", "next_unread", "lock", "quit"]), nil),
            ("Fields", fields, nil),
            ("Commands", commands, nil),
        ]
        // The shown pane's sections first, then the general ones, then the other panes'.
        sections = sections.filter { $0.pane == pane } + sections.filter { $0.pane == nil } + sections.filter { $0.pane != nil && $0.pane != pane }
        return sections.flatMap { wrap(title: $0.title, $0.items) }
    }

    /// "Title     a · b · c", continued under the items, never wider than `width`.
    static func wrap(title: String, _ items: [String]) -> [String] {
        var out = [String]()
        var line = title.padding(toLength: indent, withPad: " ", startingAt: 0)
        var empty = true
        for item in items {
            let piece = empty ? item : " · " + item
            if !empty && columns(line + piece) > width {
                out.append(line)
                line = String(repeating: " ", count: indent) + item
            } else {
                line += piece
            }
            empty = false
        }
        out.append(line)
        return out
    }

    /// Terminal columns of help text (its emoji are two wide).
    static func columns(_ s: String) -> Int {
        s.reduce(0) { $0 + (($1.unicodeScalars.first?.properties.isEmojiPresentation ?? false) ? 2 : 1) }
    }

    /// How many help lines the box shows on a screen this tall.
    public static func visibleLines(screenRows: Int, total: Int) -> Int { max(1, min(total, screenRows - 6)) }

    /// The furthest the help scrolls.
    public static func maxScroll(screenRows: Int, total: Int) -> Int { max(0, total - visibleLines(screenRows: screenRows, total: total)) }
}
