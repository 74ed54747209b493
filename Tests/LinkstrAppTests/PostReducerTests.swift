import LinkstrApp
import LinkstrDomain
import XCTest

/// The composer (fields, paste helpers, sending states) and post detail (reactions, picker, open, copy, delete).
final class PostReducerTests: XCTestCase {
    typealias F = Fixture
    let films = F.session("s1", "Films", creator: F.me, members: [F.me, F.bob])

    func composing() -> ReducerHarness {
        var h = ReducerHarness(F.feed(films, posts: []))
        h.send(.keyPressed(.char("c")), [.post(.checkReach(sessionID: "s1"))]) {
            $0.post.mode = .composer(ComposerState(sessionID: "s1", sessionName: "Films"))
            $0.pane = .post
        }
        return h
    }

    func composer(_ link: String, _ note: String = "", focus: ComposerState.Field = .link, sending: Bool = false, error: String? = nil) -> PostPaneState.Mode {
        var c = ComposerState(sessionID: "s1", sessionName: "Films")
        c.link = TextField(link); c.note = TextField(note); c.focus = focus; c.sending = sending; c.error = error
        return .composer(c)
    }

    func testComposeSendSuccessClosesTheComposerAndShowsTheFeed() {
        var h = composing()
        h.state.settings.relays = [RelayRow(url: "wss://r", health: .connected)]
        h.type("youtu.be/abc") { $0.post.mode = self.composer("youtu.be/abc") }
        XCTAssertEqual(ComposerState(sessionID: "s1", sessionName: "Films").playbackHint, nil)
        if case .composer(let c) = h.state.post.mode { XCTAssertNotNil(c.playbackHint, "a YouTube link says it can be played") }
        // Enter moves from the link to the note, then sends.
        h.send(.keyPressed(.enter)) { $0.post.mode = self.composer("youtu.be/abc", focus: .note) }
        h.type("watch") { $0.post.mode = self.composer("youtu.be/abc", "watch", focus: .note) }
        h.send(.keyPressed(.enter), [.post(.sendPost(sessionID: "s1", url: "https://youtu.be/abc", note: "watch"))]) {
            $0.post.mode = self.composer("youtu.be/abc", "watch", focus: .note, sending: true)
        }
        // While sending, typing changes nothing.
        h.send(.keyPressed(.char("x")))
        // Applied and queued at once (issue 49): "sending…" until the queue says a relay took it.
        h.send(.post(.postSent(postID: "p1", sessionID: "s1")), [.sessions(.loadFeed(sessionID: "s1", limit: 50)), .sessions(.loadSessions(.active))]) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.status = StatusLine("sending…")
            $0.awaitingSend = ["p1"]
            $0.sessions.open?.selectWhenLoaded = "p1"
        }
        let sending = SendQueueNews(counts: .init(waiting: 1), sessions: ["s1"], posts: ["p1": PostSendMark(item: 1, action: .post, state: .sending)])
        h.send(.post(.sendQueueChanged(sending))) { $0.sendQueue = sending }
        h.send(.post(.sendQueueChanged(SendQueueNews(sent: 1)))) {
            $0.sendQueue = SendQueueNews(sent: 1)
            $0.justSent = ["p1"]
            $0.awaitingSend = []
            $0.status = StatusLine("sent.", .success)
        }
        // Issue 16 (4): the post just sent is selected once the feed has it, wherever it sorts.
        let posts = [F.post("p2", in: "s1"), F.post("p1", in: "s1"), F.post("p0", in: "s1")]
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: posts, changes: [], hasMore: false))) {
            $0.sessions.open?.posts = posts
            $0.sessions.open?.loading = false
            $0.sessions.open?.selection = 1
            $0.sessions.open?.selectWhenLoaded = nil
        }
    }

    /// Nothing typed is lost (issue 14, item 8): Esc keeps the text as the session's draft, the composer
    /// brings it back, quitting with text asks and keeps it, a sent post forgets it.
    func testADraftSurvivesEscAndQuittingAndGoesWhenSent() {
        var h = composing()
        h.type("example.com/x") { $0.post.mode = self.composer("example.com/x") }
        let draft = Draft(link: "example.com/x", note: "")
        h.send(.keyPressed(.escape), [.sessions(.saveDraft(sessionID: "s1", draft))]) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.drafts = ["s1": draft]
            $0.status = StatusLine("draft kept: c in Films brings it back.")
        }
        h.send(.keyPressed(.char("c")), [.post(.checkReach(sessionID: "s1"))]) {
            $0.post.mode = self.composer("example.com/x")
            $0.pane = .post
            $0.status = StatusLine("your draft is back (^L clears the link).")
        }
        h.send(.keyPressed(.enter)) { $0.post.mode = self.composer("example.com/x", focus: .note) }
        h.type("hi") { $0.post.mode = self.composer("example.com/x", "hi", focus: .note) }
        // Ctrl-C with text: asked first; yes keeps it and quits.
        h.send(.keyPressed(.ctrl("c"))) {
            $0.overlay = .confirm(Confirmation(.quitKeepingDraft, "quit? what you typed is kept as this session's draft. (y/n)"))
        }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.send(.keyPressed(.ctrl("c"))) {
            $0.overlay = .confirm(Confirmation(.quitKeepingDraft, "quit? what you typed is kept as this session's draft. (y/n)"))
        }
        h.send(.keyPressed(.ctrl("c")), [.sessions(.saveDraft(sessionID: "s1", Draft(link: "example.com/x", note: "hi"))), .quit])
        h.send(.keyPressed(.char("y")), [.sessions(.saveDraft(sessionID: "s1", Draft(link: "example.com/x", note: "hi"))), .quit]) { $0.overlay = nil }
        // Sent: the draft goes.
        h.send(.keyPressed(.enter), [.post(.sendPost(sessionID: "s1", url: "https://example.com/x", note: "hi"))]) {
            $0.post.mode = self.composer("example.com/x", "hi", focus: .note, sending: true)
        }
        h.send(.post(.postSent(postID: "p1", sessionID: "s1")), [.sessions(.loadFeed(sessionID: "s1", limit: 50)), .sessions(.loadSessions(.active)), .sessions(.saveDraft(sessionID: "s1", nil))]) {
            $0.post.mode = .empty
            $0.drafts = [:]
            // No relay in this state: queued (issue 49), said so.
            $0.status = StatusLine("no relay reachable: queued, it will go when one answers.", .warning)
            $0.saidQueuedOffline = true
            $0.pane = .sessions
            $0.sessions.open?.selectWhenLoaded = "p1"
        }
        // Emptied and left: nothing is kept.
        h.send(.keyPressed(.char("c")), [.post(.checkReach(sessionID: "s1"))]) { $0.post.mode = self.composer(""); $0.pane = .post }
        h.send(.keyPressed(.escape)) { $0.post.mode = .empty; $0.pane = .sessions }
        // Restarted: the drafts on disk come back.
        h.send(.sessions(.draftsLoaded(["s1": Draft(link: "", note: "later"), "s2": Draft(link: " ", note: "")]))) { $0.drafts = ["s1": Draft(link: "", note: "later")] }
    }

    /// Issue 14, item 5: ^O hands the note to $EDITOR; what comes back is the note (its final newline
    /// dropped); a failed editor leaves the note as it was and says why.
    func testTheNoteCanBeWrittenInTheEditor() {
        var h = composing()
        h.type("example.com/x") { $0.post.mode = self.composer("example.com/x") }
        h.send(.keyPressed(.ctrl("o")), [.post(.editNote(""))])
        h.send(.post(.editorFinished(text: "two\nlines\n", error: nil))) { $0.post.mode = self.composer("example.com/x", "two\nlines", focus: .note) }
        h.send(.keyPressed(.ctrl("o")), [.post(.editNote("two\nlines"))])
        h.send(.post(.editorFinished(text: nil, error: "the editor (false) exited with status 1: the note is as it was."))) {
            $0.post.mode = self.composer("example.com/x", "two\nlines", focus: .note, error: "the editor (false) exited with status 1: the note is as it was.")
        }
    }

    /// Issue 14, item 8: a send waiting for relays never locks the composer: Esc stops waiting (the
    /// send goes on), the text is kept as the draft until the relays accept it, and the outcome is said.
    func testEscStopsWaitingForASendWithoutLosingTheText() {
        var h = composing()
        h.type("example.com/slow") { $0.post.mode = self.composer("example.com/slow") }
        h.send(.keyPressed(.enter)) { $0.post.mode = self.composer("example.com/slow", focus: .note) }
        h.send(.keyPressed(.enter), [.post(.sendPost(sessionID: "s1", url: "https://example.com/slow", note: nil))]) {
            $0.post.mode = self.composer("example.com/slow", focus: .note, sending: true)
        }
        let draft = Draft(link: "example.com/slow", note: "")
        h.send(.keyPressed(.escape), [.sessions(.saveDraft(sessionID: "s1", draft))]) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.drafts = ["s1": draft]
            $0.sendingInBackground = ["s1": draft]
            $0.status = StatusLine("still sending to Films in the background; you will be told when relays answer.")
        }
        h.send(.post(.postSent(postID: "p1", sessionID: "s1")), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50)), .sessions(.saveDraft(sessionID: "s1", nil))]) {
            $0.drafts = [:]
            $0.sendingInBackground = [:]
            $0.status = StatusLine("your post was sent.", .success)
        }
        // A failure after leaving: said, and the text stays as the draft.
        var g = composing()
        g.type("example.com/x") { $0.post.mode = self.composer("example.com/x") }
        g.send(.keyPressed(.ctrl("s")), [.post(.sendPost(sessionID: "s1", url: "https://example.com/x", note: nil))]) {
            $0.post.mode = self.composer("example.com/x", sending: true)
        }
        let x = Draft(link: "example.com/x", note: "")
        g.send(.keyPressed(.escape), [.sessions(.saveDraft(sessionID: "s1", x))]) {
            $0.post.mode = .empty; $0.pane = .sessions; $0.drafts = ["s1": x]; $0.sendingInBackground = ["s1": x]
            $0.status = StatusLine("still sending to Films in the background; you will be told when relays answer.")
        }
        g.send(.post(.postSendFailed(ClientError(.rejectedByRelays, "no relay accepted the post.")))) {
            $0.sendingInBackground = [:]
            $0.status = StatusLine("no relay accepted the post. your text is kept as the draft.", .error)
        }
    }

    func testFailureKeepsTheComposerOpenWithTheError() {
        var h = composing()
        h.send(.textPasted("https://example.com/x")) { $0.post.mode = self.composer("https://example.com/x") }
        h.send(.keyPressed(.ctrl("s")), [.post(.sendPost(sessionID: "s1", url: "https://example.com/x", note: nil))]) {
            $0.post.mode = self.composer("https://example.com/x", sending: true)
        }
        let message = "no relay accepted the post: connection refused"
        h.send(.post(.postSendFailed(ClientError(.offline, message)))) { $0.post.mode = self.composer("https://example.com/x", error: message) }
        // Editing clears the error; sending again is possible.
        h.send(.keyPressed(.end)) { $0.post.mode = self.composer("https://example.com/x") }
    }

    func testAnInvalidLinkIsRefusedInPlace() {
        var h = composing()
        h.send(.textPasted("ftp://example.com")) { $0.post.mode = self.composer("ftp://example.com") }
        h.send(.keyPressed(.tab)) { $0.post.mode = self.composer("ftp://example.com", focus: .note) }
        h.send(.keyPressed(.enter)) {
            $0.post.mode = self.composer("ftp://example.com", focus: .link, error: SendRuleError.invalidURL.description)
        }
    }

    func testBracketedPasteGoesIntoTheFocusedFieldAndHelpersPasteAndClear() {
        var h = composing()
        h.send(.textPasted("  https://a.example/x \n")) { $0.post.mode = self.composer("https://a.example/x") }
        h.send(.keyPressed(.tab)) { $0.post.mode = self.composer("https://a.example/x", focus: .note) }
        // A multi-line note keeps its paragraphs (issue 33 item 1); escape sequences never get in.
        h.send(.textPasted("line one\nline\u{1B}[2J two")) { $0.post.mode = self.composer("https://a.example/x", "line one\nline[2J two", focus: .note) }
        // The Paste helper replaces the whole link field with the clipboard.
        h.send(.keyPressed(.ctrl("v")), [.post(.readClipboard)])
        h.send(.post(.clipboardRead("https://b.example/y"))) { $0.post.mode = self.composer("https://b.example/y", "line one\nline[2J two") }
        h.send(.post(.clipboardRead(nil))) {
            $0.status = StatusLine("the clipboard is empty or cannot be read here (paste with your terminal instead).", .error)
        }
        // The Clear helper empties the link and focuses it.
        h.send(.keyPressed(.tab)) { $0.post.mode = self.composer("https://b.example/y", "line one\nline[2J two", focus: .note) }
        h.send(.keyPressed(.ctrl("l"))) { $0.post.mode = self.composer("", "line one\nline[2J two") }
        // Esc keeps the note as the draft (the error it acknowledges gives way to that).
        let draft = Draft(link: "", note: "line one\nline[2J two")
        h.send(.keyPressed(.escape), [.sessions(.saveDraft(sessionID: "s1", draft))]) {
            $0.post.mode = .empty; $0.pane = .sessions; $0.drafts = ["s1": draft]
            $0.status = StatusLine("draft kept: c in Films brings it back.")
        }
    }

    func detail(_ view: PostView, busy: Bool = false, reaction: Int = 0) -> PostPaneState.Mode {
        var d = PostDetail(postID: view.id, view: view, sessionName: "Films"); d.busy = busy; d.reactionSelection = reaction
        return .detail(d)
    }

    /// 1–4 switch panes in a post's detail too: a user switching panes must never publish a reaction.
    func testNumberKeysSwitchPanesInPostDetailAndNeverReact() {
        let view = F.post("p1", in: "s1", url: "https://example.com/v")
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        h.send(.keyPressed(.char("1"))) { $0.pane = .sessions }
        h.send(.keyPressed(.char("2"))) { $0.pane = .post }
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.keyPressed(.char("2"))) { $0.pane = .post }
        XCTAssertEqual(h.state.post.mode, self.detail(view), "the detail is still open, nothing was sent")
    }

    /// Issue 16 (8): the emoji picker searches by name or shortcode; Esc clears the search, then closes.
    func testEmojiPickerSearchesByNameAndShortcode() {
        let view = F.post("p1", in: "s1", url: "https://example.com/v")
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        h.send(.keyPressed(.char("e"))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0) }
        h.send(.keyPressed(.char("f"))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0, query: "f") }
        h.send(.keyPressed(.char("i"))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0, query: "fi") }
        XCTAssertEqual(AppReducer.emojiMatches("fi"), ["🔥", "🎬"], "fire, film")
        XCTAssertEqual(AppReducer.emojiMatches(":+1:"), ["👍"])
        h.send(.keyPressed(.right)) { $0.overlay = .emojiPicker(postID: "p1", selection: 1, query: "fi") }
        h.send(.keyPressed(.escape)) { $0.overlay = .emojiPicker(postID: "p1", selection: 0) }
        h.send(.textPasted("x"))
        h.send(.keyPressed(.char("h"))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0, query: "h") }
        h.send(.keyPressed(.backspace)) { $0.overlay = .emojiPicker(postID: "p1", selection: 0) }
        for (i, c) in "heart".enumerated() {
            h.send(.keyPressed(.char(c))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0, query: String("heart".prefix(i + 1))) }
        }
        h.send(.keyPressed(.enter), [.post(.react(postID: "p1", emoji: "❤️"))]) {
            $0.overlay = nil
            $0.post.mode = self.detail(view, busy: true)
            $0.status = StatusLine("sending ❤️…")
        }
    }

    func testPostDetailReactsOpensCopiesAndUsesThePicker() {
        let view = F.post("p1", in: "s1", url: "https://example.com/v", reactions: [ReactionSummary(emoji: "🔥", count: 2, mine: false, by: [F.bob, F.carol])])
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        // The one answer to a reaction shows it: the list, the feed and the post are read again.
        let reloads: [AppEffect] = [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: AppReducer.feedPage)), .post(.loadPost("p1"))]
        h.send(.keyPressed(.char("+")), [.post(.react(postID: "p1", emoji: "👍"))]) {
            $0.post.mode = self.detail(view, busy: true)
            $0.status = StatusLine("sending 👍…")
        }
        h.send(.keyPressed(.char("-")))  // one reaction at a time
        h.send(.post(.reactionSent(postID: "p1", sessionID: "s1", emoji: "👍", removed: false)), reloads) { $0.post.mode = self.detail(view); $0.status = StatusLine("reacted 👍", .success) }
        h.send(.keyPressed(.char("*")), [.post(.react(postID: "p1", emoji: "👀"))]) {
            $0.post.mode = self.detail(view, busy: true); $0.status = StatusLine("sending 👀…")
        }
        // A failure of other work leaves the waiting detail alone; this reaction's frees it.
        h.send(.failed(.react(postID: "other"), ClientError(.timeout, "x"))) { $0.status = StatusLine("x", .error) }
        h.send(.failed(.react(postID: "p1"), ClientError(.invalid, "you're no longer a member of this session."))) {
            $0.post.mode = self.detail(view); $0.status = StatusLine("you're no longer a member of this session.", .error)
        }
        // Enter toggles the selected existing reaction.
        h.send(.keyPressed(.enter), [.post(.react(postID: "p1", emoji: "🔥"))]) {
            $0.post.mode = self.detail(view, busy: true); $0.status = StatusLine("sending 🔥…")
        }
        h.send(.post(.reactionSent(postID: "p1", sessionID: "s1", emoji: "🔥", removed: true)), reloads) { $0.post.mode = self.detail(view); $0.status = StatusLine("removed 🔥", .success) }
        h.send(.keyPressed(.char("e"))) { $0.overlay = .emojiPicker(postID: "p1", selection: 0) }
        h.send(.keyPressed(.right)) { $0.overlay = .emojiPicker(postID: "p1", selection: 1) }
        h.send(.keyPressed(.down)) { $0.overlay = .emojiPicker(postID: "p1", selection: 9) }
        h.send(.keyPressed(.enter), [.post(.react(postID: "p1", emoji: AppReducer.emojiChoices[9]))]) {
            $0.overlay = nil
            $0.post.mode = self.detail(view, busy: true)
            $0.status = StatusLine("sending \(AppReducer.emojiChoices[9])…")
        }
        h.send(.post(.reactionSent(postID: "p1", sessionID: "s1", emoji: AppReducer.emojiChoices[9], removed: false)), reloads) {
            $0.post.mode = self.detail(view); $0.status = StatusLine("reacted \(AppReducer.emojiChoices[9])", .success)
        }
        h.send(.keyPressed(.char("o")), [.post(.openURL("https://example.com/v"))])
        h.send(.keyPressed(.char("y")), [.copy("https://example.com/v", label: "link")])
        h.send(.keyPressed(.char("Y")), [.copy(DeepLink.encode(url: "https://example.com/v"), label: "linkstr link")])
        // Only your own posts can be deleted.
        h.send(.keyPressed(.char("d"))) { $0.status = StatusLine(SendRuleError.notYourPost.description, .error) }
        // Tab still changes panes from here.
        h.send(.keyPressed(.tab), [.you(.loadIdentities)]) { $0.pane = .you; $0.status = nil }
    }

    func testDeletingYourOwnPostAsksFirst() {
        let mine = F.post("p2", in: "s1", by: F.me)
        var h = ReducerHarness(F.feed(films, posts: [mine]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p2")), .post(.markPostRead("p2"))]) { $0.post.mode = self.detail(mine); $0.pane = .post }
        h.send(.keyPressed(.char("d"))) { $0.overlay = .confirm(Confirmation(.deletePost("p2"), "delete this post for everyone? (y/n)")) }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("d"))) { $0.overlay = .confirm(Confirmation(.deletePost("p2"), "delete this post for everyone? (y/n)")) }
        h.send(.keyPressed(.char("y")), [.post(.deletePost("p2"))]) {
            $0.overlay = nil
            $0.post.mode = self.detail(mine, busy: true)
            $0.status = StatusLine("deleting…")
        }
        // The result closes the detail and says what the relays did; the feed and the list reload.
        h.send(.post(.postDeleted(postID: "p2", sessionID: "s1", warnings: ["ws://r kept a copy of its sealed envelope (it refused the deletion request: no)"])),
               [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.status = StatusLine("post deleted for everyone; ws://r kept a copy of its sealed envelope (it refused the deletion request: no)", .warning)
        }
        // A reload that was already on its way (a sync batch) finds no detail left to close: the result stays.
        h.send(.post(.postLoaded(postID: "p2", view: nil, sessionName: "")))
    }

    func testAPostDeletedElsewhereWhileOpenClosesWithANote() {
        let view = F.post("p1", in: "s1")
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        h.send(.post(.postLoaded(postID: "p1", view: nil, sessionName: ""))) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.status = StatusLine("that post is no longer available.", .error)
        }
    }

    func testReloadedDetailShowsNewReactions() {
        let view = F.post("p1", in: "s1")
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        let updated = F.post("p1", in: "s1", reactions: [ReactionSummary(emoji: "👍", count: 1, mine: false, by: [F.bob])])
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: [])), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50)), .post(.loadPost("p1"))])
        h.send(.post(.postLoaded(postID: "p1", view: updated, sessionName: "Films"))) { $0.post.mode = self.detail(updated) }
    }

    /// `R` in a post's detail fetches its title and picture again; never for a stranger's request; the
    /// answer merges what was found and says it.
    func testRefreshFetchesTheTitleAndPictureAgainButNeverForARequest() {
        let view = F.post("p1", in: "s1")
        var h = ReducerHarness(F.feed(films, posts: [view]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(view); $0.pane = .post }
        h.send(.keyPressed(.char("R")), [.post(.refreshPreview(view.post.url))]) { $0.status = StatusLine("refreshing the title and picture…") }
        let picture = Thumbnail(link: view.post.url, width: 640, height: 360, revision: 9)
        h.send(.post(.previewRefreshed(url: view.post.url, title: "A film", thumbnail: picture, error: nil))) {
            $0.linkTitles = [view.post.url: "A film"]
            $0.linkTitlesVersion = 1
            $0.thumbnails = [view.post.url: picture]
            $0.thumbnailsVersion = 1
            $0.status = StatusLine("refreshed the title and picture.")
        }
        h.send(.post(.previewRefreshed(url: view.post.url, title: nil, thumbnail: nil, error: ClientError(.timeout, "the site did not answer in time")))) {
            $0.status = StatusLine("could not refresh: the site did not answer in time", .error)
        }
        // A request's post: nothing is fetched.
        h.send(.post(.postLoaded(postID: "p1", view: view, sessionName: "Films", listed: false))) {
            var d = PostDetail(postID: "p1", view: view, sessionName: "Films")
            d.listed = false
            $0.post.mode = .detail(d)
        }
        h.send(.keyPressed(.char("R"))) { $0.status = StatusLine("this post is in a session request: accept the session first.", .error) }
    }

    /// `o` on a video plays it in this terminal when asked to (the loop's effect), else goes to the
    /// runner; a link that is no video always goes to the runner. The player's account is the status line.
    func testVideosPlayInTheTerminalWhenAskedAndThePlayerIsHeard() {
        let video = F.post("p1", in: "s1", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
        var h = ReducerHarness(F.feed(films, posts: [video]))
        h.send(.keyPressed(.enter), [.post(.loadPost("p1")), .post(.markPostRead("p1"))]) { $0.post.mode = self.detail(video); $0.pane = .post }
        h.send(.keyPressed(.char("o")), [.post(.openURL(video.post.url))]) { $0.playRequested = video.post.url }
        h.state.playsInTerminal = true
        h.send(.keyPressed(.char("o")), [.post(.playInTerminal(video.post.url))])
        h.send(.post(.playbackChanged(.starting(player: "mpv")))) {
            $0.status = StatusLine("starting mpv…")
            $0.playing = video.post.url
            $0.playRequested = nil
        }
        h.send(.post(.playbackChanged(.playing(title: "Night")))) { $0.status = StatusLine("playing: Night.") }
        h.send(.post(.playbackChanged(.ended))) { $0.status = StatusLine("playback ended.", .success); $0.playing = nil }
        h.send(.post(.playbackChanged(.failed(MpvEventReader.installYtdlp)))) { $0.status = StatusLine("could not play: " + MpvEventReader.installYtdlp, .error) }
        let page = F.post("p2", in: "s1", url: "https://example.com/page")
        XCTAssertEqual(AppReducer.open(h.state, page.post.url), .post(.openURL(page.post.url)))
    }
}
