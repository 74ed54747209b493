import LinkstrApp
import LinkstrDomain

/// Help, confirmations, the emoji picker and the two forms, drawn as boxes over the pane.
enum OverlayViews {
    static func render(_ c: inout Canvas, _ state: AppState, _ overlay: Overlay) {
        switch overlay {
        case .commandLine: return  // drawn on the status line
        case .help: help(&c)
        case .confirm(let confirmation):
            let lines = PostViews.wrap(confirmation.question, width: min(60, c.width - 8))
            let r = box(&c, title: "Confirm", width: min(64, c.width - 4), height: lines.count + 4)
            for (i, line) in lines.enumerated() { c.put(line, x: r.x + 2, y: r.y + 2 + i, Style(.warning, bold: true)) }
        case .emojiPicker(_, let selection):
            let columns = 8
            let rows = (AppReducer.emojiChoices.count + columns - 1) / columns
            let r = box(&c, title: "React", width: columns * 4 + 4, height: rows + 4)
            for (i, e) in AppReducer.emojiChoices.enumerated() {
                c.put(" \(e) ", x: r.x + 2 + (i % columns) * 4, y: r.y + 2 + i / columns, Style(.text, reverse: i == selection))
            }
        case .newSession(let f):
            let height = min(c.height - 4, 8 + max(1, state.contacts.count))
            let r = box(&c, title: "New session", width: min(64, c.width - 4), height: height)
            c.put("Name", x: r.x + 2, y: r.y + 2, Style(f.focus == 0 ? .accent : .dim))
            AppView.drawField(&c, f.name, x: r.x + 8, y: r.y + 2, width: r.width - 10, focused: f.focus == 0, placeholder: "required")
            c.put(state.contacts.isEmpty ? "No contacts yet: a solo session (add contacts with `linkstr contacts add`)." : "Members (Space toggles)",
                  x: r.x + 2, y: r.y + 4, Style(.dim), limit: r.width - 4)
            for (i, contact) in state.contacts.enumerated() where r.y + 5 + i < r.bottom - 2 {
                let mark = f.selected.contains(contact.pubkey) ? "[x]" : "[ ]"
                c.put("\(mark) \(AppView.name(contact.pubkey, state))", x: r.x + 4, y: r.y + 5 + i,
                      Style(.text, reverse: f.focus == 1 && i == f.cursor), limit: r.width - 6)
            }
            footer(&c, r, f.busy ? "creating… waiting for relays" : f.error ?? "Enter create · Tab members · Esc cancel", error: f.error != nil && !f.busy)
        case .members(let f):
            let candidates = AppReducer.memberCandidates(state, f)
            let r = box(&c, title: f.editable ? "Members (you created this session)" : "Members",
                        width: min(64, c.width - 4), height: min(c.height - 4, candidates.count + 5))
            for (i, pk) in candidates.enumerated() where r.y + 2 + i < r.bottom - 2 {
                let mark = f.selected.contains(pk) ? "[x]" : "[ ]"
                c.put("\(f.editable ? mark + " " : "")\(AppView.name(pk, state))", x: r.x + 2, y: r.y + 2 + i,
                      Style(.text, reverse: i == f.cursor), limit: r.width - 4)
            }
            footer(&c, r, f.busy ? "saving… waiting for relays" : f.error ?? (f.editable ? "Space toggle · Enter save · Esc cancel" : "only the creator can change members · Esc"),
                   error: f.error != nil && !f.busy)
        }
    }

    static func footer(_ c: inout Canvas, _ r: Rect, _ text: String, error: Bool) {
        c.put(DisplayWidth.truncate(DisplayText.singleLine(text), to: r.width - 4), x: r.x + 2, y: r.bottom - 2, Style(error ? .error : .dim))
    }

    static let helpLines = [
        "Panes     1 Sessions  2 Post  3 You  4 Settings · Tab / Shift-Tab",
        "Move      ↑↓ or j k · g G top/bottom · PgUp PgDn · mouse wheel",
        "Open      Enter · Esc back · q quit (or back)",
        "Sessions  n new · / search · a archive · A archived list · m members",
        "Share     c compose · Enter link→note→send · ^V paste · ^L clear",
        "Post      1 👍 2 👎 3 👀 · e emoji · o open · y copy · Y linkstr:// · d delete",
        "You       e name · y copy npub · Enter switch identity",
        "Settings  a add · x remove · Space on/off · R reset · s stats",
        "          C clear cache · S secret key · L log out · X log out+clear · D delete account",
        "Command   :  /post URL note · /react 👍 · /who · /open · /copy · /help",
        "Paste     your terminal's paste works in every field (bracketed paste)",
    ]

    static func help(_ c: inout Canvas) {
        let r = box(&c, title: "Keys", width: min(84, c.width - 2), height: min(c.height - 2, helpLines.count + 4))
        for (i, line) in helpLines.enumerated() where r.y + 2 + i < r.bottom - 1 {
            c.put(line, x: r.x + 2, y: r.y + 2 + i, Style(.text), limit: r.width - 4)
        }
    }

    @discardableResult
    static func box(_ c: inout Canvas, title: String, width: Int, height: Int) -> Rect {
        let w = max(10, min(width, c.width)), h = max(3, min(height, c.height))
        let r = Rect(x: (c.width - w) / 2, y: max(1, (c.height - h) / 2), width: w, height: h)
        for y in r.y..<min(r.bottom, c.height) { c.fill(y: y, from: r.x, to: r.x + w, Style(.text)) }
        c.put("┌" + String(repeating: "─", count: w - 2) + "┐", x: r.x, y: r.y, Style(.border))
        for y in (r.y + 1)..<min(r.bottom - 1, c.height) {
            c.put("│", x: r.x, y: y, Style(.border))
            c.put("│", x: r.x + w - 1, y: y, Style(.border))
        }
        if r.bottom - 1 < c.height { c.put("└" + String(repeating: "─", count: w - 2) + "┘", x: r.x, y: r.bottom - 1, Style(.border)) }
        c.put(" \(title) ", x: r.x + 2, y: r.y, Style(.title, bold: true))
        return r
    }
}
