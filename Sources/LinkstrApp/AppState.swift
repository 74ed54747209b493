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
    /// How much a notification says (`notify_text`): who, where and what, or who did what.
    public var notifyWording: NotificationWording = .full
    /// The terminal has focus (focus events, DECSET 1004; assumed until the terminal says otherwise).
    public var terminalFocused = true
    /// Sessions that never notify (kept on disk).
    public var muted: Set<String> = []
    /// Unsent composer text per session (kept sealed on disk, so a restart loses nothing).
    public var drafts: [String: Draft] = [:]
    /// Sends the user stopped waiting for (Esc while "sending…"): the text each one carries, kept as the
    /// session's draft until the relays accept it.
    public var sendingInBackground: [String: Draft] = [:]
    /// The send queue as the engine last said it: the status bar's counts, the marks.
    public var sendQueue = SendQueueNews()
    /// Posts whose "sent." is still to be said (queued while a relay was connected), and posts the
    /// queue just said were sent (its news can come before the post's own answer).
    public var awaitingSend: Set<String> = []
    public var justSent: Set<String> = []
    /// Something waited while no relay was reachable (said when queued, or found at start): "sent N
    /// that waited" follows, N counted since.
    public var saidQueuedOffline = false
    public var sentThatWaited = 0
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
    /// People's `nip05` names and whether NIP-05 vouched for them ("✓ alice@example.com").
    public var nip05: [Pubkey: NIP05Mark] = [:]
    /// The naming rule over `contacts` and `profileNames`, made again when they change (every row asks it).
    public private(set) var naming = PersonNaming(me: nil, contacts: [], profileNames: [:])
    /// Titles of shared pages (link previews), by post URL; grows as previews arrive.
    public var linkTitles: [String: String] = [:]
    /// Bumped whenever `linkTitles` changes, so views can tell cheaply.
    public var linkTitlesVersion = 0
    /// Links' thumbnails in the media cache, by post URL; the pixels stay there.
    public var thumbnails: [String: Thumbnail] = [:]
    /// Bumped whenever `thumbnails` changes, so views can tell cheaply.
    public var thumbnailsVersion = 0
    /// Whether this terminal draws pictures (`images` is not "off"): feed rows and the post detail
    /// make room for thumbnails only then.
    public var showsImages = false
    /// Videos play in this terminal (`playback = "terminal"`) rather than in a window.
    public var playsInTerminal = false
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
    /// `lock_keeps_syncing`: the idle lock leaves the account open (its keys in memory) and sync running.
    public var lockKeepsSyncing = false
    /// Where the app was when it locked, restored once it is unlocked (the account's rows reloaded).
    public var lockedPosition: UIPosition?
    /// What the last Tab in the command line could still complete to (listed above the prompt).
    public var completions: [String] = []
    /// How many damaged records the status line has told of (each new count is said once).
    public var damagedRecordsSaid = 0
    /// The video mpv plays now (in a window), and the one a play was asked for until mpv says it started.
    public var playing: String?
    public var playRequested: String?
    /// The status line's messages as they came (the last `AppReducer.messagesKept`), for `:messages`.
    public var messages: [StatusLine] = []
    /// A link handed in at launch, shown once the account is open.
    public var pendingLink: DeepLink.Link?
    /// Links handed in while another one's box was open (`linkstr open` twice in a row): each is shown
    /// in turn once the box before it is done, never dropped (`AppReducer+WaitingLinks`).
    public var waitingLinks: [DeepLink.Link] = []
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
    /// Its passphrase is kept in the desktop's keyring (`identity keyring on`, Settings' K).
    public var usesKeyring: Bool
    public init(pubkey: Pubkey, npub: String, profileName: String? = nil, backedUp: Bool = true, usesKeyring: Bool = false) {
        self.pubkey = pubkey; self.npub = npub; self.profileName = profileName; self.backedUp = backedUp; self.usesKeyring = usesKeyring
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

/// `notify` in config.toml: the terminal bell, a desktop notification, both, or nothing.
public enum NotifyMode: String, Equatable, Sendable, CaseIterable {
    case both, bell, desktop, off
}
