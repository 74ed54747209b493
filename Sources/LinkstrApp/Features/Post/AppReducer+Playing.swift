import LinkstrDomain

/// One player at a time (issue 54: `o` twice started a second mpv on the same video). Once mpv has
/// started on a link, `o` on it again says it is already playing, and `o` on another video says which
/// is, until the player ends or is closed.
extension AppReducer {
    /// Drops a second play of a video while one plays (said on the status line), and remembers which
    /// link a play is asked for, so that the player's start names it.
    static func oneAtATime(_ state: inout AppState, _ effects: [AppEffect]) -> [AppEffect] {
        effects.filter { effect in
            guard case .post(.openURL(let url)) = effect, URLClassifier.classify(url).isPlayable else { return true }
            if let playing = state.playing {
                state.status = StatusLine(playing == url ? "already playing; close its window (q in mpv) to play it again."
                                          : "another video is playing: close its window (q in mpv) first.", .warning)
                return false
            }
            state.playRequested = url
            return true
        }
    }

    /// The player's own account of it: started (the requested link is now the one playing), or over.
    static func trackPlaying(_ state: inout AppState, _ event: PlaybackEvent) {
        switch event {
        case .starting:
            state.playing = state.playRequested
            state.playRequested = nil
        case .ended, .closed, .failed, .handedOff:
            state.playing = nil
        case .playing:
            break
        }
    }
}
