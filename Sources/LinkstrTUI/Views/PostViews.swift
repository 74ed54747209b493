import LinkstrApp
import LinkstrDomain

/// The Post pane: the composer and post detail.
enum PostViews {
    static func render(_ c: inout Canvas, _ state: AppState, _ area: Rect) {
        switch state.post.mode {
        case .empty:
            c.put(" Post", x: 0, y: area.y, Style(.title, bold: true))
            let guidance = "No post open. Open a session (1) and press c to share a link, or Enter on a post."
            for (i, line) in DisplayWidth.wrap(guidance, to: max(10, c.width - 4)).enumerated() { c.put(line, x: 2, y: area.y + 2 + i, Style(.dim)) }
        case .composer(let composer): renderComposer(&c, composer, area)
        case .detail(let d): renderDetail(&c, state, d, area)
        }
    }

    static func renderComposer(_ c: inout Canvas, _ s: ComposerState, _ area: Rect) {
        c.put(" Share a link", x: 0, y: area.y, Style(.title, bold: true))
        var y = area.y + 2
        let fieldX = 10, width = max(10, c.width - fieldX - 2)
        c.put("  Session", x: 0, y: y, Style(.dim))
        c.put(DisplayWidth.truncate(DisplayText.singleLine(s.sessionName), to: width), x: fieldX, y: y, Style(.text, bold: true))
        y += 2
        c.put("  Link", x: 0, y: y, Style(s.focus == .link ? .accent : .dim, bold: s.focus == .link))
        AppView.drawField(&c, s.link, x: fieldX, y: y, width: width, focused: s.focus == .link && !s.sending, placeholder: "https://…")
        y += 1
        // The Paste and Clear helpers sit right under the link field.
        var x = c.put("[ Paste ^V ]", x: fieldX, y: y, Style(.accent))
        x = c.put("  [ Clear ^L ]", x: x, y: y, Style(.accent))
        y += 1
        if let hint = s.playbackHint { c.put(DisplayWidth.truncate(hint, to: width), x: fieldX, y: y, Style(.label)) }
        y += 2
        c.put("  Note", x: 0, y: y, Style(s.focus == .note ? .accent : .dim, bold: s.focus == .note))
        AppView.drawField(&c, s.note, x: fieldX, y: y, width: width, focused: s.focus == .note && !s.sending, placeholder: "optional")
        y += 2
        if s.sending {
            c.put("  sending… waiting for relays to accept it", x: 0, y: y, Style(.warning))
        } else if let error = s.error {
            c.put("  " + DisplayWidth.truncate(DisplayText.singleLine(error), to: c.width - 4), x: 0, y: y, Style(.error, bold: true))
        }
        // Before sending: who it would not reach where they read (linkstr doctor says why and what to do).
        y += 2
        for (i, warning) in s.reachWarnings.enumerated() where y < c.height - 2 {
            if y == c.height - 3, i < s.reachWarnings.count - 1 {
                c.put("  ⚠ … and \(s.reachWarnings.count - i) more (linkstr doctor)", x: 0, y: y, Style(.warning))
                break
            }
            c.put("  ⚠ " + DisplayWidth.truncate(DisplayText.singleLine(warning), to: c.width - 6), x: 0, y: y, Style(.warning))
            y += 1
        }
    }

    static func renderDetail(_ c: inout Canvas, _ state: AppState, _ d: PostDetail, _ area: Rect) {
        var x = c.put(" ‹ ", x: 0, y: area.y, Style(.dim))
        x = c.put(DisplayWidth.truncate(DisplayText.singleLine(d.sessionName), to: c.width / 2), x: x, y: area.y, Style(.title, bold: true))
        guard let view = d.view else {
            c.put("  loading…", x: 0, y: area.y + 2, Style(.dim))
            return
        }
        let p = view.post
        var y = area.y + 2
        let classification = URLClassifier.classify(p.url)
        c.put("  [\(classification.label)]", x: 0, y: y, Style(.label, bold: true))
        c.put(AppView.name(p.author, state) + " · " + AppView.relative(p.createdAt, now: state.now), x: 12, y: y, Style(.accent))
        y += 1
        // Not sent yet, or refused for good, with what can be done about it.
        if let mark = state.sendQueue.posts[p.id] {
            let keys = mark.state == .sending ? "" : "  (r retry now · x cancel)"
            c.put(AppView.sendMark(mark) + keys, x: 2, y: y, Style(mark.state.isFailed ? .error : .warning), limit: c.width - 3)
            y += 1
        }
        if let claimed = p.datedAhead {
            c.put(AppView.datedAhead(claimed), x: 2, y: y, Style(.dim))
            y += 1
        }
        if let title = state.linkTitles[p.url] {
            for line in wrap(DisplayText.singleLine(title), width: c.width - 4).prefix(2) {
                c.put(line, x: 2, y: y, Style(.text, bold: true))
                y += 1
            }
        }
        // The full URL, wrapped, so the terminal can select it.
        let url = DisplayText.singleLine(p.url)
        var rest = Substring(url)
        while !rest.isEmpty, y < area.bottom - 6 {
            let chunk = rest.prefix(max(10, c.width - 4))
            let end = c.put(String(chunk), x: 2, y: y, Style(.link, underline: true))
            c.link(p.url, x: 2, y: y, to: end)
            rest = rest.dropFirst(chunk.count)
            y += 1
        }
        if classification.isPlayable { c.put("  o opens it (mpv or browser)", x: 0, y: y, Style(.dim)); y += 1 }
        let lines = noteLines(p.note ?? "", width: c.width - 6)
        // The large thumbnail, in what is left above the reactions and the note's first lines: on a small
        // screen the note wins, and the picture shrinks (or goes) so that up to `noteRowsKept` of it show.
        let noteKept = lines.isEmpty ? 0 : lines.count > noteRowsKept ? noteRowsKept + 1 : lines.count
        if let thumbnail = ThumbnailBox.thumbnail(state, p.url, listed: d.listed),
           let box = ThumbnailBox.detail(thumbnail, columns: c.width - 4,
                                         rows: area.bottom - y - 5 - min(view.reactions.count, 2) - noteKept) {
            c.image(thumbnail, x: 2, y: y + 1, columns: box.columns, rows: box.rows)
            y += box.rows + 1
        }
        if !lines.isEmpty {
            y += 1
            // Every line of the note, its paragraphs kept; what does not fit scrolls (j/k, PgDn/PgUp), and
            // the last row says how much is left (notes used to be cut at three lines).
            let room = max(2, area.bottom - y - 3 - min(view.reactions.count, 2))
            // A note longer than its room keeps its last row for what is below (or the way back up).
            let scrolls = lines.count > room
            let visible = scrolls ? room - 1 : room
            let scroll = scrolls ? min(d.noteScroll, lines.count - visible) : 0
            for line in lines.dropFirst(scroll).prefix(visible) {
                c.put("  ▌ " + line, x: 0, y: y, Style(.note))
                y += 1
            }
            if scrolls {
                let below = lines.count - scroll - visible
                c.put(below > 0 ? "  ▌ … \(below) more line\(below == 1 ? "" : "s"): j/k or PgDn/PgUp scroll the note" : "  ▌ (k scrolls back up)",
                      x: 0, y: y, Style(.dim), limit: c.width - 1)
                y += 1
            }
        }
        y += 1
        // Reaction chips (mine highlighted), quick keys, then who reacted.
        var cx = 2
        for (i, r) in view.reactions.enumerated() {
            let chip = " \(DisplayText.singleLine(r.emoji)) \(r.count) "
            cx = c.put(chip, x: cx, y: y, Style(r.mine ? .accent : .text, bold: r.mine, reverse: i == d.reactionSelection)) + 1
        }
        c.put("  + 👍  - 👎  * 👀  e more", x: max(cx, 2), y: y, Style(.dim))
        y += 1
        for r in view.reactions where y < area.bottom {
            let names = r.by.map { AppView.name($0, state) }.joined(separator: ", ")
            c.put("    " + DisplayWidth.truncate("\(DisplayText.singleLine(r.emoji)) \(names)", to: c.width - 6), x: 0, y: y, Style(.dim))
            y += 1
        }
        y = DeliveryRows.render(&c, state, d.deliveries, y: y, bottom: area.bottom - (d.busy ? 1 : 0))
        if d.busy { c.put("  working…", x: 0, y: min(y, area.bottom - 1), Style(.warning)) }
    }

    /// The note's rows fewer than which a picture never leaves it (when the note has that many).
    static let noteRowsKept = 4

    /// The note as display rows at `width`: its paragraphs kept, its trailing blank lines dropped (a note
    /// ending in a newline has no empty last row to scroll to).
    static func noteLines(_ note: String, width: Int) -> [String] {
        let text = DisplayText.multiLine(note)
        guard let last = text.lastIndex(where: { !$0.isWhitespace }) else { return [] }
        return text.prefix(through: last).split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { paragraph in paragraph.isEmpty ? [""] : wrap(String(paragraph), width: width) }
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines = [String](), current = ""
        for word in text.split(separator: " ") {
            let w = String(word)
            if DisplayWidth.of(current) + DisplayWidth.of(w) + 1 > width, !current.isEmpty { lines.append(current); current = "" }
            current += (current.isEmpty ? "" : " ") + w
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { DisplayWidth.truncate($0, to: width) }
    }
}
