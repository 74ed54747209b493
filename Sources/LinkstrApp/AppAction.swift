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
    /// No key for `lock_after`: the app locks.
    case idled
    /// The passphrase was right while the account stayed open (`lock_keeps_syncing`): the screen is back.
    case lockLifted
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
    /// Editing our blocked or inbox relays (refused: not a relay URL, one of ours, …).
    case blockedRelays
    /// The delivery doctor could not run (no relay, the store).
    case doctor
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
    /// The emergency wipe (`:wipe!`): erase everything here, then quit.
    case wipe
    case startSync

    /// The command history and the muted sessions kept on disk.
    case loadLocalPreferences
    case saveCommandHistory([String])
    case copy(String, label: String)
    /// Remembers where the app is (at quit), to open there next time.
    case savePosition(UIPosition)
    case notify(title: String, body: String, via: NotifyMode)
    /// The idle lock: the account closes (its keys wiped from memory), or with `keepsAccountOpen`
    /// (`lock_keeps_syncing`) only the screen locks while sync goes on.
    case lock(keepsAccountOpen: Bool)
    case quit

    // What is to be done, by feature (the runner routes each to its area).
    case onboarding(OnboardingEffect)
    case sessions(SessionsEffect)
    case post(PostEffect)
    case you(YouEffect)
    case settings(SettingsEffect)
    case search(SearchEffect)
}
