import LinkstrDomain

public struct PostPaneState: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        case empty
        case composer(ComposerState)
        case detail(PostDetail)
    }
    public var mode: Mode = .empty
    /// Links being saved for offline (`s` in a post; again cancels).
    public var saving: Set<String> = []
    public init() {}
}

/// What was typed in a session's composer and not sent.
public struct Draft: Equatable, Sendable, Codable {
    public var link: String
    public var note: String
    public init(link: String, note: String) { self.link = link; self.note = note }
    public var isEmpty: Bool { link.trimmingWhitespace().isEmpty && note.trimmingWhitespace().isEmpty }
}

public struct ComposerState: Equatable, Sendable {
    public enum Field: Equatable, Sendable { case link, note }
    public var sessionID: String
    public var sessionName: String
    public var link = TextField()
    public var note = TextField()
    public var focus: Field = .link
    public var sending = false
    public var error: String?
    /// Members a post would not reach where they read (said before sending).
    public var reachWarnings: [String] = []
    public init(sessionID: String, sessionName: String) { self.sessionID = sessionID; self.sessionName = sessionName }

    public var draft: Draft { Draft(link: link.text, note: note.text) }

    /// "can be played" hint for the link as typed.
    public var playbackHint: String? {
        // Worked out per frame: only for links of a sendable size.
        guard link.text.utf8.count <= 8 * 1024, let url = WebURL.normalizedUserInput(link.text) else { return nil }
        let c = URLClassifier.classify(url)
        switch c.strategy {
        case .extractionPreferred: return "▶ \(c.type.rawValue) video: plays with mpv when installed"
        case .embedOnly: return "▶ \(c.type.rawValue): opens the provider's player"
        case .link: return nil
        }
    }
}

public struct PostDetail: Equatable, Sendable {
    public var postID: String
    public var view: PostView?
    public var sessionName: String
    public var reactionSelection = 0
    public var busy = false
    /// The first line of the note shown (j/k, PgDn/PgUp scroll a note longer than the screen).
    public var noteScroll = 0
    /// Its session is listed (not a request): only then is its thumbnail drawn.
    public var listed = true
    /// Ours: each member's delivery (empty for someone else's post, or before any was recorded).
    public var deliveries: [MemberDeliveryRow] = []
    public init(postID: String, view: PostView?, sessionName: String) { self.postID = postID; self.view = view; self.sessionName = sessionName }
}
