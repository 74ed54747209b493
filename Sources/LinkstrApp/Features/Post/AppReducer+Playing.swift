import LinkstrDomain

/// One player at a time (`o` twice used to start a second mpv on the same video). Once mpv has started
/// on a link, `o` on it again says it is already playing, and `o` on another video asks whether to
/// replace the one playing, until the player ends or is closed.
extension AppReducer {
    /// Drops a second play of a video while one plays (said on the status line), and remembers which
    /// link a play is asked for, so that the player's start names it.
    static func oneAtATime(_ state: inout AppState, _ effects: [AppEffect]) -> [AppEffect] {
        effects.filter { effect in
            guard case .post(.openURL(let url)) = effect, URLClassifier.classify(url).isPlayable else { return true }
            if let playing = state.playing {
                if playing == url {
                    state.status = StatusLine("already playing; close its window (q in mpv) to play it again.", .warning)
                } else {
                    state.overlay = .confirm(Confirmation(.replacePlaying(url), "another video is playing: stop it and play this one? (y/n)"))
                }
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
