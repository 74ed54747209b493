import LinkstrDomain

/// The idle lock: after `lock_after` without a key (the loop measures it and sends `.idled`), on `:lock`
/// or ^X, the screen becomes a lock screen that shows nothing of the user's (no session, name, link,
/// count or npub). By default the account closes, its keys wiped from memory, and unlocking opens it
/// again where it was; with `lock_keeps_syncing` it stays open and syncing, and only the screen locks.
extension AppReducer {
    public static let lockKey = Key.ctrl("x")

    static func applyLock(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .idled: return lock(&state)
        case .lockLifted:
            guard case .unlock(let u) = state.phase, u.locked else { return [] }
            state.phase = .main
            return []
        default: return []
        }
    }

    /// Locks now. A composer's text is kept as its session's draft first. An account kept only in
    /// memory cannot be unlocked again, so it is not locked (said once).
    static func lock(_ state: inout AppState) -> [AppEffect] {
        guard state.phase == .main, let identity = state.identity else { return [] }
        guard !state.inMemory else {
            state.status = StatusLine("running in memory: locking would lose everything, so the app does not lock.", .warning)
            return []
        }
        var effects = [AppEffect]()
        if case .composer(let c) = state.post.mode, !c.draft.isEmpty, !c.sending {
            state.drafts[c.sessionID] = c.draft
            effects.append(.sessions(.saveDraft(sessionID: c.sessionID, c.draft)))
        }
        let locked = UnlockState(pubkey: identity.pubkey, npub: identity.npub, locked: true)
        if state.lockKeepsSyncing {
            // The account stays open: only the screen goes (overlays closed, nothing typed kept on show).
            state.overlay = nil
            state.status = nil
            state.phase = .unlock(locked)
            return effects + [.lock(keepsAccountOpen: true)]
        }
        // Nothing of the account stays in what the screen is drawn from; what belongs to the terminal
        // and the configuration does.
        let kept = state
        state = AppState(keepingTheTerminalOf: kept)
        state.playing = kept.playing
        state.pendingLink = kept.pendingLink
        state.waitingLinks = kept.waitingLinks
        state.lockedPosition = UIPosition(kept)
        state.phase = .unlock(locked)
        return effects + [.lock(keepsAccountOpen: false)]
    }
}
