import LinkstrApp
import LinkstrDomain

/// The chat list and an open session's feed.
enum SessionsView {
    static func render(_ c: inout Canvas, _ state: AppState, _ area: Rect) {
        if let feed = state.sessions.open { return FeedView.render(&c, state, feed, area) }
        let s = state.sessions
        let title: String
        switch s.list {
        case .active: title = "Sessions"
        case .archived: title = "Archived sessions"
        case .requests: title = "Session requests"
        }
        var x = c.put(" \(title)", x: 0, y: area.y, Style(.title, bold: true))
        if s.hasArchived && s.list == .active {
            // An archived session with new posts says so here, where the toggle is.
            x = s.archivedUnread > 0 ? c.put("  (A: archived, \(s.archivedUnread) with new posts)", x: x, y: area.y, Style(.accent))
                                     : c.put("  (A: archived)", x: x, y: area.y, Style(.dim))
        }
        // Requests wait quietly: a count here, never a dot or a bell.
        if s.requestCount > 0 && s.list != .requests {
            x = c.put("  (R: \(s.requestCount) request\(s.requestCount == 1 ? "" : "s"))", x: x, y: area.y, Style(.accent))
        }
        if let search = s.search {
            let label = c.put("   / ", x: x, y: area.y, Style(.accent))
            AppView.drawField(&c, search, x: label, y: area.y, width: min(30, c.width - label - 1), focused: true, placeholder: "search")
        }
        let rows = s.visibleRows
        let top = area.y + 1
        let capacity = Layout.sessionCapacity(screenRows: c.height)  // the reducer scrolls with the same figure
        if rows.isEmpty, s.list == .active, s.search == nil, !s.loading, s.requestCount > 0 {
            // A first session from someone not yet a contact looked like an empty app.
            let names = s.requestSenders.prefix(3).map { DisplayText.singleLine(state.displayName($0)) }.joined(separator: ", ")
                + (s.requestSenders.count > 3 ? ", …" : "")
            let lines = ["no sessions of yours yet, but \(s.requestCount) session request\(s.requestCount == 1 ? " waits" : "s wait")"
                         + (names.isEmpty ? "." : ": from \(names)."),
                         "sessions from people who are not your contacts wait until you accept them.",
                         "press R to see \(s.requestCount == 1 ? "it" : "them") (y accepts, x declines), or n to start your own."]
            for (i, line) in lines.enumerated() {
                c.put("  " + line, x: 0, y: top + 1 + i, Style(i == 0 ? .text : .dim), limit: c.width - 1)
            }
            return
        }
        if rows.isEmpty {
            let message = s.loading ? "loading…" : s.search != nil ? "no session matches."
                : s.list == .archived ? "no archived sessions."
                : s.list == .requests ? "no session requests. sessions from people who are not your contacts wait here."
                : "no sessions yet. press n to start one."
            c.put("  " + message, x: 0, y: top + 1, Style(.dim))
            return
        }
        let scroll = visibleScroll(selection: s.selection, scroll: s.scroll, capacity: capacity, count: rows.count)
        for (i, row) in rows.enumerated().dropFirst(scroll).prefix(capacity) {
            let y = top + (i - scroll) * Layout.sessionRowHeight
            let selected = i == s.selection
            if selected { c.fill(y: y, Style(.selection, reverse: true)); c.fill(y: y + 1, Style(.selection, reverse: true)) }
            let base = Style(row.standing == .declined ? .dim : .text, bold: row.showsUnread, reverse: selected)
            AppView.avatar(&c, seed: row.id, name: row.name, x: 1, y: y)
            let time = AppView.relative(row.lastActivityAt, now: state.now)
            let right = c.width - 2 - DisplayWidth.of(time)
            c.put(DisplayWidth.truncate(DisplayText.singleLine(row.name), to: max(4, right - 6)), x: 5, y: y, base)
            c.put(time, x: right, y: y, Style(.dim, reverse: selected))
            // What happened last: who shared what (the page's title, else the link's host), like a chat list.
            var detail: String
            if row.standing != .listed {
                // A request says who asked, and nothing fetched from its links.
                detail = "from " + AppView.name(row.creator, state) + (state.nip05[row.creator].map { " " + $0.text } ?? "")
                    + " · \(row.members.count) member\(row.members.count == 1 ? "" : "s")"
                if row.standing == .declined { detail += " · declined" }
            } else if let last = row.lastPost {
                let what = state.linkTitles[last.url].map(DisplayText.singleLine) ?? AppView.host(of: last.url) ?? DisplayText.singleLine(last.url)
                detail = AppView.name(last.author, state) + ": " + what
            } else {
                detail = "\(row.members.count) member\(row.members.count == 1 ? "" : "s")"
            }
            if !row.isMember { detail += " · read-only" }
            if row.archived { detail += " · archived" }
            if state.muted.contains(row.id) { detail += " · muted" }
            // Something written and not sent waits here (nothing in the list said so).
            if let draft = state.drafts[row.id], !draft.isEmpty { detail = "✎ draft · " + detail }
            // Something done and not sent yet.
            if state.sendQueue.sessions.contains(row.id) { detail = "⧗ unsent · " + detail }
            // The unread dot, with how many (99+ beyond).
            let count = row.showsUnread && row.unreadCount > 0 ? (row.unreadCount > 99 ? "99+" : "\(row.unreadCount)") : ""
            c.put(DisplayWidth.truncate(detail, to: c.width - 10 - (count.isEmpty ? 0 : count.count + 1)), x: 5, y: y + 1, Style(.dim, reverse: selected))
            if row.showsUnread {
                c.put("●", x: c.width - 3, y: y + 1, Style(.unread, bold: true, reverse: selected))
                if !count.isEmpty { c.put(count, x: c.width - 4 - count.count, y: y + 1, Style(.unread, bold: true, reverse: selected)) }
            }
        }
        if rows.count > capacity {
            c.put("\(s.selection + 1)/\(rows.count)", x: c.width - 2 - "\(s.selection + 1)/\(rows.count)".count, y: area.y, Style(.dim))
        }
    }

    /// The first row to show so that `selection` stays on screen.
    static func visibleScroll(selection: Int, scroll: Int, capacity: Int, count: Int) -> Int {
        Layout.visibleScroll(selection: selection, scroll: scroll, capacity: capacity, count: count)
    }
}

/// A session's posts, newest first: grouped by sender, note callouts, labels, reactions, membership separators.
enum FeedView {
    struct Line {
        var text: String
        var style: Style
        var x = 2
        var post: Int?
        var dot = false
        /// The post's link, on the line that shows it (a hyperlink, and where its hint goes).
        var url: String?
        /// The post's thumbnail, boxed at column 4 from this line down, beside the post's lines.
        var image: (thumbnail: Thumbnail, columns: Int, rows: Int)?
    }

    static func lines(_ state: AppState, _ feed: SessionFeed, width: Int) -> [Line] {
        var out = [Line]()
        let listed = (feed.summary?.standing ?? .listed) == .listed
        var changes = feed.membershipChanges.sorted { $0.at > $1.at }
        var previousAuthor: String?
        func separators(newerThan t: Int64) {
            while let ch = changes.first, ch.at > t {
                changes.removeFirst()
                let names = { (keys: [String]) in keys.map { AppView.name($0, state) }.joined(separator: ", ") }
                var label = ""
                if !ch.joined.isEmpty { label += "in: " + names(ch.joined) }
                if !ch.left.isEmpty { label += (label.isEmpty ? "" : "  ") + "out: " + names(ch.left) }
                let text = "── \(label) ──"
                out.append(Line(text: text, style: Style(.dim), x: max(2, (width - DisplayWidth.of(text)) / 2)))
                previousAuthor = nil
            }
        }
        // The read marker: below the oldest unread post, when read posts follow it.
        let markerBefore = feed.posts.lastIndex(where: \.unread).map { $0 + 1 }
        for (i, view) in feed.posts.enumerated() {
            separators(newerThan: view.post.createdAt)
            if i == markerBefore {
                let text = "── new above · read below ──"
                out.append(Line(text: "", style: .text))
                out.append(Line(text: text, style: Style(.unread), x: max(2, (width - DisplayWidth.of(text)) / 2)))
                previousAuthor = nil
            }
            let p = view.post
            if p.author != previousAuthor {
                out.append(Line(text: "", style: .text))
                out.append(Line(text: AppView.name(p.author, state) + "  " + AppView.relative(p.createdAt, now: state.now),
                                style: Style(.accent, bold: true), x: 2, post: i))
                previousAuthor = p.author
            }
            let label = URLClassifier.classify(p.url).label
            // With a thumbnail, the post's lines move right of its box, and the post is at least as tall.
            let thumbnail = ThumbnailBox.thumbnail(state, p.url, listed: listed)
            let box = thumbnail.map(ThumbnailBox.feed)
            let indent = box.map { $0.columns + 1 } ?? 0
            let first = out.count
            out.append(Line(text: "[\(label)] " + DisplayText.singleLine(p.url), style: Style(.link), x: 4 + indent, post: i, dot: view.unread, url: p.url))
            // The page's own title (link preview), when fetched; cleaned when it was parsed, cleaned again here.
            if let title = state.linkTitles[p.url] {
                out.append(Line(text: DisplayText.singleLine(title), style: Style(.text, bold: true), x: 6 + indent, post: i))
            }
            if let note = p.note, !note.isEmpty {
                out.append(Line(text: "▌ " + DisplayText.singleLine(note), style: Style(.note), x: 4 + indent, post: i))
            }
            if let claimed = p.datedAhead {
                out.append(Line(text: AppView.datedAhead(claimed), style: Style(.dim), x: 4 + indent, post: i))
            }
            if !view.reactions.isEmpty {
                out.append(Line(text: AppView.reactionSummary(view.reactions), style: Style(.text), x: 6 + indent, post: i))
            }
            // Not sent yet, or refused for good: said under the post until it goes.
            if let mark = state.sendQueue.posts[p.id] {
                out.append(Line(text: AppView.sendMark(mark), style: Style(mark.state.isFailed ? .error : .warning), x: 6 + indent, post: i))
            }
            if let thumbnail, let box {
                while out.count - first < box.rows { out.append(Line(text: "", style: .text, x: 4 + indent, post: i)) }
                out[first].image = (thumbnail, box.columns, box.rows)
            }
        }
        separators(newerThan: Int64.min)
        return out
    }

    /// The last feed's lines: scrolling changes only the selection, so a key press reuses them instead of
    /// classifying, sanitising and measuring every post again. Only the UI thread renders.
    enum LinesCache {
        struct Key: Equatable {
            var posts: [PostView]
            var changes: [MembershipChange]
            var width: Int
            var now: Int64
            var me: String?
            var contacts: [Contact]
            var profileNames: [Pubkey: String]
            var linkTitlesVersion: Int
            var thumbnailsVersion: Int
            var showsImages: Bool
            var standing: SessionStanding?
            var sendMarks: [String: PostSendMark]
        }
        nonisolated(unsafe) private static var last: (key: Key, lines: [Line])?

        static func lines(_ state: AppState, _ feed: SessionFeed, width: Int) -> [Line] {
            let key = Key(posts: feed.posts, changes: feed.membershipChanges, width: width, now: state.now,
                          me: state.identity?.pubkey, contacts: state.contacts, profileNames: state.profileNames,
                          linkTitlesVersion: state.linkTitlesVersion, thumbnailsVersion: state.thumbnailsVersion,
                          showsImages: state.showsImages, standing: feed.summary?.standing, sendMarks: state.sendQueue.posts)
            if let last, last.key == key { return last.lines }  // unchanged arrays compare by buffer identity
            let fresh = FeedView.lines(state, feed, width: width)
            last = (key, fresh)
            return fresh
        }
    }

    static func render(_ c: inout Canvas, _ state: AppState, _ feed: SessionFeed, _ area: Rect) {
        let name = DisplayText.singleLine(feed.summary?.name ?? "session")
        var x = c.put(" ‹ ", x: 0, y: area.y, Style(.dim))
        x = c.put(DisplayWidth.truncate(name, to: c.width / 2), x: x, y: area.y, Style(.title, bold: true))
        if let s = feed.summary {
            x = c.put("  \(s.members.count) member\(s.members.count == 1 ? "" : "s")", x: x, y: area.y, Style(.dim))
            if !s.isMember { x = c.put("  · you were removed: read-only", x: x, y: area.y, Style(.warning)) }
            if state.muted.contains(s.id) { x = c.put("  · muted", x: x, y: area.y, Style(.dim)) }
            if feed.newAbove > 0 { x = c.put("  ↑ \(feed.newAbove) new (g)", x: x, y: area.y, Style(.unread, bold: true)) }
            if s.standing != .listed {
                c.put(DisplayWidth.truncate("  · \(s.standing == .declined ? "declined" : "request"): y accept · x decline", to: max(0, c.width - x - 1)),
                      x: x, y: area.y, Style(.accent))
            }
        }
        // The search in this feed: its prompt while typed, else where its hits stand.
        if let field = feed.searchField {
            let at = max(0, min(x + 2, c.width - 34))
            let label = c.put(" / ", x: at, y: area.y, Style(.accent, bold: true))
            AppView.drawField(&c, field, x: label, y: area.y, width: max(4, min(40, c.width - label - 1)), focused: true, placeholder: "search this session")
        } else if let search = state.postSearch, search.sessionID == nil || search.sessionID == feed.sessionID {
            let query = DisplayText.singleLine(search.query)
            let text = search.searching ? " /\(query) … " : " /\(query)  \(search.position)  n·N "
            let shown = DisplayWidth.elide(text, to: max(8, min(44, c.width / 2)))
            c.put(shown, x: max(x + 1, c.width - 1 - DisplayWidth.of(shown)), y: area.y, Style(.accent, reverse: true))
        }
        let dots = feed.summary?.standing ?? .listed == .listed
        let top = area.y + 1
        // Posts held for want of membership are said on the feed's last row, never hidden.
        var bottom = area.bottom
        if let held = HeldReason.summary(feed.held.map(\.reason)), bottom - top > 2 {
            bottom -= 1
            c.put("  \(held) · :held to see them", x: 0, y: bottom, Style(.warning), limit: c.width - 1)
        }
        let height = bottom - top
        let all = LinesCache.lines(state, feed, width: c.width)
        if all.isEmpty {
            c.put(feed.loading ? "  loading…" : "  no posts yet. press c to share a link.", x: 0, y: top + 1, Style(.dim))
            return
        }
        // From the first post shown (the reducer's, with the blank line over its sender), keeping the
        // selected post's lines in view.
        let firstSelected = all.firstIndex { $0.post == feed.selection } ?? 0
        let lastSelected = all.lastIndex { $0.post == feed.selection } ?? 0
        var start = 0
        if feed.scroll > 0, let first = all.firstIndex(where: { $0.post == feed.scroll }) {
            start = first > 0 && all[first - 1].post == nil && all[first - 1].text.isEmpty ? first - 1 : first
        }
        if lastSelected >= start + height { start = lastSelected - height + 1 }
        if firstSelected < start { start = max(0, firstSelected - 1) }
        let hints = feed.hints.map { _ in Dictionary(LinkHints.labelled(selection: feed.selection, count: feed.posts.count).map { ($0.post, $0.label) },
                                                     uniquingKeysWith: { a, _ in a }) } ?? [:]
        for (row, line) in all.dropFirst(start).prefix(height).enumerated() {
            let y = top + row
            let selected = line.post == feed.selection && line.post != nil
            if selected { c.put("▎", x: 1, y: y, Style(.accent, bold: true)) }
            let end = c.put(DisplayWidth.truncate(line.text, to: c.width - line.x - 3), x: line.x, y: y,
                            Style(line.style.role, bold: line.style.bold || (selected && line.dot && dots), reverse: false))
            if let url = line.url {
                c.link(url, x: line.x, y: y, to: end)
                if let post = line.post, let label = hints[post] { c.put(String(label), x: 2, y: y, Style(.accent, bold: true, reverse: true)) }
            }
            if line.dot && dots { c.put("●", x: c.width - 2, y: y, Style(.unread, bold: true)) }
            // A box only when all of it is in view: a picture is never cut at the pane's edge.
            if let image = line.image, row + image.rows <= height { c.image(image.thumbnail, x: 4, y: y, columns: image.columns, rows: image.rows) }
        }
        // Older posts exist beyond the last one loaded: said under it (nothing said so).
        let below = top + min(height, all.count - start)
        if feed.hasMore, start + height >= all.count, below < bottom {
            c.put(feed.loading ? "  loading older posts…" : "  ··· older posts: j or PgDn load them, G goes to the oldest", x: 0, y: below,
                  Style(.dim), limit: c.width - 1)
        }
    }
}
