// Over 400 lines: the state's many small types live here until issue 28 gives each feature its
// state file; new rules go to the domain (`PersonNaming`) and are only held here.
import LinkstrDomain

/// Everything the terminal app shows, as one value. Views render from it; only reducers change it.
public struct AppState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case booting(BootStep)
        /// The local database could not be opened.
        case recovery(error: String)
        /// A passphrase is needed to unlock the stored identity.
        case unlock(UnlockState)
        case onboarding(OnboardingState)
        case main
    }

    public enum BootStep: String, Equatable, Sendable, CaseIterable {
        case loadingAccount = "loading account…"
        case preparingLocalData = "preparing local data…"
        case connectingRelays = "connecting relays…"
        case startingSession = "starting session…"
    }

    public enum Pane: Int, Equatable, Sendable, CaseIterable {
        case sessions = 1, post, you, settings
        public var title: String { ["Sessions", "Post", "You", "Settings"][rawValue - 1] }
    }

    public var phase: Phase = .booting(.loadingAccount)
    public var pane: Pane = .sessions
    public var identity: IdentityInfo? { didSet { if identity?.pubkey != oldValue?.pubkey { renameEveryone() } } }
    public var sessions = SessionsState()
    public var post = PostPaneState()
    /// How news is announced (`notify` in config.toml).
    public var notifyMode: NotifyMode = .both
    /// The terminal has focus (focus events, DECSET 1004; assumed until the terminal says otherwise).
    public var terminalFocused = true
    /// Sessions that never notify (kept on disk).
    public var muted: Set<String> = []
    /// Unsent composer text per session (kept sealed on disk, so a restart loses nothing).
    public var drafts: [String: Draft] = [:]
    /// Sends the user stopped waiting for (Esc while "sending…"): the text each one carries, kept as the
    /// session's draft until the relays accept it.
    public var sendingInBackground: [String: Draft] = [:]
    /// Commands run from `:`, oldest first (kept sealed on disk: they may hold links).
    public var commandHistory: [String] = []
    /// While browsing the history with ↑/↓: the entry shown, and what was typed before.
    public var historyIndex: Int?
    public var historyDraft = ""
    /// The post search in force (`/` in a feed, `:search` across sessions): its hits and which is shown.
    public var postSearch: PostSearchState?
    /// The colour theme in use (`:theme` changes it for the run).
    public var themeName = "night"
    /// The keys in force (the defaults, with `keys.toml` over them).
    public var keymap = Keymap.standard
    /// How far the help is scrolled (it is longer than a small terminal).
    public var helpScroll = 0
    public var you = YouState()
    public var settings = SettingsState()
    public var contacts: [Contact] = [] { didSet { renameEveryone() } }
    /// Other people's profile names (kind 0); an alias still wins.
    public var profileNames: [Pubkey: String] = [:] { didSet { renameEveryone() } }
    /// The naming rule over `contacts` and `profileNames`, made again when they change (every row asks it).
    public private(set) var naming = PersonNaming(me: nil, contacts: [], profileNames: [:])
    /// Titles of shared pages (link previews), by post URL; grows as previews arrive.
    public var linkTitles: [String: String] = [:]
    /// Bumped whenever `linkTitles` changes, so views can tell cheaply.
    public var linkTitlesVersion = 0
    public var overlay: Overlay?
    public var status: StatusLine?
    public var screen = ScreenSize(columns: 80, rows: 24)
    /// Unix seconds, from the clock effect (reducers never read a clock).
    public var now: Int64 = 0
    public var inMemory = false
    public var quitting = false
    /// The passphrase comes from the environment: onboarding skips choosing one.
    public var passphraseInEnvironment = false
    /// Where the app was when it last quit, until the session list is there to restore it.
    public var pendingPosition: UIPosition?
    /// What the last Tab in the command line could still complete to (listed above the prompt).
    public var completions: [String] = []
    /// How many damaged records the status line has told of (each new count is said once).
    public var damagedRecordsSaid = 0
    /// A link handed in at launch, shown once the account is open.
    public var pendingLink: DeepLink.Link?
    /// "linkstr 0.3.0 (commit …)", for Settings.
    public var version = ""

    public init() {}

    /// How a person is called on screen (`PersonNaming`): "you", the private alias, `~` and their
    /// profile name (marked when it copies one of your people's), or a short npub; one harmless line.
    public func displayName(_ pubkey: Pubkey) -> String { naming.name(pubkey) }

    private mutating func renameEveryone() {
        naming = PersonNaming(me: identity?.pubkey, contacts: contacts.map { ($0.pubkey, $0.alias) }, profileNames: profileNames)
    }
}

public struct ScreenSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }
}

public struct IdentityInfo: Equatable, Sendable {
    public var pubkey: Pubkey
    public var npub: String
    public var profileName: String?
    public var backedUp: Bool
    public init(pubkey: Pubkey, npub: String, profileName: String? = nil, backedUp: Bool = true) {
        self.pubkey = pubkey; self.npub = npub; self.profileName = profileName; self.backedUp = backedUp
    }
}

/// A one-line message at the bottom: notes fade after `lifetime` seconds; errors stay until replaced or
/// acknowledged with Esc.
public struct StatusLine: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, warning, error }
    public static let lifetime: Int64 = 4
    public var text: String
    public var kind: Kind
    /// When it was first shown (set by the reducer; not part of what the message is).
    public var since: Int64?
    public init(_ text: String, _ kind: Kind = .info) { self.text = text; self.kind = kind }
    public static func == (a: StatusLine, b: StatusLine) -> Bool { a.text == b.text && a.kind == b.kind }
}

public enum Overlay: Equatable, Sendable {
    case help
    /// The `:` command line.
    case commandLine(TextField)
    case confirm(Confirmation)
    /// `query` filters by name or shortcode ("fire", ":+1:"); `selection` indexes the filtered choices.
    case emojiPicker(postID: String, selection: Int, query: String = "")
    case newSession(NewSessionForm)
    case members(MembersForm)
    case contact(ContactForm)
    /// A link handed to the app (`linkstr open URL`, a `linkstr://open?url=` deep link), with the
    /// session it goes into picked by typing part of its name.
    case sharedLink(SharedLinkPicker)
    /// `:export PATH`: the passphrase that seals the backup.
    case exportBackup(ExportBackupForm)
    /// The hits of a search across sessions (`state.postSearch`); `selection` indexes them.
    case searchResults(selection: Int)
}

/// What a post search found, as the runtime answers it.
public struct PostSearchAnswer: Equatable, Sendable {
    public var query: String
    /// nil: every session.
    public var sessionID: String?
    /// Newest first.
    public var hits: [SearchHit]
    /// More posts matched than `hits` holds.
    public var truncated: Bool
    /// The first hits as posts, in the same order, for a results list to show (at most `previewCount`).
    public var previews: [PostView]
    /// The names of the sessions the previews are in.
    public var sessionNames: [String: String]
    public var indexedPosts: Int
    public static let previewCount = 200
    public init(query: String, sessionID: String?, hits: [SearchHit], truncated: Bool, previews: [PostView],
                sessionNames: [String: String] = [:], indexedPosts: Int) {
        self.query = query; self.sessionID = sessionID; self.hits = hits; self.truncated = truncated
        self.previews = previews; self.sessionNames = sessionNames; self.indexedPosts = indexedPosts
    }
}

/// A search in force: typed with `/` in a feed (one session) or `:search` (all); `n`/`N` walk its hits.
public struct PostSearchState: Equatable, Sendable {
    public var query: String
    public var sessionID: String?
    public var hits: [SearchHit] = []
    public var previews: [PostView] = []
    public var sessionNames: [String: String] = [:]
    public var truncated = false
    /// The hit shown, once one is.
    public var current: Int?
    public var searching = true
    public init(query: String, sessionID: String?) { self.query = query; self.sessionID = sessionID }

    /// "3/17", "3/2000+".
    public var position: String {
        guard let current, !hits.isEmpty else { return "\(hits.count)\(truncated ? "+" : "")" }
        return "\(current + 1)/\(hits.count)\(truncated ? "+" : "")"
    }
}

/// The sealed export's passphrase, typed twice (wire 2026 §8; linkstr's own form).
public struct ExportBackupForm: Equatable, Sendable {
    public var path: String
    public var passphrase = TextField()
    public var confirm = TextField()
    public var focusConfirm = false
    public var busy = false
    public var error: String?
    public init(path: String) { self.path = path }
}

public struct Confirmation: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case deletePost(String)
        /// The creator deletes a session for every member (wire 2026 §1).
        case deleteSession(String)
        case revealSecret
        case logout(clearData: Bool)
        case deleteAccount(step: Int)
        case resetRelays
        case removeRelay(String)
        case removeContact(Pubkey)
        case clearCache
        /// `:repair`: drop the damaged records.
        case repairDamagedRecords
        /// Esc on a shared link: gone only once confirmed.
        case discardSharedLink(DeepLink.Link)
        /// The emergency wipe: every identity and all local data, then the app exits.
        case wipe
        /// Quitting with text in the composer: it is kept as the session's draft.
        case quitKeepingDraft
        /// The iOS app's plain backup file, which holds the secret key in plain text.
        case exportPlainBackup(path: String)
    }
    public var action: Action
    public var question: String
    /// A word to type instead of `y`, for what cannot be undone and loses something (a key that was
    /// never backed up); what was typed so far.
    public var word: String?
    public var typed = ""
    public init(_ action: Action, _ question: String, word: String? = nil) { self.action = action; self.question = question; self.word = word }
}

/// An editable single-line text with a cursor.
///
/// Every edit costs time in the size of the change, not of the text: the cursor is a UTF-8 offset
/// (always on a character boundary) and moves by characters from where it is, so a field holding a
/// megabyte of paste stays responsive. Equality compares bytes (not Unicode canonical equivalence),
/// which is what "did the field change" means for rendering.
public struct TextField: Equatable, Sendable {
    /// The most a field holds (a paste beyond it is cut, and the caller says so).
    public static let maxBytes = 1 << 20

    public private(set) var text: String
    /// UTF-8 offset of the cursor in `text`.
    public var cursor: Int

    public init(_ text: String = "") {
        var t = text
        if t.utf8.count > Self.maxBytes { t = Self.prefix(t, bytes: Self.maxBytes) }
        self.text = t
        cursor = t.utf8.count
    }

    public static func == (a: TextField, b: TextField) -> Bool {
        a.cursor == b.cursor && a.text.utf8.count == b.text.utf8.count && a.text.utf8.elementsEqual(b.text.utf8)
    }

    /// Characters before the cursor end here.
    public var cursorIndex: String.Index { text.utf8.index(text.utf8.startIndex, offsetBy: min(max(0, cursor), text.utf8.count)) }
    public var isEmpty: Bool { text.isEmpty }

    /// Inserts `s` at the cursor. False when it did not fit whole (it was cut at `maxBytes`).
    @discardableResult
    public mutating func insert(_ s: String) -> Bool {
        let room = Self.maxBytes - text.utf8.count
        let piece = s.utf8.count <= room ? s : Self.prefix(s, bytes: max(0, room))
        text.insert(contentsOf: piece, at: cursorIndex)
        cursor += piece.utf8.count
        return piece.utf8.count == s.utf8.count
    }

    public mutating func backspace() {
        guard cursor > 0 else { return }
        let end = cursorIndex
        let start = text.index(before: end)
        text.removeSubrange(start..<end)
        cursor = text.utf8.distance(from: text.utf8.startIndex, to: start)
    }

    public mutating func delete() {
        let start = cursorIndex
        guard start < text.endIndex else { return }
        text.removeSubrange(start..<text.index(after: start))
    }

    public mutating func move(_ by: Int) {
        var i = cursorIndex
        if by < 0 {
            for _ in 0..<(-by) where i > text.startIndex { i = text.index(before: i) }
        } else {
            for _ in 0..<by where i < text.endIndex { i = text.index(after: i) }
        }
        cursor = text.utf8.distance(from: text.utf8.startIndex, to: i)
    }

    public mutating func home() { cursor = 0 }
    public mutating func end() { cursor = text.utf8.count }
    public mutating func clear() { text = ""; cursor = 0 }

    /// Deletes the word before the cursor (Ctrl-W).
    public mutating func deleteWord() {
        while cursor > 0, text[text.index(before: cursorIndex)] == " " { backspace() }
        while cursor > 0, text[text.index(before: cursorIndex)] != " " { backspace() }
    }

    /// The longest prefix of whole scalars within `bytes` bytes (found from the cut, not by scanning).
    static func prefix(_ s: String, bytes: Int) -> String {
        guard s.utf8.count > bytes else { return s }
        var end = s.utf8.index(s.utf8.startIndex, offsetBy: bytes)
        while end > s.utf8.startIndex, UTF8.isContinuation(s.utf8[end]) { end = s.utf8.index(before: end) }
        return String(s.unicodeScalars[..<end])
    }
}

// MARK: panes

public struct SessionsState: Equatable, Sendable {
    public var rows: [SessionSummary] = []
    /// Which list the pane shows: the active sessions, the archived ones, or requests from strangers.
    public var list: SessionList = .active
    public var hasArchived = false
    /// Undecided requests, for the pane's header.
    public var requestCount = 0
    /// Who sent the waiting requests, newest first.
    public var requestSenders: [Pubkey] = []
    /// Active sessions with unread posts, newest first (`u` goes to the next; the tab shows a dot).
    public var unreadActive: [SessionSummary] = []
    /// Archived sessions with unread posts (the archive hint says so).
    public var archivedUnread = 0
    public var selection = 0
    public var scroll = 0
    /// Inline search (`/`); nil when not searching.
    public var search: TextField?
    /// The open session's feed, when one is open.
    public var open: SessionFeed?
    public var loading = true
    public init() {}

    public var visibleRows: [SessionSummary] {
        guard let search else { return rows }
        return Self.named(rows, search.text)
    }

    /// The rows whose name contains `query` (any case); every row for an empty query.
    public static func named(_ rows: [SessionSummary], _ query: String) -> [SessionSummary] {
        guard !query.isEmpty else { return rows }
        // No session name is longer than one message: a longer search matches nothing (and is not scanned).
        guard query.utf8.count <= MessageLimits.content else { return [] }
        let q = query.lowercased()
        return rows.filter { $0.name.lowercased().contains(q) }
    }
}

public struct SessionFeed: Equatable, Sendable {
    public var sessionID: String
    public var summary: SessionSummary?
    public var posts: [PostView] = []
    public var membershipChanges: [MembershipChange] = []
    public var selection = 0
    public var scroll = 0
    public var loading = true
    public var hasMore = false
    /// A post to select once the feed has it (the one just sent).
    public var selectWhenLoaded: String?
    /// `G`/`End` asked for the oldest post: selected once the rest of the feed is loaded.
    public var selectOldestWhenLoaded = false
    /// Posts from others that arrived above while the reader was further down ("↑ N new"; `g` goes up).
    public var newAbove = 0
    /// The `/` prompt of a search in this session, while it is typed.
    public var searchField: TextField?
    /// Link hints on screen (`f` open, `F` copy): the next key names a post by its label.
    public var hints: LinkHints?
    public init(sessionID: String) { self.sessionID = sessionID }
}

public struct PostPaneState: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        case empty
        case composer(ComposerState)
        case detail(PostDetail)
    }
    public var mode: Mode = .empty
    public init() {}
}

/// What a link hint does to the link it names.
public enum LinkHints: Equatable, Sendable {
    case open, copy

    /// The labels, in order: one key each.
    public static let labels: [Character] = Array("123456789abcdeghijklmnopqrstuvwxyz")

    /// The posts that get a label: a window of `labels.count` around the selection (so the posts on
    /// screen have one whatever the terminal's height), and each one's label.
    public static func labelled(selection: Int, count: Int) -> [(post: Int, label: Character)] {
        let start = max(0, min(selection - labels.count / 2, count - labels.count))
        return (start..<min(count, start + labels.count)).map { ($0, labels[$0 - start]) }
    }
}

/// `notify` in config.toml: the terminal bell, a desktop notification, both, or nothing.
public enum NotifyMode: String, Equatable, Sendable, CaseIterable {
    case both, bell, desktop, off
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
    public init(postID: String, view: PostView?, sessionName: String) { self.postID = postID; self.view = view; self.sessionName = sessionName }
}

public struct YouState: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case contact(Pubkey)
        /// Someone whose follow list names us and who is not a contact ("added you").
        case follower(Pubkey)
        case identity(IdentityEntry)
    }
    /// Who added us, as last asked (nil: not asked yet in this run).
    public var addedYou: [Pubkey]?
    public var askingAddedYou = false
    public var editingName: TextField?
    public var identities: [IdentityEntry] = []
    /// Index into `entries(contacts:)`: contacts first, then who added us, then the other identities.
    public var selection = 0
    public init() {}

    public func entries(contacts: [Contact]) -> [Entry] {
        let known = Set(contacts.map(\.pubkey))
        return contacts.map { .contact($0.pubkey) } + (addedYou ?? []).filter { !known.contains($0) }.map { .follower($0) }
            + (identities.count > 1 ? identities.map { .identity($0) } : [])
    }
}

public struct IdentityEntry: Equatable, Sendable {
    public var pubkey: Pubkey
    public var npub: String
    public var active: Bool
    public init(pubkey: Pubkey, npub: String, active: Bool) { self.pubkey = pubkey; self.npub = npub; self.active = active }
}

public struct RelayRow: Equatable, Sendable {
    public enum Health: String, Equatable, Sendable { case connecting, connected, readOnly = "read-only", failed, disabled }
    public var url: String
    public var health: Health
    public var error: String?
    public var sent = 0
    public var received = 0
    public var latencyMilliseconds: Double?
    public var lastConnectedAt: Int64?
    /// Why the relay's history is not read to its end (a refused page being asked again, …); nil when it is.
    public var history: String?
    public init(url: String, health: Health, error: String? = nil) { self.url = url; self.health = health; self.error = error }
}

public struct SettingsState: Equatable, Sendable {
    public enum Section: Int, Equatable, Sendable { case relays, storage, identity }
    public var relays: [RelayRow] = []
    public var selection = 0
    public var section: Section = .relays
    public var adding: TextField?
    /// A relay asked to be added, until the list shows it (then "added" replaces "adding…").
    public var pendingAdd: String?
    public var showStats = false
    /// The nsec, only between an explicit confirmation and leaving the pane (or 60 s).
    public var revealedSecret: RevealedSecret?
    public var revealedUntil: Int64?
    public var identityActionSelection = 0
    public init() {}

    /// The header figure: relays connected or read-only, of all.
    public var header: String {
        "\(relays.filter { $0.health == .connected || $0.health == .readOnly }.count) / \(relays.count)"
    }
}

// MARK: forms

public struct NewSessionForm: Equatable, Sendable {
    public var name = TextField()
    public var selected: Set<Pubkey> = []
    public var cursor = 0
    /// 0: the name field; 1: the contact list.
    public var focus = 0
    public var busy = false
    public var error: String?
    /// A shared link waiting for this session (started from the "Shared link" box).
    public var sharing: DeepLink.Link?
    public init() {}
}

public struct MembersForm: Equatable, Sendable {
    public var sessionID: String
    public var selected: Set<Pubkey>
    public var cursor = 0
    public var editable: Bool
    public var busy = false
    public var error: String?
    public init(sessionID: String, selected: Set<Pubkey>, editable: Bool) { self.sessionID = sessionID; self.selected = selected; self.editable = editable }
}

/// Adding a contact (key and private alias), or renaming one (`editing` fixes the key).
public struct ContactForm: Equatable, Sendable {
    public var key = TextField()
    public var alias = TextField()
    /// 0: the key field; 1: the alias field.
    public var focus = 0
    public var editing: Pubkey?
    public var busy = false
    public var error: String?
    public init() {}
    public init(editing pubkey: Pubkey, alias: String?) {
        editing = pubkey
        self.alias = TextField(alias ?? "")
        focus = 1
    }

    /// The key as typed, normalised: npub, nostr:npub…, text containing an npub, or hex.
    public var pubkey: Pubkey? { try? checkedKey.get() }

    /// The key, or why what was typed is not one (not a point on the curve, an nsec, …).
    public var checkedKey: Result<Pubkey, DomainError> { editing.map { .success($0) } ?? PubkeyNormalizer.userInput(key.text) }
}

public struct UnlockState: Equatable, Sendable {
    public var pubkey: Pubkey
    public var npub: String
    public var passphrase = TextField()
    public var error: String?
    public var busy = false
    public init(pubkey: Pubkey, npub: String) { self.pubkey = pubkey; self.npub = npub }
}

/// A backup chosen at onboarding and checked, waiting for the passphrase of its key here.
public struct PendingRestore: Equatable, Sendable {
    public var path: String
    /// A sealed backup's own passphrase.
    public var backupPassphrase: String?
    /// Whose account it holds.
    public var npub: String
    public init(path: String, backupPassphrase: String?, npub: String) { self.path = path; self.backupPassphrase = backupPassphrase; self.npub = npub }
}

public struct OnboardingState: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case choose(selection: Int)
        case createName(TextField)
        case importKey(TextField)
        case passphrase(TextField, confirm: TextField?, focusConfirm: Bool)
        /// Restoring: the path of a `.linkstrbackup` file.
        case restoreFile(TextField)
        /// Restoring a sealed backup: its own passphrase.
        case restoreSecret(path: String, TextField)
        /// After creating: explains the key; the nsec shows only on request.
        case backup(revealed: RevealedSecret?)
    }
    public var step: Step = .choose(selection: 0)
    /// What the passphrase step will do once done.
    public var pendingName: String?
    public var pendingImport: String?
    public var pendingRestore: PendingRestore?
    /// The new key's nsec, for the backup step only (dropped when it ends).
    public var secretToBackUp: RevealedSecret?
    public var error: String?
    public var busy = false
    public init() {}
}
