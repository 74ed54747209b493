import LinkstrDomain

/// The send queue in the app: a send is applied and queued at once, so the composer never
/// waits for the network; what is unsent is marked (feed, detail, session list, the tab bar's count),
/// "sent." is said when a relay took it, "sent N that waited" when the network came back, and a queued
/// or failed post can be retried (`r`) or cancelled (`x`) from its detail.
extension AppReducer {
    /// Whether a relay takes our writes now (the tab bar's dots).
    static func relayReachable(_ state: AppState) -> Bool {
        state.settings.relays.contains { $0.health == .connected }
    }

    /// The post was applied and queued: say where it stands.
    static func sayQueued(_ state: inout AppState, postID: String) {
        if state.justSent.remove(postID) != nil {
            state.status = StatusLine("sent.", .success)
        } else if !relayReachable(state) {
            state.saidQueuedOffline = true
            state.status = StatusLine("no relay reachable: queued, it will go when one answers.", .warning)
        } else {
            state.awaitingSend.insert(postID)
            state.status = StatusLine("sending…")
        }
    }

    static func sendQueue(_ state: inout AppState, _ action: PostAction) -> [AppEffect] {
        switch action {
        case .sendQueueChanged(let news):
            let before = state.sendQueue
            state.sendQueue = news
            // What waits while no relay answers (queued now, or left from an earlier run) is said once it went.
            if news.counts.waiting > 0 && !relayReachable(state) { state.saidQueuedOffline = true }
            if state.saidQueuedOffline { state.sentThatWaited += news.sent }
            // Posts that were marked and are no longer: sent (a cancel takes its own path).
            let gone = Set(before.posts.keys).subtracting(news.posts.keys)
            state.justSent = gone
            if !news.newlyFailed.isEmpty {
                let why = DisplayText.singleLine(news.newlyFailed[0])
                state.status = StatusLine("not sent: \(why) (r retries, x cancels, in the post)", .error)
            } else if news.sent > 0 {
                if state.saidQueuedOffline && news.counts.waiting == 0 {
                    state.status = StatusLine("sent \(state.sentThatWaited) that waited.", .success)
                    state.saidQueuedOffline = false
                    state.sentThatWaited = 0
                } else if !state.awaitingSend.intersection(gone).isEmpty {
                    state.status = StatusLine("sent.", .success)
                }
                state.awaitingSend.subtract(gone)
            }
            // The detail shown reads its post again when its mark changed (its delivery rows follow the send).
            if case .detail(let d) = state.post.mode, before.posts[d.postID] != news.posts[d.postID], news.posts[d.postID] == nil {
                return [.post(.loadPost(d.postID))]
            }
            return []
        case .sendCancelled(let action, let postID, let sessionID):
            if let postID {
                state.sendQueue.posts[postID] = nil
                state.awaitingSend.remove(postID)
            }
            state.status = StatusLine(action == .post ? "cancelled: the post was never sent, and is gone." :
                "cancelled: the \(action.words) will not be sent; it stays on this device only.", .success)
            if action == .post, case .detail(let d) = state.post.mode, d.postID == postID {
                state.post.mode = .empty
                if state.pane == .post { state.pane = .sessions }
            }
            var effects: [AppEffect] = [.sessions(.loadSessions(state.sessions.list))]
            if let open = state.sessions.open, open.sessionID == sessionID {
                effects.append(.sessions(.loadFeed(sessionID: sessionID, limit: max(feedPage, open.posts.count))))
            }
            return effects
        case .sendRetried(let n):
            state.status = StatusLine(n == 0 ? "nothing to retry." : relayReachable(state) ? "trying again now…" : "will try again when a relay answers.")
            return []
        default:
            return []
        }
    }

    /// `r` / `x` in the detail of a post with something unsent (nil: the key is not this feature's).
    static func sendQueueKey(_ state: inout AppState, _ d: PostDetail, _ key: Key) -> [AppEffect]? {
        guard let mark = state.sendQueue.posts[d.postID] else { return nil }
        switch key {
        case .char("r"): return [.post(.retrySend(item: mark.item))]
        case .char("x"):
            let question = mark.action == .post ? "cancel this post? it was never sent, and goes from here too. (y/n)"
                : "cancel the unsent \(mark.action.words)? it stays on this device only. (y/n)"
            state.overlay = .confirm(Confirmation(.cancelSend(item: mark.item), question))
            return []
        case .char("d") where mark.action == .post && !mark.state.isFailed:
            // Deleting a post that never left is cancelling it.
            state.overlay = .confirm(Confirmation(.cancelSend(item: mark.item), "this post was never sent: cancel it? it goes from here too. (y/n)"))
            return []
        default: return nil
        }
    }

    /// The mark of a post in words (the feed's and the detail's).
    public static func sendMarkWords(_ mark: PostSendMark) -> String {
        let what = mark.action == .post ? "" : " (\(mark.action.words))"
        switch mark.state {
        case .queued: return "waiting to send" + what
        case .held: return "held" + what + ": queued long ago (queue_hold_after_days), it goes only when you say so"
        case .sending: return "sending" + what + "…"
        case .failed(let why): return "not sent" + what + ": " + DisplayText.singleLine(why)
        }
    }
}
