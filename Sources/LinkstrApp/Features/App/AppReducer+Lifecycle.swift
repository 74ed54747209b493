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
            if let link = state.pendingLink {
                state.pendingLink = nil
                _ = showSharedLink(&state, link)  // the list is loaded just below
            }
            return [.sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]
        case .loggedOut:
            // Everything of the account goes; what belongs to the terminal (its size, the clock, in-memory
            // mode) stays, or rows outside 80×24 would keep the old screen (a revealed nsec among it).
            let kept = state
            state = AppState()
            state.screen = kept.screen
            state.now = kept.now
            state.inMemory = kept.inMemory
            state.passphraseInEnvironment = kept.passphraseInEnvironment
            state.version = kept.version
            state.showsImages = kept.showsImages
            state.playsInTerminal = kept.playsInTerminal
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
