import LinkstrDomain

/// The Post pane: the composer and a post's detail.
extension AppReducer {
    /// Quick reactions in a post's detail. Not on 1–4: those switch panes everywhere, and a reaction is
    /// published to every member, so it must not share a key with navigation.
    public static let quickReactions: [(key: Character, emoji: String)] = [("+", "👍"), ("-", "👎"), ("*", "👀")]
    public static let emojiChoices = ["👍", "👎", "👀", "❤️", "😂", "🔥", "🎉", "😮", "😢", "🙏", "💯", "🤔", "👏", "🙌", "✅", "❌",
                                      "🍿", "🎬", "🎵", "📺", "🤯", "😍", "🥲", "👌"]

    /// Names and shortcodes the picker searches (the first is the shortcode).
    public static let emojiNames: [String: [String]] = [
        "👍": ["+1", "thumbsup", "yes", "like"], "👎": ["-1", "thumbsdown", "no", "dislike"], "👀": ["eyes", "look", "watching"],
        "❤️": ["heart", "love", "red"], "😂": ["joy", "laugh", "tears", "lol"], "🔥": ["fire", "lit", "hot"],
        "🎉": ["tada", "party", "celebrate"], "😮": ["open_mouth", "wow", "surprised"], "😢": ["cry", "sad", "tear"],
        "🙏": ["pray", "thanks", "please"], "💯": ["100", "hundred", "perfect"], "🤔": ["thinking", "hmm"],
        "👏": ["clap", "applause"], "🙌": ["raised_hands", "hooray"], "✅": ["white_check_mark", "check", "done", "yes"],
        "❌": ["x", "cross", "no"], "🍿": ["popcorn"], "🎬": ["clapper", "movie", "film"], "🎵": ["musical_note", "music", "song"],
        "📺": ["tv", "television", "show"], "🤯": ["exploding_head", "mind_blown"], "😍": ["heart_eyes", "love"],
        "🥲": ["smiling_face_with_tear", "bittersweet"], "👌": ["ok_hand", "ok", "perfect"],
    ]

    /// The choices whose name or shortcode contains `query` (colons ignored), in picker order.
    public static func emojiMatches(_ query: String) -> [String] {
        let q = query.lowercased().replacingOccurrences(of: ":", with: "")
        guard !q.isEmpty else { return emojiChoices }
        return emojiChoices.filter { e in (emojiNames[e] ?? []).contains { $0.contains(q) } }
    }

    static func postKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch state.post.mode {
        case .empty:
            if key == .char("c") || key == .char("n") { return compose(&state) }
            return []
        case .composer(var c): return composerKey(&state, &c, key)
        case .detail(let d): return detailKey(&state, d, key)
        }
    }

    static func composerKey(_ state: inout AppState, _ c: inout ComposerState, _ key: Key) -> [AppEffect] {
        if c.sending {
            // Relays can take their time (16 s at worst): Esc stops waiting, never the send. The text
            // stays as the draft until the relays accept it; the outcome is said when it comes.
            guard key == .escape else { return [] }
            state.post.mode = .empty
            state.pane = .sessions
            state.drafts[c.sessionID] = c.draft
            state.sendingInBackground[c.sessionID] = c.draft
            state.status = StatusLine("still sending to \(DisplayText.singleLine(c.sessionName)) in the background; you will be told when relays answer.")
            return [.sessions(.saveDraft(sessionID: c.sessionID, c.draft))]
        }
        switch key {
        case .escape:
            // What was typed stays: the session's draft, back when its composer opens again.
            state.post.mode = .empty
            state.pane = .sessions
            let draft = c.draft
            if draft.isEmpty {
                guard state.drafts.removeValue(forKey: c.sessionID) != nil else { return [] }
                return [.sessions(.saveDraft(sessionID: c.sessionID, nil))]
            }
            guard state.drafts[c.sessionID] != draft else { return [] }
            state.drafts[c.sessionID] = draft
            state.status = StatusLine("draft kept: c in \(DisplayText.singleLine(c.sessionName)) brings it back.")
            return [.sessions(.saveDraft(sessionID: c.sessionID, draft))]
        case .tab, .backTab:
            c.focus = c.focus == .link ? .note : .link
        case .enter where c.focus == .link:
            c.focus = .note
        case .enter, .ctrl("s"):
            return send(&state, &c)
        case .ctrl("v"):
            // The Paste helper: replaces the whole link field with the clipboard.
            state.post.mode = .composer(c)
            return [.post(.readClipboard)]
        case .ctrl("o"):
            // The note in $VISUAL / $EDITOR: long notes are written where the user writes.
            state.post.mode = .composer(c)
            return [.post(.editNote(c.note.text))]
        case .ctrl("l"):
            // The Clear helper of the link field.
            c.link.clear()
            c.focus = .link
        default:
            if c.focus == .link { c.link.edit(key) } else { c.note.edit(key) }
            c.error = nil
        }
        state.post.mode = .composer(c)
        return []
    }

    static func send(_ state: inout AppState, _ c: inout ComposerState) -> [AppEffect] {
        guard let url = WebURL.normalizedUserInput(c.link.text) else {
            c.error = SendRuleError.invalidURL.description
            c.focus = .link
            state.post.mode = .composer(c)
            return []
        }
        c.sending = true
        c.error = nil
        state.post.mode = .composer(c)
        let note = c.note.text.trimmingWhitespace()
        return [.post(.sendPost(sessionID: c.sessionID, url: url, note: note.isEmpty ? nil : note))]
    }

    static func detailKey(_ state: inout AppState, _ d: PostDetail, _ key: Key) -> [AppEffect] {
        if let effects = sendQueueKey(&state, d, key) { return effects }
        var d = d
        defer { if case .detail = state.post.mode { state.post.mode = .detail(d) } }
        switch key {
        case .escape, .char("q"), .char("h"):
            state.post.mode = .empty
            state.pane = .sessions
            return []
        case .char(let c) where d.view != nil && quickReactions.contains(where: { $0.key == c }):
            return react(&state, &d, quickReactions.first(where: { $0.key == c })!.emoji)
        case .char("e") where d.view != nil:
            state.overlay = .emojiPicker(postID: d.postID, selection: 0)
            return []
        case .char("o"):
            guard let url = d.view?.post.url else { return [] }
            return [open(state, url)]
        case .char("y"):
            guard let url = d.view?.post.url else { return [] }
            return [.copy(url, label: "link")]
        case .char("Y"):
            guard let url = d.view?.post.url else { return [] }
            return [.copy(DeepLink.encode(url: url), label: "linkstr link")]
        case .char("d"):
            guard let post = d.view?.post else { return [] }
            guard post.author == state.identity?.pubkey else {
                state.status = StatusLine(SendRuleError.notYourPost.description, .error)
                return []
            }
            state.overlay = .confirm(Confirmation(.deletePost(post.id), "delete this post for everyone? (y/n)"))
            return []
        case .char("s"):
            guard let url = d.view?.post.url else { return [] }
            if state.post.saving.contains(url) { return [.post(.cancelSave(url))] }
            // Saving fetches the link: never for a stranger's request.
            guard d.listed else {
                state.status = StatusLine("this post is in a session request: accept the session first.", .error)
                return []
            }
            state.post.saving.insert(url)
            state.status = StatusLine(SaveProgress.saving(nil).words())
            return [.post(.saveMedia(url))]
        case .char("R"):
            guard let url = d.view?.post.url else { return [] }
            // Fetching tells the site our address: never for a stranger's request.
            guard d.listed else {
                state.status = StatusLine("this post is in a session request: accept the session first.", .error)
                return []
            }
            state.status = StatusLine("refreshing the title and picture…")
            return [.post(.refreshPreview(url))]
        case .down, .char("j"), .pageDown, .up, .char("k"), .pageUp:
            // The note scrolls (it was cut at three lines). The view stops at its end;
            // here the bound is the most lines the note could take at this width.
            let step = key == .pageDown ? 5 : key == .pageUp ? -5 : (key == .down || key == .char("j")) ? 1 : -1
            let most = Layout.noteLineBound(d.view?.post.note ?? "", width: state.screen.columns - 6)
            d.noteScroll = min(max(0, d.noteScroll + step), max(0, most - 1))
        case .right, .char("l"):
            d.reactionSelection = min(d.reactionSelection + 1, max(0, (d.view?.reactions.count ?? 1) - 1))
        case .left:
            d.reactionSelection = max(0, d.reactionSelection - 1)
        case .enter, .char(" "):
            guard let r = d.view?.reactions[safe: d.reactionSelection] else { return [] }
            return react(&state, &d, r.emoji)
        default: break
        }
        return []
    }

    static func react(_ state: inout AppState, _ d: inout PostDetail, _ emoji: String) -> [AppEffect] {
        guard !d.busy else { return [] }
        d.busy = true
        state.status = StatusLine("sending \(emoji)…")
        return [.post(.react(postID: d.postID, emoji: emoji))]
    }

    // MARK: results

    /// What the post feature's effects answered.
    static func apply(_ state: inout AppState, _ action: PostAction) -> [AppEffect] {
        switch action {
        case .sendQueueChanged, .sendCancelled, .sendRetried: return sendQueue(&state, action)
        case .postLoaded(let id, let view, let sessionName, let listed):
            if case .detail(var d) = state.post.mode, d.postID == id {
                guard let view else {
                    // Deleted meanwhile (by its author, or the session went away).
                    state.post.mode = .empty
                    if state.pane == .post { state.pane = .sessions }
                    state.status = StatusLine("that post is no longer available.", .error)
                    return []
                }
                d.view = view
                d.sessionName = sessionName
                d.listed = listed
                d.busy = false
                state.post.mode = .detail(d)
            }
            return []
        case .deliveriesLoaded(let id, let rows):
            if case .detail(var d) = state.post.mode, d.postID == id, d.deliveries != rows {
                d.deliveries = rows
                state.post.mode = .detail(d)
            }
            return []
        case .reachChecked(let sid, let warnings):
            if case .composer(var c) = state.post.mode, c.sessionID == sid {
                c.reachWarnings = warnings
                state.post.mode = .composer(c)
            }
            return []
        case .deliveriesChanged(let rumors):
            guard case .detail(let d) = state.post.mode, rumors.contains(d.postID) else { return [] }
            return [.post(.loadPost(d.postID))]
        case .linkTitlesLoaded(let titles):
            merge(titles, into: &state.linkTitles, version: &state.linkTitlesVersion)
            return []
        case .thumbnailsLoaded(let thumbnails):
            merge(thumbnails, into: &state.thumbnails, version: &state.thumbnailsVersion)
            return []
        case .saveProgressed(let url, let progress):
            guard state.post.saving.contains(url) else { return [] }
            if progress.isFinal { state.post.saving.remove(url) }
            switch progress {
            case .failed: state.status = StatusLine(progress.words(), .error)
            case .saved: state.status = StatusLine(progress.words(), .success)
            case .saving, .cancelled: state.status = StatusLine(progress.words())
            }
            return []
        case .playbackChanged(let event):
            trackPlaying(&state, event)
            switch event {
            case .failed: state.status = StatusLine(event.words, .error)
            case .ended, .closed, .handedOff: state.status = StatusLine(event.words, .success)
            case .starting, .playing: state.status = StatusLine(event.words)
            }
            return []
        case .previewRefreshed(let url, let title, let thumbnail, let error):
            if let title { merge([url: title], into: &state.linkTitles, version: &state.linkTitlesVersion) }
            if let thumbnail { merge([url: thumbnail], into: &state.thumbnails, version: &state.thumbnailsVersion) }
            if let error {
                state.status = StatusLine("could not refresh: " + say(error), .error)
            } else {
                state.status = StatusLine(title == nil ? "refreshed: the page has no title." : thumbnail == nil ? "refreshed: the page names no picture linkstr can draw."
                                              : "refreshed the title and picture.")
            }
            return []
        case .postSent(let postID, let sessionID):
            if let sent = state.sendingInBackground.removeValue(forKey: sessionID), !isSending(state, sessionID) {
                // The user stopped waiting: say so where they are, and drop the draft only if it is still that text.
                var effects: [AppEffect] = [.sessions(.loadSessions(state.sessions.list))]
                if state.sessions.open?.sessionID == sessionID { effects.append(.sessions(.loadFeed(sessionID: sessionID, limit: feedPage))) }
                if state.drafts[sessionID] == sent {
                    state.drafts[sessionID] = nil
                    effects.append(.sessions(.saveDraft(sessionID: sessionID, nil)))
                }
                state.status = StatusLine("your post was sent.", .success)
                return effects
            }
            state.post.mode = .empty
            let hadDraft = state.drafts.removeValue(forKey: sessionID) != nil
            sayQueued(&state, postID: postID)
            state.pane = .sessions
            if state.sessions.open?.sessionID != sessionID { state.sessions.open = SessionFeed(sessionID: sessionID) }
            state.sessions.open?.selectWhenLoaded = postID
            return [.sessions(.loadFeed(sessionID: sessionID, limit: feedPage)), .sessions(.loadSessions(state.sessions.list))]
                + (hadDraft ? [.sessions(.saveDraft(sessionID: sessionID, nil))] : [])
        case .postSendFailed(let error):
            if case .composer(var c) = state.post.mode, c.sending {
                c.sending = false
                c.error = say(error)
                state.post.mode = .composer(c)
            } else {
                // A send the user stopped waiting for: its text is the session's draft still.
                state.sendingInBackground = [:]
                state.status = StatusLine(say(error) + " your text is kept as the draft.", .error)
            }
            return []
        case .postDeleted(let postID, let sid, let warnings):
            // The detail closes here, so a reload racing this result cannot say "no longer available".
            if case .detail(let d) = state.post.mode, d.postID == postID {
                state.post.mode = .empty
                if state.pane == .post { state.pane = .sessions }
            }
            let summary = PostDeletionWording.summary(warnings)
            state.status = StatusLine(summary, warnings.isEmpty ? .success : .warning)
            var effects: [AppEffect] = [.sessions(.loadSessions(state.sessions.list))]
            if let open = state.sessions.open, open.sessionID == sid {
                effects.append(.sessions(.loadFeed(sessionID: sid, limit: max(feedPage, open.posts.count))))
            }
            return effects
        case .reactionSent(let postID, let sid, let emoji, let removed):
            if case .detail(var d) = state.post.mode, d.postID == postID { d.busy = false; state.post.mode = .detail(d) }
            state.status = StatusLine("\(removed ? "removed" : "reacted") \(DisplayText.singleLine(emoji))", .success)
            return reloads(state, [sid])
        case .linkOpened(let how):
            state.status = StatusLine(how, .success)
            return []
        case .editorFinished(let text, let error):
            guard case .composer(var c) = state.post.mode else { return [] }
            if let text {
                // Editors end files with a newline; the note does not.
                var note = text
                while note.hasSuffix("\n") || note.hasSuffix("\r") { note.removeLast() }
                c.note = TextField(note)
                c.focus = .note
                c.error = error  // nil, or a warning about the editor's temporary copy
            } else {
                c.error = error ?? "the editor did not finish: the note is as it was."
            }
            state.post.mode = .composer(c)
            return []
        case .clipboardRead(let text):
            guard let text, !text.isEmpty else {
                state.status = StatusLine("the clipboard is empty or cannot be read here (paste with your terminal instead).", .error)
                return []
            }
            // The Paste helper replaces the whole link field (readme v2).
            if case .composer(var c) = state.post.mode {
                c.link = TextField(DisplayText.singleLine(text))
                c.focus = .link
                c.error = nil
                state.post.mode = .composer(c)
            }
            return []
        }
    }

    /// Opening a link: a video plays in this terminal when asked to (the loop suspends the screen for it);
    /// everything else goes to the runner, which plays videos in a window or opens the browser.
    public static func open(_ state: AppState, _ url: String) -> AppEffect {
        state.playsInTerminal && URLClassifier.classify(url).isPlayable ? .post(.playInTerminal(url)) : .post(.openURL(url))
    }

    /// Merges what arrived into what is shown, bumping the version views compare only when something changed.
    private static func merge<Value: Equatable>(_ arrived: [String: Value], into shown: inout [String: Value], version: inout Int) {
        let merged = shown.merging(arrived) { $1 }
        guard merged != shown else { return }
        shown = merged
        version += 1
    }
}
