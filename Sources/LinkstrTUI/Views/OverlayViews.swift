import LinkstrApp
import LinkstrDomain

/// Help, confirmations, the emoji picker and the two forms, drawn as boxes over the pane.
enum OverlayViews {
    static func render(_ c: inout Canvas, _ state: AppState, _ overlay: Overlay) {
        switch overlay {
        case .commandLine: return  // drawn on the status line
        case .help: help(&c, state)
        case .sharedLink(let picker): SharedLinkView.render(&c, state, picker)
        case .confirm(let confirmation):
            let lines = PostViews.wrap(confirmation.question, width: min(60, c.width - 8))
            let typing = confirmation.word != nil
            let r = box(&c, title: typing ? "Your key is not backed up" : "Confirm", width: min(64, c.width - 4), height: lines.count + (typing ? 6 : 4))
            for (i, line) in lines.enumerated() { c.put(line, x: r.x + 2, y: r.y + 2 + i, Style(.warning, bold: true)) }
            if let word = confirmation.word {
                let x = c.put("type \(word): ", x: r.x + 2, y: r.y + 3 + lines.count, Style(.dim))
                c.put(DisplayText.singleLine(confirmation.typed) + "_", x: x, y: r.y + 3 + lines.count, Style(.text, bold: true), limit: r.x + r.width - 2 - x)
            }
        case .emojiPicker(_, let selection, let query):
            let columns = 8
            let choices = AppReducer.emojiMatches(query)
            let rows = max(1, (AppReducer.emojiChoices.count + columns - 1) / columns)
            let r = box(&c, title: "React", width: columns * 4 + 4, height: rows + 6)
            // Every cell is four columns: a space, the emoji (two columns, variation selector included), a space.
            for (i, e) in choices.enumerated() {
                c.put(" \(e) ", x: r.x + 2 + (i % columns) * 4, y: r.y + 2 + i / columns, Style(.text, reverse: i == selection))
            }
            if choices.isEmpty { c.put("no emoji named \(DisplayText.singleLine(query))", x: r.x + 2, y: r.y + 2, Style(.dim), limit: r.width - 4) }
            let search = query.isEmpty ? "type to search (fire, :+1:)" : "search: " + DisplayText.singleLine(query)
            c.put(search, x: r.x + 2, y: r.y + 3 + rows, Style(query.isEmpty ? .dim : .accent), limit: r.width - 4)
            c.put("arrows · Enter react · Esc close", x: r.x + 2, y: r.y + 4 + rows, Style(.dim), limit: r.width - 4)
        case .newSession(let f):
            let height = min(c.height - 2, 8 + max(1, state.contacts.count))
            let r = box(&c, title: "New session", width: min(64, c.width - 4), height: height)
            c.put("Name", x: r.x + 2, y: r.y + 2, Style(f.focus == 0 ? .accent : .dim))
            AppView.drawField(&c, f.name, x: r.x + 8, y: r.y + 2, width: r.width - 10, focused: f.focus == 0, placeholder: "required")
            let guidance = state.contacts.isEmpty ? "No contacts yet: this will be a solo session (add contacts in You, 3)." : "Members (optional, Space toggles)"
            for (i, line) in DisplayWidth.wrap(guidance, to: r.width - 4).prefix(2).enumerated() { c.put(line, x: r.x + 2, y: r.y + 4 + i, Style(.dim)) }
            let capacity = max(1, r.bottom - 2 - (r.y + 5))
            let scroll = SessionsView.visibleScroll(selection: f.cursor, scroll: 0, capacity: capacity, count: state.contacts.count)
            for (i, contact) in state.contacts.enumerated().dropFirst(scroll).prefix(capacity) {
                let mark = f.selected.contains(contact.pubkey) ? "[x]" : "[ ]"
                c.put("\(mark) \(AppView.name(contact.pubkey, state))", x: r.x + 4, y: r.y + 5 + i - scroll,
                      Style(.text, reverse: f.focus == 1 && i == f.cursor), limit: r.width - 6)
            }
            footer(&c, r, f.busy ? "creating… waiting for relays" : f.error ?? "Enter create · Tab members · Esc cancel", error: f.error != nil && !f.busy)
        case .members(let f):
            let candidates = AppReducer.memberCandidates(state, f)
            let r = box(&c, title: f.editable ? "Members (you created this session)" : "Members",
                        width: min(64, c.width - 4), height: min(c.height - 2, candidates.count + 5))
            let capacity = max(1, r.bottom - 2 - (r.y + 2))
            let scroll = SessionsView.visibleScroll(selection: f.cursor, scroll: 0, capacity: capacity, count: candidates.count)
            for (i, pk) in candidates.enumerated().dropFirst(scroll).prefix(capacity) {
                let mark = f.selected.contains(pk) ? "[x]" : "[ ]"
                c.put("\(f.editable ? mark + " " : "")\(AppView.name(pk, state))" + (state.nip05[pk].map { "  " + $0.text } ?? ""), x: r.x + 2, y: r.y + 2 + i - scroll,
                      Style(.text, reverse: i == f.cursor), limit: r.width - 4)
            }
            footer(&c, r, f.busy ? "saving… waiting for relays" : f.error ?? (f.editable ? "Space toggle · Enter save · Esc cancel" : "only the creator can change members · Esc"),
                   error: f.error != nil && !f.busy)
        case .exportBackup(let f):
            exportForm(&c, f)
        case .changePassphrase(let f):
            ChangePassphraseView.render(&c, f)
        case .keyring(let f):
            ChangePassphraseView.keyring(&c, f)
        case .doctor(let report):
            DoctorView.render(&c, state, report)
        case .messages(let scroll):
            MessagesView.render(&c, state, scroll: scroll)
        case .heldPosts(let sid, let scroll):
            if let feed = state.sessions.open, feed.sessionID == sid { HeldPostsView.render(&c, state, feed.held, scroll: scroll) }
        case .searchResults(let selection):
            if let search = state.postSearch { searchResults(&c, state, search, selection: selection) }
        case .contact(let f):
            let r = box(&c, title: f.editing == nil ? "Add contact" : "Rename contact", width: min(72, c.width - 4), height: 10)
            c.put("Key", x: r.x + 2, y: r.y + 2, Style(f.focus == 0 ? .accent : .dim))
            if let pk = f.editing {
                c.put(AccountState.shortNpub(pk), x: r.x + 9, y: r.y + 2, Style(.text))
            } else {
                AppView.drawField(&c, f.key, x: r.x + 9, y: r.y + 2, width: r.width - 11, focused: f.focus == 0, placeholder: "npub1… or hex")
            }
            // The identity preview under the key: what the key resolves to, or why it does not.
            let preview: (String, Role) = {
                guard f.editing == nil else { return ("", .dim) }
                if f.key.text.isEmpty { return ("paste with your terminal (QR scanning is not available here)", .dim) }
                if let pk = f.pubkey { return ("✓ " + AccountState.shortNpub(pk), .success) }
                return ("not a public key yet", .warning)
            }()
            c.put(preview.0, x: r.x + 9, y: r.y + 3, Style(preview.1), limit: r.width - 11)
            c.put("Alias", x: r.x + 2, y: r.y + 5, Style(f.focus == 1 ? .accent : .dim))
            AppView.drawField(&c, f.alias, x: r.x + 9, y: r.y + 5, width: r.width - 11, focused: f.focus == 1, placeholder: "private, never published")
            footer(&c, r, f.busy ? "publishing your follow list…" : f.error ?? "Enter next/save · Tab field · Esc cancel", error: f.error != nil && !f.busy)
        }
    }

    static func exportForm(_ c: inout Canvas, _ f: ExportBackupForm) {
        let r = box(&c, title: "Export a sealed backup", width: min(72, c.width - 4), height: 10)
        c.put("to " + DisplayText.singleLine(f.path), x: r.x + 2, y: r.y + 2, Style(.text), limit: r.width - 4)
        c.put("Passphrase", x: r.x + 2, y: r.y + 4, Style(f.focusConfirm ? .dim : .accent))
        AppView.drawField(&c, f.passphrase, x: r.x + 14, y: r.y + 4, width: r.width - 16, focused: !f.focusConfirm && !f.busy, mask: true)
        c.put("Again", x: r.x + 2, y: r.y + 5, Style(f.focusConfirm ? .accent : .dim))
        AppView.drawField(&c, f.confirm, x: r.x + 14, y: r.y + 5, width: r.width - 16, focused: f.focusConfirm && !f.busy, mask: true)
        footer(&c, r, f.busy ? "sealing (scrypt) and writing…" : f.error ?? "the only way to open it · Enter next/write · Esc cancel",
               error: f.error != nil && !f.busy)
    }

    /// A search across sessions: two rows a hit (where and who, then what matched), newest first.
    static func searchResults(_ c: inout Canvas, _ state: AppState, _ search: PostSearchState, selection: Int) {
        let r = box(&c, title: "Search · \(DisplayWidth.elide(search.query, to: 30)) · \(search.hits.count)\(search.truncated ? "+" : "")",
                    width: min(96, c.width - 2), height: c.height - 2)
        let capacity = max(1, (r.height - 5) / 2)
        let scroll = SessionsView.visibleScroll(selection: selection, scroll: 0, capacity: capacity, count: search.hits.count)
        for (i, hit) in search.hits.enumerated().dropFirst(scroll).prefix(capacity) {
            let y = r.y + 2 + (i - scroll) * 2
            let selected = i == selection
            let session = DisplayText.singleLine(search.sessionNames[hit.sessionID] ?? "session")
            guard i < PostSearchAnswer.previewCount, let view = search.previews.first(where: { $0.id == hit.postID }) else {
                c.put(DisplayWidth.elide(session + " · " + AppView.relative(hit.createdAt, now: state.now) + " · (refine the query to see it)", to: r.width - 4),
                      x: r.x + 2, y: y, Style(.dim, reverse: selected))
                continue
            }
            let head = session + " · " + AppView.name(view.post.author, state) + " · " + AppView.relative(hit.createdAt, now: state.now)
            c.put(DisplayWidth.elide(head, to: r.width - 4), x: r.x + 2, y: y, Style(.accent, bold: true, reverse: selected))
            let what = view.post.note.flatMap { $0.isEmpty ? nil : "▌ " + DisplayText.singleLine($0) }
                ?? state.linkTitles[view.post.url].map(DisplayText.singleLine) ?? DisplayText.singleLine(view.post.url)
            c.put(DisplayWidth.elide(what, to: r.width - 6), x: r.x + 4, y: y + 1, Style(.text, reverse: selected))
        }
        footer(&c, r, "↑↓ move · Enter open · then n/N next/previous · Esc close", error: false)
    }

    static func footer(_ c: inout Canvas, _ r: Rect, _ text: String, error: Bool) {
        c.put(DisplayWidth.truncate(DisplayText.singleLine(text), to: r.width - 4), x: r.x + 2, y: r.bottom - 2, Style(error ? .error : .dim))
    }

    /// Every line of the help for a pane, as the keymap in force binds the keys.
    public static func helpLines(for pane: AppState.Pane, keymap: Keymap = .standard) -> [String] { HelpText.lines(for: pane, keymap: keymap) }

    public static var helpLines: [String] { helpLines(for: .sessions) }

    /// The help box: as many lines as fit, scrolled by `state.helpScroll`, with where it stands in the title.
    static func help(_ c: inout Canvas, _ state: AppState) {
        let lines = helpLines(for: state.pane, keymap: state.keymap)
        let shown = HelpText.visibleLines(screenRows: c.height, total: lines.count)
        let scroll = min(state.helpScroll, HelpText.maxScroll(screenRows: c.height, total: lines.count))
        let more = shown < lines.count ? " · \(scroll + 1)–\(scroll + shown) of \(lines.count), ↑↓ PgUp PgDn" : ""
        let r = box(&c, title: "Keys · \(state.pane.title)\(more)", width: min(84, c.width - 2), height: min(c.height - 2, shown + 4))
        for (i, line) in lines.dropFirst(scroll).prefix(shown).enumerated() where r.y + 2 + i < r.bottom - 1 {
            c.put(line, x: r.x + 2, y: r.y + 2 + i, Style(.text), limit: r.width - 4)
        }
    }

    @discardableResult
    static func box(_ c: inout Canvas, title: String, width: Int, height: Int) -> Rect {
        let w = max(10, min(width, c.width)), h = max(3, min(height, c.height))
        let r = Rect(x: (c.width - w) / 2, y: max(1, (c.height - h) / 2), width: w, height: h)
        c.cover(x: r.x, y: r.y, width: w, height: h)
        for y in stride(from: r.y, to: min(r.bottom, c.height), by: 1) { c.fill(y: y, from: r.x, to: r.x + w, Style(.text)) }
        c.put("┌" + String(repeating: "─", count: w - 2) + "┐", x: r.x, y: r.y, Style(.border))
        for y in stride(from: r.y + 1, to: min(r.bottom - 1, c.height), by: 1) {
            c.put("│", x: r.x, y: y, Style(.border))
            c.put("│", x: r.x + w - 1, y: y, Style(.border))
        }
        if r.bottom - 1 < c.height { c.put("└" + String(repeating: "─", count: w - 2) + "┘", x: r.x, y: r.bottom - 1, Style(.border)) }
        c.put(" \(title) ", x: r.x + 2, y: r.y, Style(.title, bold: true))
        return r
    }
}
