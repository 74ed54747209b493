import LinkstrDomain

/// Everything that can happen to the app, named for what happened.
public enum AppAction: Equatable, Sendable {
    // Lifecycle.
    case started(now: Int64, size: ScreenSize)
    case bootStepReached(AppState.BootStep)
    case storeOpenFailed(ClientError)
    /// A link was handed to the app (already validated: an http(s) URL).
    case linkReceived(DeepLink.Link)
    case identityReady(IdentityInfo, inMemory: Bool)

    // Input.
    case keyPressed(Key)
    case textPasted(String)
    case mouseUsed(MouseEvent)
    case resized(ScreenSize)
    /// The terminal gained or lost focus (focus events).
    case focusChanged(Bool)
    case clockTicked(Int64)

    // Data arrived.
    case commandHistoryLoaded([String])

    // What happened, by feature (each feature's reducer file takes its own).
    case onboarding(OnboardingAction)
    case sessions(SessionsAction)
    case post(PostAction)
    case you(YouAction)
    case settings(SettingsAction)
    case search(SearchAction)

    // Results of effects that belong to no one feature.
    /// Work that did not happen, named, with why in words for the status line.
    case failed(FailedWork, ClientError)
    /// A copy was tried (`label`: "link", "npub"…); what is known of where it went.
    case copyFinished(label: String, CopyOutcome)
    case loggedOut
    /// Everything was erased: the app leaves with a clean screen.
    case wiped
    /// Where the app was when it last quit (read with the local preferences).
    case positionLoaded(UIPosition)
}

/// What a `failed` action is about: the reducer undoes what waited for it (a busy post detail).
public enum FailedWork: Equatable, Sendable {
    case react(postID: String)
    case deletePost(String)
    case renameSession(String)
    case deleteSession(String)
    case archive(String)
    case sessionRequest(String)
    case removeContact(Pubkey)
    /// Adding, removing or switching a relay (the list refused it).
    case relayList
    case openLink
    case wipe
    case deleteAccount
    /// The relays forgot the account, but its data here could not be wiped.
    case forgetDeletedAccount
    case profileName
    /// Our profile name as it arrived could not be read from the store.
    case readProfileName
    case watchAddedYou
    case clearCache
    case repairDamagedRecords
    case startSync
    /// Storing what arrived (the disk full, the database read-only): said, and read again next time.
    case storeIncoming
    /// An effect that failed where no answer was planned (a store read).
    case unexpected
}

/// What a copy did. A desktop tool (wl-copy, xclip) says whether it worked; OSC 52 is a request the
/// terminal may ignore without saying so, so it is never reported as "copied".
public enum CopyOutcome: Equatable, Sendable {
    case copied(by: String)
    case sentToTerminal
    case failed
}

/// Work for the runtime (I/O, clock, clipboard…); each answers with actions.
public enum AppEffect: Equatable, Sendable {
    case boot
    case continueInMemory
    case unlock(passphrase: String)
    /// A nil passphrase is the one the environment gives (`passphraseInEnvironment`).
    case createIdentity(name: String?, passphrase: String?)
    case importIdentity(key: String, passphrase: String?)
    /// Reads and checks the backup at `path` (answers `backupNeedsPassphrase`, `backupChecked` or `onboardingFailed`).
    case checkBackup(path: String, backupPassphrase: String?)
    /// Restore it: `passphrase` stores its key here (nil: the environment's).
    case restoreBackup(path: String, backupPassphrase: String?, passphrase: String?)
    /// The emergency wipe (`:wipe!`): erase everything here, then quit.
    case wipe
    case startSync

    case loadSessions(SessionList)
    case loadFeed(sessionID: String, limit: Int)
    case loadPost(String)
    case loadContacts
    case loadIdentities
    case loadAddedYou
    /// Keep "added you" current from live follow lists (on once it was asked).
    case watchAddedYou(Bool)
    case markSessionRead(String)
    case loadDrafts
    /// The command history and the muted sessions kept on disk.
    case loadLocalPreferences
    case saveMuted(Set<String>)
    case saveCommandHistory([String])
    /// Keeps (nil: forgets) a session's unsent composer text, sealed on disk.
    case saveDraft(sessionID: String, Draft?)
    case markPostRead(String)
    /// Loads a colour theme and redraws in it (the terminal loop does it: it owns the colours).
    case applyTheme(String)
    /// Reads every post into the in-memory search index, in the background (when a search prompt opens;
    /// a no-op once it is read).
    case buildSearchIndex
    /// Searches notes, URLs and titles of one session's posts (nil: all sessions).
    case searchPosts(query: String, sessionID: String?)

    case sendPost(sessionID: String, url: String, note: String?)
    /// Hands the note to `$VISUAL`/`$EDITOR` with the screen suspended (the terminal loop runs it).
    case editNote(String)
    case react(postID: String, emoji: String)
    case deletePost(String)
    case createSession(name: String, members: [Pubkey])
    case saveMembers(sessionID: String, members: [Pubkey])
    /// Creator only: a new name for the session (wire 2026 §2).
    case renameSession(sessionID: String, name: String)
    case deleteSession(sessionID: String)
    case setArchived(sessionID: String, archived: Bool)
    /// Accept or decline a session request (local only).
    case decideRequest(sessionID: String, RequestDecision)
    case addContact(Pubkey, alias: String?)
    case setAlias(Pubkey, alias: String?)
    case removeContact(Pubkey)

    case addRelay(String)
    case removeRelay(String)
    case setRelayEnabled(String, Bool)
    /// Settings' "test relay": a fresh connection and one answered subscription, timed.
    case testRelay(String)
    case resetRelays

    /// Writes this account's backup to a new file: sealed with `passphrase`, or the iOS app's plain file (nil).
    case exportBackup(path: String, passphrase: String?)
    case revealSecret
    /// The secret key was shown (or exported): it has a copy beyond this device's key file.
    case markKeyBackedUp
    case copy(String, label: String)
    /// The shown secret key to the clipboard (made into text only for that).
    case copySecret(RevealedSecret)
    case readClipboard
    case openURL(String)
    case setProfileName(String?)
    case switchIdentity(Pubkey)
    case logout(clearData: Bool)
    case deleteAccount
    case clearCache
    /// Drops stored records that no longer open, so relays can bring them back.
    case repairDamagedRecords
    /// Remembers where the app is (at quit), to open there next time.
    case savePosition(UIPosition)
    /// Fresh relay figures (counts, latency) while Settings shows them: the pool counts without telling.
    case refreshRelayStats
    case notify(title: String, body: String, via: NotifyMode)
    case quit
}
