import LinkstrDomain

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
    /// Settings' `P`: a new passphrase for the key file.
    case changePassphrase(ChangePassphraseForm)
    /// Settings' `K`: the passphrase to keep in the keyring.
    case keyring(KeyringForm)
    /// The hits of a search across sessions (`state.postSearch`); `selection` indexes them.
    case searchResults(selection: Int)
    /// `:doctor`: can each member be reached where they read.
    case doctor(DoctorReport)
    /// `:held`: the open session's posts held for want of membership, scrolled.
    case heldPosts(sessionID: String, scroll: Int)
    /// `:messages`: the status line's past messages, newest last.
    case messages(scroll: Int)
}

/// The delivery doctor's report as the app shows it: lines already worded and wrapped, scrolled.
public struct DoctorReport: Equatable, Sendable {
    public var sessionID: String?
    public var lines: [String] = []
    public var loading = true
    public var scroll = 0
    public init(sessionID: String?) { self.sessionID = sessionID }
}

public struct Confirmation: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case deletePost(String)
        /// Takes a send-queue item out (never sent).
        case cancelSend(item: Int64)
        /// Runs the hooks config.toml names.
        case allowHooks
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
        /// `o` on another video while one plays: stop that one and play this.
        case replacePlaying(String)
        /// `:export-session` onto a file that exists.
        case replaceExport(sessionID: String, path: String)
    }
    public var action: Action
    public var question: String
    /// A word to type instead of `y`, for what cannot be undone and loses something (a key that was
    /// never backed up); what was typed so far.
    public var word: String?
    public var typed = ""
    public init(_ action: Action, _ question: String, word: String? = nil) { self.action = action; self.question = question; self.word = word }
}
