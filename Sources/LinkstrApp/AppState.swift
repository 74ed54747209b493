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
    public var identity: IdentityInfo?
    public var sessions = SessionsState()
    public var post = PostPaneState()
    public var you = YouState()
    public var settings = SettingsState()
    public var contacts: [Contact] = []
    /// Other people's profile names (kind 0); an alias still wins.
    public var profileNames: [Pubkey: String] = [:]
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

    public init() {}

    /// How a person is called on screen: "you", then the private alias, then their profile name, then a
    /// short npub. Aliases and names are remote or typed text: reduced to one harmless line.
    public func displayName(_ pubkey: Pubkey) -> String {
        if pubkey == identity?.pubkey { return "you" }
        if let alias = contacts.first(where: { $0.pubkey == pubkey })?.alias { return DisplayText.singleLine(alias) }
        if let name = profileNames[pubkey] { return DisplayText.singleLine(name) }
        return AccountState.shortNpub(pubkey)
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

/// A one-line message at the bottom: errors stay until replaced, notes fade with the next action.
public struct StatusLine: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, warning, error }
    public var text: String
    public var kind: Kind
    public init(_ text: String, _ kind: Kind = .info) { self.text = text; self.kind = kind }
}

public enum Overlay: Equatable, Sendable {
    case help
    /// The `:` command line.
    case commandLine(TextField)
    case confirm(Confirmation)
    case emojiPicker(postID: String, selection: Int)
    case newSession(NewSessionForm)
    case members(MembersForm)
    case contact(ContactForm)
}

public struct Confirmation: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case deletePost(String)
        case revealSecret
        case logout(clearData: Bool)
        case deleteAccount(step: Int)
        case resetRelays
        case removeRelay(String)
        case removeContact(Pubkey)
        case clearCache
    }
    public var action: Action
    public var question: String
    public init(_ action: Action, _ question: String) { self.action = action; self.question = question }
}

/// An editable single-line text with a cursor (in characters).
public struct TextField: Equatable, Sendable {
    public var text: String
    public var cursor: Int
    public init(_ text: String = "") { self.text = text; cursor = text.count }

    public mutating func insert(_ s: String) {
        let i = text.index(text.startIndex, offsetBy: min(cursor, text.count))
        text.insert(contentsOf: s, at: i)
        cursor += s.count
    }
    public mutating func backspace() {
        guard cursor > 0 else { return }
        let i = text.index(text.startIndex, offsetBy: cursor - 1)
        text.remove(at: i)
        cursor -= 1
    }
    public mutating func delete() {
        guard cursor < text.count else { return }
        text.remove(at: text.index(text.startIndex, offsetBy: cursor))
    }
    public mutating func move(_ by: Int) { cursor = max(0, min(text.count, cursor + by)) }
    public mutating func home() { cursor = 0 }
    public mutating func end() { cursor = text.count }
    public mutating func clear() { text = ""; cursor = 0 }
    /// Deletes the word before the cursor (Ctrl-W).
    public mutating func deleteWord() {
        while cursor > 0, text[text.index(text.startIndex, offsetBy: cursor - 1)] == " " { backspace() }
        while cursor > 0, text[text.index(text.startIndex, offsetBy: cursor - 1)] != " " { backspace() }
    }
}

// MARK: panes

public struct SessionsState: Equatable, Sendable {
    public var rows: [SessionSummary] = []
    public var archivedMode = false
    public var hasArchived = false
    public var selection = 0
    public var scroll = 0
    /// Inline search (`/`); nil when not searching.
    public var search: TextField?
    /// The open session's feed, when one is open.
    public var open: SessionFeed?
    public var loading = true
    public init() {}

    public var visibleRows: [SessionSummary] {
        guard let q = search?.text.lowercased(), !q.isEmpty else { return rows }
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

    /// "can be played" hint for the link as typed.
    public var playbackHint: String? {
        guard let url = WebURL.normalizedUserInput(link.text) else { return nil }
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
    public init(postID: String, view: PostView?, sessionName: String) { self.postID = postID; self.view = view; self.sessionName = sessionName }
}

public struct YouState: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case contact(Pubkey)
        case identity(IdentityEntry)
    }
    public var editingName: TextField?
    public var identities: [IdentityEntry] = []
    /// Index into `entries(contacts:)`: contacts first, then the other identities.
    public var selection = 0
    public init() {}

    public func entries(contacts: [Contact]) -> [Entry] {
        contacts.map { .contact($0.pubkey) } + (identities.count > 1 ? identities.map { .identity($0) } : [])
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
    public init(url: String, health: Health, error: String? = nil) { self.url = url; self.health = health; self.error = error }
}

public struct SettingsState: Equatable, Sendable {
    public enum Section: Int, Equatable, Sendable { case relays, storage, identity }
    public var relays: [RelayRow] = []
    public var selection = 0
    public var section: Section = .relays
    public var adding: TextField?
    public var showStats = false
    /// The nsec, only between an explicit confirmation and leaving the pane (or 60 s).
    public var revealedSecret: String?
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

public struct OnboardingState: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        case choose(selection: Int)
        case createName(TextField)
        case importKey(TextField)
        case passphrase(TextField, confirm: TextField?, focusConfirm: Bool)
        /// After creating: explains the key; the nsec shows only on request.
        case backup(revealed: String?)
    }
    public var step: Step = .choose(selection: 0)
    /// What the passphrase step will do once done.
    public var pendingName: String?
    public var pendingImport: String?
    /// The new key's nsec, for the backup step only (dropped when it ends).
    public var secretToBackUp: String?
    public var error: String?
    public var busy = false
    public init() {}
}
