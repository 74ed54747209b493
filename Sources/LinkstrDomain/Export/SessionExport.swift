import NostrProtocol

/// A session as `linkstr export` writes it out: its posts in time order with who shared them (the names
/// the user sees, "you" for ours), when, the link, the page's title, the note (paragraphs kept) and the
/// reactions with who reacted; deleted posts are not in it. Three forms: Markdown to read and grep, one
/// self-contained HTML file (no script, no remote request, every remote string escaped), and JSON with a
/// versioned schema (`docs/spec/export-json.md`). Pure: the front end reads the store and writes the file.
public struct ExportedSession: Equatable, Sendable {
    public struct Reaction: Equatable, Sendable {
        public var emoji: String
        public var by: [String]
        public init(emoji: String, by: [String]) { self.emoji = emoji; self.by = by }
    }

    public struct Post: Equatable, Sendable {
        public var id: String
        public var author: String
        public var authorPubkey: Pubkey
        public var mine: Bool
        public var createdAt: Int64
        public var url: String
        public var title: String?
        public var note: String?
        public var reactions: [Reaction]
        /// A picture for the HTML form (`--with-thumbnails`): its MIME type and bytes.
        public var thumbnail: (mime: String, bytes: [UInt8])?

        public init(id: String, author: String, authorPubkey: Pubkey, mine: Bool, createdAt: Int64, url: String, title: String?, note: String?,
                    reactions: [Reaction], thumbnail: (mime: String, bytes: [UInt8])? = nil) {
            self.id = id; self.author = author; self.authorPubkey = authorPubkey; self.mine = mine; self.createdAt = createdAt
            self.url = url; self.title = title; self.note = note; self.reactions = reactions; self.thumbnail = thumbnail
        }

        public static func == (a: Post, b: Post) -> Bool {
            a.id == b.id && a.author == b.author && a.authorPubkey == b.authorPubkey && a.mine == b.mine && a.createdAt == b.createdAt
                && a.url == b.url && a.title == b.title && a.note == b.note && a.reactions == b.reactions
                && a.thumbnail?.mime == b.thumbnail?.mime && a.thumbnail?.bytes == b.thumbnail?.bytes
        }
    }

    public var id: String
    public var name: String
    public var members: [String]
    /// Oldest first.
    public var posts: [Post]
    public var exportedAt: Int64
    /// The local time's offset from UTC, in seconds (times are written in local time).
    public var utcOffset: Int

    public init(id: String, name: String, members: [String], posts: [Post], exportedAt: Int64, utcOffset: Int) {
        self.id = id; self.name = name; self.members = members; self.posts = posts; self.exportedAt = exportedAt; self.utcOffset = utcOffset
    }
}

public enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, json
}

public enum SessionExport {
    /// The JSON form's schema and version (`docs/spec/export-json.md`); a change that removes or renames a
    /// field makes a new version.
    public static let schema = "linkstr.session-export"
    public static let version: Int64 = 1

    public static func write(_ s: ExportedSession, as format: ExportFormat) -> String {
        switch format {
        case .md: return markdown(s)
        case .html: return html(s)
        case .json: return json(s)
        }
    }

    // MARK: Markdown

    public static func markdown(_ s: ExportedSession) -> String {
        var out = "# " + md(line(s.name)) + "\n\n"
        out += "Exported from linkstr on \(LocalTime.text(s.exportedAt, offset: s.utcOffset)) · \(s.posts.count) post\(s.posts.count == 1 ? "" : "s")"
        out += " · members: " + s.members.map { md(line($0)) }.joined(separator: ", ") + "\n"
        for p in s.posts {
            out += "\n## " + md(line(p.author)) + " · " + LocalTime.text(p.createdAt, offset: s.utcOffset) + "\n\n"
            if let title = p.title.map(line), !title.isEmpty { out += "**" + md(title) + "**  \n" }
            // An autolink shows the address as it is; `<` and `>` cannot be in a web address we accepted.
            out += "<" + line(p.url).replacingOccurrences(of: ">", with: "%3E").replacingOccurrences(of: "<", with: "%3C") + ">\n"
            if let note = p.note.map(DisplayText.multiLine), !note.isEmpty {
                out += "\n" + note.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + md(String($0)) }.joined(separator: "\n") + "\n"
            }
            if !p.reactions.isEmpty {
                out += "\n" + p.reactions.map { line($0.emoji) + " " + $0.by.map { md(line($0)) }.joined(separator: ", ") }.joined(separator: " · ") + "\n"
            }
        }
        return out
    }

    /// Markdown's specials escaped, so a note or a name is text, never markup (no link, heading, HTML).
    static func md(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for ch in text {
            if "\\`*_{}[]()<>#+-.!|~&".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    // MARK: HTML

    public static func html(_ s: ExportedSession) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="und"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(h(line(s.name)))</title>
        <style>
        body{font:16px/1.5 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;background:#fff;color:#222}
        header p,.meta{color:#666;font-size:.9em}
        article{border-top:1px solid #ddd;padding:.8em 0;overflow-wrap:anywhere}
        .title{font-weight:600}
        blockquote{margin:.5em 0;padding-left:.8em;border-left:3px solid #bbb;white-space:pre-wrap}
        img{float:left;max-width:8em;max-height:6em;margin:0 .8em .4em 0;border-radius:4px}
        a{color:#2a5db0}
        @media (prefers-color-scheme: dark){body{background:#1a1b26;color:#c0caf5}header p,.meta{color:#787c99}
        article{border-color:#2f3549}blockquote{border-color:#565f89}a{color:#7aa2f7}}
        </style></head><body>
        <header><h1>\(h(line(s.name)))</h1>
        <p>Exported from linkstr on \(h(LocalTime.text(s.exportedAt, offset: s.utcOffset))) · <span id="count">\(s.posts.count)</span> post\(s.posts.count == 1 ? "" : "s") · members: \(s.members.map { h(line($0)) }.joined(separator: ", "))</p></header>

        """
        for p in s.posts {
            out += "<article>"
            if let t = p.thumbnail, ["image/png", "image/jpeg", "image/gif", "image/webp"].contains(t.mime) {
                out += "<img alt=\"\" src=\"data:\(t.mime);base64,\(Base64.encode(t.bytes))\">"
            }
            out += "<div class=\"meta\">\(h(line(p.author))) · <time datetime=\"\(LocalTime.iso(p.createdAt, offset: s.utcOffset))\">\(h(LocalTime.text(p.createdAt, offset: s.utcOffset)))</time></div>"
            if let title = p.title.map(line), !title.isEmpty { out += "<div class=\"title\">\(h(title))</div>" }
            let url = line(p.url)
            // Only web addresses are links (a `javascript:` one would run on a click).
            if WebURL.normalized(url) != nil {
                out += "<div><a href=\"\(h(url))\" rel=\"noreferrer noopener\">\(h(url))</a></div>"
            } else {
                out += "<div>\(h(url))</div>"
            }
            if let note = p.note.map(DisplayText.multiLine), !note.isEmpty { out += "<blockquote>\(h(note))</blockquote>" }
            if !p.reactions.isEmpty {
                out += "<div class=\"meta\">" + p.reactions.map { h(line($0.emoji)) + " " + $0.by.map { h(line($0)) }.joined(separator: ", ") }.joined(separator: " · ") + "</div>"
            }
            out += "</article>\n"
        }
        return out + "</body></html>\n"
    }

    /// HTML's specials escaped (text and attribute values alike).
    static func h(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    // MARK: JSON

    public static func json(_ s: ExportedSession) -> String {
        let posts: [JSONValue] = s.posts.map { p in
            .object(JSONObject([
                ("id", .string(p.id)), ("author", .string(line(p.author))), ("author_pubkey", .string(p.authorPubkey)), ("mine", .bool(p.mine)),
                ("created_at", .string(LocalTime.iso(p.createdAt, offset: s.utcOffset))), ("created_at_unix", .integer(p.createdAt)),
                ("url", .string(p.url)), ("title", p.title.map { .string(line($0)) } ?? .null),
                ("note", p.note.map { .string(DisplayText.multiLine($0)) } ?? .null),
                ("reactions", .array(p.reactions.map { r in .object(JSONObject([("emoji", .string(line(r.emoji))), ("by", .array(r.by.map { .string(line($0)) }))])) })),
            ]))
        }
        return JSONWriter.encode(.object(JSONObject([
            ("schema", .string(schema)), ("version", .integer(version)),
            ("exported_at", .string(LocalTime.iso(s.exportedAt, offset: s.utcOffset))),
            ("session", .object(JSONObject([("id", .string(s.id)), ("name", .string(line(s.name))), ("members", .array(s.members.map { .string(line($0)) }))]))),
            ("posts", .array(posts)),
        ]))) + "\n"
    }

    /// Remote text on one line, without a terminal's controls.
    static func line(_ text: String) -> String { DisplayText.singleLine(text) }
}

/// Times as a reader expects them: local, to the minute ("2026-11-28 10:49"), or ISO 8601 with the
/// offset ("2026-11-28T10:49:13+01:00"). Computed from the Unix time and an offset (no calendar lookups).
enum LocalTime {
    static func text(_ unix: Int64, offset: Int) -> String {
        let (date, h, m, _) = parts(unix, offset: offset)
        return "\(date) \(two(h)):\(two(m))"
    }

    static func iso(_ unix: Int64, offset: Int) -> String {
        let (date, h, m, s) = parts(unix, offset: offset)
        let sign = offset < 0 ? "-" : "+", o = abs(offset)
        return "\(date)T\(two(h)):\(two(m)):\(two(s))\(sign)\(two(o / 3600)):\(two(o % 3600 / 60))"
    }

    private static func parts(_ unix: Int64, offset: Int) -> (String, Int, Int, Int) {
        let local = unix + Int64(offset)
        let days = Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let secs = Int(local - Int64(days) * 86_400)
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return ("\(year)-\(two(month))-\(two(day))", secs / 3600, secs % 3600 / 60, secs % 60)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
