extension InboundNotification {
    /// What one piece of news says, the one wording for the app's short notifications and `linkstr sync
    /// --follow`: who (by the naming rule) did what.
    public func headline(naming name: (Pubkey) -> String) -> String {
        switch self {
        case .post(_, _, let author): return "\(name(author)) shared a post"
        case .reaction(_, _, _, let author, let emoji): return "\(name(author)) reacted \(DisplayText.singleLine(emoji))"
        }
    }

    /// The post the news is about (the post shared, or the one reacted to).
    public var postID: String {
        switch self {
        case .post(let id, _, _), .reaction(_, let id, _, _, _): return id
        }
    }

    /// The whole announcement on one line: who did what where (the session's name), then what (the
    /// page's title, or the link's host when no title is known) and the start of the note, within
    /// `NewsDetail.announcementLimit` characters. `short` is the headline alone.
    public func announcement(naming name: (Pubkey) -> String, detail: NewsDetail?, pageTitle: String?,
                             wording: NotificationWording) -> String {
        let headline = headline(naming: name)
        guard wording == .full, let detail else { return headline }
        var line = headline + " in " + NewsDetail.cut(DisplayText.singleLine(detail.sessionName), to: NewsDetail.sessionNameLimit)
        let what = pageTitle.map(DisplayText.singleLine).flatMap { $0.isEmpty ? nil : $0 }
            ?? WebURL.host(of: detail.url) ?? DisplayText.singleLine(detail.url)
        switch self {
        case .post:
            line += ": " + NewsDetail.cut(what, to: NewsDetail.whatLimit)
            if let note = detail.note.map(DisplayText.singleLine), !note.isEmpty { line += " · " + note }
        case .reaction:
            line += " to " + NewsDetail.cut(what, to: NewsDetail.whatLimit)
        }
        return NewsDetail.cut(line, to: NewsDetail.announcementLimit)
    }
}

/// How much a notification says (`notify_text`, or `notify = "full"|"short"`, in config.toml).
public enum NotificationWording: String, Equatable, Sendable, CaseIterable {
    /// Who, where and what: "Bob shared a post in News: Page title · the note's start".
    case full
    /// Who did what: "Bob shared a post" (nothing of the session or the link).
    case short
}

/// What a notification may say of the post behind it, read from the store when the news arrives.
public struct NewsDetail: Equatable, Sendable {
    public var sessionName: String
    public var url: String
    public var note: String?

    public init(sessionName: String, url: String, note: String?) {
        self.sessionName = sessionName
        self.url = url
        self.note = note
    }

    /// Desktop notifications show a line or two (GNOME and KDE cut at about this length; a lock screen
    /// shows less): the whole announcement stays within it.
    public static let announcementLimit = 200
    static let sessionNameLimit = 40
    static let whatLimit = 80

    /// `text` cut to `limit` characters, an ellipsis marking the cut.
    static func cut(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
