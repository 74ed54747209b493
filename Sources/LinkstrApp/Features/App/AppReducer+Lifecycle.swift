import LinkstrDomain

/// The app's life: boot, an account opened, logged out, wiped.
extension AppReducer {
    /// Boot steps, the account opened or gone.
    static func applyLifecycle(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .started(let now, let size):
            state.now = now
            state.screen = size
            state.phase = .booting(.loadingAccount)
            return [.boot]
        case .bootStepReached(let step):
            if case .booting = state.phase { state.phase = .booting(step) }
            return []
        case .storeOpenFailed(let error):
            state.phase = .recovery(error: say(error))
            return []
        case .linkReceived(let link):
            guard state.phase == .main, !isChoosingSharedLink(state) else { return wait(&state, link) }
            return showSharedLink(&state, link)
        case .identityReady(let info, let inMemory):
            state.identity = info
            state.inMemory = inMemory
            state.phase = .main
            state.pane = .sessions
            state.sessions = SessionsState()
            state.post = PostPaneState()
            state.settings = SettingsState()
            if inMemory { state.status = StatusLine("running in memory: nothing is saved this time", .error) }
            // Unlocked after the idle lock: back where it was, once the list is there.
            if let position = state.lockedPosition {
                state.lockedPosition = nil
                state.pendingPosition = position
            }
            if let link = state.pendingLink {
                state.pendingLink = nil
                _ = showSharedLink(&state, link)  // the list is loaded just below
            }
            return [.sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]
        case .loggedOut:
            // Everything of the account goes; what belongs to the terminal (its size, the clock, in-memory
            // mode) stays, or rows outside 80×24 would keep the old screen (a revealed nsec among it).
            state = AppState(keepingTheTerminalOf: state)
            state.phase = .booting(.loadingAccount)
            return [.boot]
        case .wiped:
            let screen = state.screen
            state = AppState()
            state.screen = screen
            state.quitting = true
            return [.quit]
        default:
            return []
        }
    }
}

extension AppState {
    /// A state with nothing of an account: what belongs to the terminal (its size, the clock, focus,
    /// how it draws) and to the configuration (notifications, the theme, the keys, the lock) is kept,
    /// or rows outside 80×24 would keep the old screen, and the settings would fall back to defaults.
    init(keepingTheTerminalOf kept: AppState) {
        self.init()
        screen = kept.screen
        now = kept.now
        inMemory = kept.inMemory
        passphraseInEnvironment = kept.passphraseInEnvironment
        version = kept.version
        showsImages = kept.showsImages
        playsInTerminal = kept.playsInTerminal
        terminalFocused = kept.terminalFocused
        notifyMode = kept.notifyMode
        notifyWording = kept.notifyWording
        themeName = kept.themeName
        keymap = kept.keymap
        lockKeepsSyncing = kept.lockKeepsSyncing
    }
}
