import Foundation
import LinkstrApp
import LinkstrDomain
import NostrProtocol

/// Renders the whole screen from state. Every remote string passes through `DisplayText` first.
public enum AppView {
    public static func render(_ state: AppState) -> Canvas {
        var c = Canvas(width: state.screen.columns, height: state.screen.rows)
        switch state.phase {
        case .booting(let step): BootViews.boot(&c, step)
        case .recovery(let error): BootViews.recovery(&c, error)
        case .unlock(let u): BootViews.unlock(&c, u)
        case .onboarding(let o): BootViews.onboarding(&c, o, state)
        case .main:
            tabBar(&c, state)
            let area = Rect(x: 0, y: Layout.paneTop, width: c.width, height: Layout.paneHeight(screenRows: c.height))
            switch state.pane {
            case .sessions: SessionsView.render(&c, state, area)
            case .post: PostViews.render(&c, state, area)
            case .you: YouView.render(&c, state, area)
            case .settings: SettingsView.render(&c, state, area)
            }
            statusLine(&c, state)
            hints(&c, state)
            if let overlay = state.overlay { OverlayViews.render(&c, state, overlay) }
        }
        return c
    }

    static func tabBar(_ c: inout Canvas, _ state: AppState) {
        c.fill(y: 0, Style(.statusBar))
        for tab in Layout.tabs {
            let active = tab.pane == state.pane
            c.put(tab.label, x: tab.x, y: 0, active ? Style(.tabActive, bold: true, reverse: true) : Style(.tabInactive))
        }
        // Unread somewhere in the active list: a dot on the tab from every pane (`u` goes there).
        // On the Sessions tab's trailing space.
        let sessionsTab = Layout.tabs[0], x = Layout.tabs.last.map { $0.x + $0.width } ?? 1
        if !state.sessions.unreadActive.isEmpty { c.put("●", x: sessionsTab.x + sessionsTab.width - 1, y: 0, Style(.unread, bold: true)) }
        // Relay health at a glance: a dot per relay, then connected_or_readonly / total.
        let relays = state.settings.relays
        let summary = " \(state.settings.header) "
        var rx = c.width - summary.count - relays.count - 1
        if rx > x + 1 {
            // What waits to be sent, left of the dots: only when there is room for it.
            let queue = queueCount(state.sendQueue.counts)
            if !queue.text.isEmpty, rx - DisplayWidth.of(queue.text) - 1 > x + 1 {
                c.put(queue.text, x: rx - DisplayWidth.of(queue.text) - 1, y: 0, Style(queue.failed ? .error : .warning, bold: true))
            }
            for r in relays { c.put("●", x: rx, y: 0, Style(dotRole(r.health))); rx += 1 }
            c.put(summary, x: rx, y: 0, Style(.dim))
        }
    }

    /// The tab bar's word on the send queue: "⧗ 2 waiting to send", "✗ 1 not sent".
    static func queueCount(_ counts: SendQueuePolicy.Counts) -> (text: String, failed: Bool) {
        var parts = [String]()
        if counts.waiting > 0 { parts.append("⧗ \(counts.waiting) waiting to send") }
        if counts.failed > 0 { parts.append("✗ \(counts.failed) not sent") }
        return (parts.joined(separator: " · "), counts.failed > 0)
    }

    /// A post's send mark, in words.
    static func sendMark(_ mark: PostSendMark) -> String {
        (mark.state.isFailed ? "✗ " : "⧗ ") + AppReducer.sendMarkWords(mark)
    }

    static func statusLine(_ c: inout Canvas, _ state: AppState) {
        let y = c.height - 2
        guard y > 1 else { return }
        if case .commandLine(let field)? = state.overlay {
            if !state.completions.isEmpty, y > 2 {
                c.fill(y: y - 1, Style(.statusBar))
                let shown = state.completions.map(DisplayText.singleLine).joined(separator: "  ")
                c.put(DisplayWidth.elide(shown, to: c.width - 2), x: 1, y: y - 1, Style(.dim))
            }
            c.fill(y: y, Style(.text))
            let x = c.put(":", x: 0, y: y, Style(.accent, bold: true))
            drawField(&c, field, x: x, y: y, width: c.width - x - 1, focused: true)
            return
        }
        guard let status = state.status else { return }
        let role: Role
        switch status.kind {
        case .error: role = .error
        case .warning: role = .warning
        case .success: role = .success
        case .info: role = .dim
        }
        // Longer than the line: cut, saying where the whole of it is.
        let text = DisplayText.singleLine(status.text), hint = " (… :messages)"
        var shown = text
        if DisplayWidth.of(text) > c.width - 2 {
            // At a whole word, as `elide` cuts, its " …" giving way to the hint.
            let cut = DisplayWidth.elide(text, to: max(0, c.width - 2 - DisplayWidth.of(hint) + 2))
            shown = (cut.hasSuffix(" …") ? String(cut.dropLast(2)) : String(cut.dropLast())) + hint
        }
        c.put(shown, x: 1, y: y, Style(role))
    }

    static func hints(_ c: inout Canvas, _ state: AppState) {
        let y = c.height - 1
        guard y > 2 else { return }
        c.fill(y: y, Style(.statusBar))
        c.put(fittedHints(HintLine(text: hintText(state), width: c.width - 2)), x: 1, y: y, Style(.dim))
    }

    /// The hint bar's text fitted to the screen: the same few lines again on nearly every frame.
    struct HintLine: Hashable, Sendable { var text: String, width: Int }
    static let fittedHints = BoundedMemo<HintLine, String>(capacity: 256) { DisplayWidth.fitItems($0.text, to: $0.width) }

    /// The hint bar: the keys most used where the user is, named as the keymap in force binds them.
    static func hintText(_ state: AppState) -> String {
        if state.overlay != nil { return "Esc close" }
        func k(_ context: KeyContext, _ action: String) -> String {
            guard let b = Keymap.bindings.first(where: { $0.context == context && $0.action == action }) else { return "?" }
            return state.keymap.keys(b).first?.name ?? "?"
        }
        let help = k(.global, "help") + " help"
        switch state.pane {
        case .sessions:
            if let feed = state.sessions.open {
                if feed.searchField != nil { return "type to search this session · Enter search · Esc cancel" }
                if feed.hints != nil { return "press a link's label · Esc cancel" }
                return "Enter open · \(k(.feed, "compose")) share a link · \(k(.feed, "search")) search · \(k(.feed, "hint_open")) links · "
                    + "\(k(.feed, "mark_read")) all read · \(k(.feed, "members")) members · Esc back · \(help)"
            }
            if state.sessions.search != nil { return "type to filter · Enter open (no match: search posts) · Esc cancel" }
            if state.sessions.list == .requests { return "\(k(.list, "accept")) accept · \(k(.list, "decline")) decline/undo · Enter look · R Esc back · \(help)" }
            return "Enter open · \(k(.list, "new_session")) new · \(k(.global, "next_unread")) next unread · \(k(.list, "filter")) filter · "
                + "\(k(.list, "archive")) archive · \(k(.list, "archived")) archived · \(k(.list, "requests")) requests · \(help) · \(k(.global, "quit")) quit"
        case .post:
            switch state.post.mode {
            case .composer: return "Enter next/send · Tab field · ^O editor · ^V paste · ^L clear link · Esc keep draft"
            case .detail:
                return "+ 👍 - 👎 * 👀 · \(k(.post, "emoji")) emoji · \(k(.post, "open")) open · \(k(.post, "copy_link")) copy · "
                    + "\(k(.post, "copy_deep_link")) copy linkstr:// · \(k(.post, "delete")) delete · Esc back"
            case .empty: return "c share a link in the selected session · 1-4 panes · \(help)"
            }
        case .you:
            return state.you.editingName != nil ? "Enter save · Esc cancel"
                : "\(k(.you, "edit_name")) edit name · \(k(.you, "copy_npub")) copy npub · \(k(.you, "add_contact")) add contact · "
                    + "\(k(.you, "rename")) rename · \(k(.you, "remove")) remove · \(help)"
        case .settings:
            if state.settings.adding != nil { return "Enter add · Esc cancel" }
            return "\(k(.settings, "add_relay")) add · \(k(.settings, "remove_relay")) remove · \(k(.settings, "toggle_relay")) on/off · "
                + "\(k(.settings, "test_relay")) test · \(k(.settings, "default_relays")) reset · \(k(.settings, "stats")) stats · "
                + "\(k(.settings, "clear_cache")) clear cache · \(k(.settings, "show_secret")) secret key · "
                + "\(k(.settings, "log_out"))/\(k(.settings, "log_out_clear")) log out · \(k(.settings, "delete_account")) delete"
        }
    }

    public static func dotRole(_ h: RelayRow.Health) -> Role {
        switch h {
        case .connecting: return .dotConnecting
        case .connected: return .dotConnected
        case .readOnly: return .dotReadOnly
        case .failed: return .dotFailed
        case .disabled: return .dotDisabled
        }
    }

    /// A text field: the visible tail around the cursor, the cursor cell reversed when focused.
    static func drawField(_ c: inout Canvas, _ field: TextField, x: Int, y: Int, width: Int, focused: Bool, mask: Bool = false,
                          placeholder: String = "") {
        guard width > 2 else { return }
        c.fill(y: y, from: x, to: x + width, Style(.text, underline: true))
        if field.isEmpty {
            if focused { c.put(" ", x: x, y: y, Style(.text, reverse: true)) }
            c.put(placeholder, x: focused ? x + 1 : x, y: y, Style(.dim), limit: focused ? width - 1 : width)
            return
        }
        // Only the characters around the cursor are looked at: a field may hold a megabyte.
        let window = fieldWindow(field, width: width - 1, mask: mask)
        var cx = x
        for (i, piece) in window.pieces.enumerated() {
            let isCursor = focused && i == window.cursor
            c.put(piece.text, x: cx, y: y, Style(.text, reverse: isCursor, underline: !isCursor))
            cx += piece.width
        }
        if focused && window.cursor == window.pieces.count { c.put(" ", x: cx, y: y, Style(.text, reverse: true)) }
    }

    /// The characters of `field` that fit in `width` columns with the cursor visible (the cursor at the
    /// right edge when the text before it is wider), each made safe to draw (controls dropped, or masked).
    static func fieldWindow(_ field: TextField, width: Int, mask: Bool) -> (pieces: [(text: String, width: Int)], cursor: Int) {
        func piece(_ ch: Character) -> (text: String, width: Int)? {
            if mask { return ("•", 1) }
            // A note's line break, shown where it is (the note keeps its paragraphs).
            if ch == "\n" || ch == "\r\n" { return ("⏎", 1) }
            let safe = DisplayText.singleLine(String(ch))
            guard !safe.isEmpty else { return ch.isWhitespace ? (" ", 1) : nil }
            return (safe, max(1, DisplayWidth.of(safe)))
        }
        let text = field.text
        let cursor = field.cursorIndex
        var before: [(text: String, width: Int)] = []
        var used = 1  // the cursor's own cell
        var i = cursor
        while i > text.startIndex {
            let j = text.index(before: i)
            if let p = piece(text[j]) {
                if used + p.width > width { break }
                used += p.width
                before.append(p)
            }
            i = j
        }
        before.reverse()
        var pieces = before
        var j = cursor
        used -= 1
        while j < text.endIndex {
            if let p = piece(text[j]) {
                if used + p.width > width { break }
                used += p.width
                pieces.append(p)
            }
            j = text.index(after: j)
        }
        return (pieces, before.count)
    }

    /// A small avatar: two cells coloured from a hash of `seed`, with the name's initial.
    static func avatar(_ c: inout Canvas, seed: String, name: String, x: Int, y: Int) {
        let h = SHA256.hash(seed).bytes
        let initial = DisplayText.singleLine(name).first.map { String($0).uppercased() } ?? "?"
        let letter = DisplayWidth.of(initial) == 1 ? initial : "?"
        c.put(" \(letter)", x: x, y: y, Style(Role.avatar(Int(h[0])), bold: true, reverse: true))
    }

    /// "now", "5m", "3h", "2d", or the date.
    public static func relative(_ t: Int64, now: Int64) -> String {
        let d = max(0, now - t)
        if t == 0 { return "" }
        if d < 60 { return "now" }
        if d < 3600 { return "\(d / 60)m" }
        if d < 86_400 { return "\(d / 3600)h" }
        if d < 7 * 86_400 { return "\(d / 86_400)d" }
        return calendarDate(t)
    }

    /// What a post dated far ahead of its arrival says under its link (`PostPlacement`).
    public static func datedAhead(_ claimed: Int64) -> String {
        "⚠ dated \(calendarDate(claimed)) by its sender's clock: placed when it arrived"
    }

    /// `yyyy-MM-dd` in local time. localtime_r, not a DateFormatter: a feed draws dozens of these per
    /// frame, and building a formatter costs about 100 µs each.
    static func calendarDate(_ t: Int64) -> String {
        var seconds = time_t(t), parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        func padded(_ n: Int32, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
    }

    static func name(_ pk: Pubkey, _ state: AppState) -> String { state.displayName(pk) }

    /// A link's host for a list row, remembered: the rows on screen are drawn again on every key.
    static func host(of url: String) -> String? { hosts(url) }
    private static let hosts = BoundedMemo<String, String?>(capacity: 4096) { WebURL.host(of: $0) }

    /// An npub in full where `width` has room, else its start and end (enough to compare by eye).
    static func npub(_ npub: String, width: Int) -> String {
        DisplayWidth.of(npub) <= width ? npub : String(npub.prefix(10)) + "…" + String(npub.suffix(6))
    }

    /// Reaction summary as on iOS cards: count hidden when 1, badge capped at "10+".
    public static func reactionSummary(_ reactions: [ReactionSummary]) -> String {
        reactions.prefix(10).map { r in
            let e = DisplayText.singleLine(r.emoji)
            return r.count <= 1 ? e : "\(e)\(r.count > 10 ? "10+" : String(r.count))"
        }.joined(separator: " ") + (reactions.count > 10 ? " …" : "")
    }
}

public struct Rect: Equatable, Sendable {
    public var x, y, width, height: Int
    public var bottom: Int { y + height }
}
