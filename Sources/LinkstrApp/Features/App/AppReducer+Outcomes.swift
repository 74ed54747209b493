import LinkstrDomain

/// Results that belong to no one feature: work that failed, a copy, the command history read.
extension AppReducer {
    /// Work that failed (what waited for it is freed), a copy tried, the command history read.
    static func applyOutcome(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .failed(let work, let why):
            state.status = StatusLine(say(work, why), .error)
            // What waited for the work is free again.
            switch work {
            case .react(let id), .deletePost(let id):
                if case .detail(var d) = state.post.mode, d.postID == id { d.busy = false; state.post.mode = .detail(d) }
            case .relayList:
                state.settings.pendingAdd = nil
            case .blockedRelays:
                if state.settings.ownList != nil { state.settings.ownList?.loaded = true }
            case .doctor:
                if case .doctor = state.overlay { state.overlay = nil }
            default: break
            }
            return []
        case .copyFinished(let label, let outcome):
            switch outcome {
            case .copied: state.status = StatusLine("copied \(label).", .success)
            case .sentToTerminal: state.status = StatusLine("\(label) sent by OSC 52 (not copied? install wl-copy or xclip).", .warning)
            case .failed: state.status = StatusLine("could not copy the \(label): install wl-copy or xclip, or select it on screen.", .error)
            }
            return []
        case .commandHistoryLoaded(let history):
            state.commandHistory = Array(history.suffix(commandHistoryLimit))
            return []
        default:
            return []
        }
    }

    /// What failed and why, in words: the work names the step where the reason alone would not.
    static func say(_ work: FailedWork, _ error: ClientError) -> String {
        let why = say(error)
        switch work {
        case .wipe: return "wipe incomplete: " + why
        case .deleteAccount: return "account not deleted: " + why
        case .forgetDeletedAccount: return "account deleted on relays, but not wiped here: " + why
        case .startSync: return "sync could not start: " + why
        case .readProfileName: return "could not read your profile name: " + why
        case .clearCache: return "page titles cleared, but the cache folder could not be removed: " + why
        default: return why
        }
    }
}
