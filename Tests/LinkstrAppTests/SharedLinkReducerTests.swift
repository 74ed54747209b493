import LinkstrApp
import LinkstrDomain
import XCTest

/// Issue 33 (5): the "Shared link" box picks the session by typing part of its name; Enter with no
/// match starts a session of that name and the link waits for it; Esc clears the typing, then asks.
final class SharedLinkReducerTests: XCTestCase {
    typealias F = Fixture
    let films = F.session("s1", "Films", at: 3_000)
    let music = F.session("s2", "Music", at: 2_000)
    let request = F.session("s3", "Fishing trip", creator: F.bob, members: [F.bob, F.me], at: 1_500, standing: .request)
    let watching = F.session("s4", "Watching only", creator: F.bob, members: [F.bob], isMember: false, at: 1_000)
    let family = F.session("s5", "Family films", at: 500)
    let link = DeepLink.Link(action: .share, url: "https://example.com/v", note: "look")

    /// The composer the link opens: link and note filled in, the note focused.
    func composer(_ sessionID: String, _ name: String) -> ComposerState {
        var c = ComposerState(sessionID: sessionID, sessionName: name)
        c.link = TextField("https://example.com/v")
        c.note = TextField("look")
        c.focus = .note
        return c
    }

    func testTypingFiltersTheSessionsAndEnterSharesIntoTheChosenOne() {
        var h = ReducerHarness(F.main(sessions: [films, music, request, watching, family]))
        var picker = SharedLinkPicker(link, selecting: "s1", in: h.state.sessions)
        h.send(.linkReceived(link)) { $0.overlay = .sharedLink(picker) }
        // Only sessions a post can go into: no request, none the user only watches.
        XCTAssertEqual(picker.choices(in: h.state.sessions).map(\.id), ["s1", "s2", "s5"])
        // Letters are typed into the filter (they are not shortcuts here): "f" keeps both film sessions.
        picker.filter = TextField("fi")
        picker.selection = 0
        h.type("fi") { $0.overlay = .sharedLink(picker) }
        XCTAssertEqual(picker.choices(in: h.state.sessions).map(\.name), ["Films", "Family films"])
        picker.selection = 1
        h.send(.keyPressed(.down)) { $0.overlay = .sharedLink(picker) }
        h.send(.keyPressed(.down)) { _ in }  // the last choice stays chosen
        h.send(.keyPressed(.ctrl("o")), [.post(.openURL("https://example.com/v"))]) { _ in }
        h.send(.keyPressed(.ctrl("y")), [.copy("https://example.com/v", label: "link")]) { _ in }
        h.send(.keyPressed(.enter), [.post(.checkReach(sessionID: "s5"))]) {
            $0.overlay = nil
            $0.post.mode = .composer(self.composer("s5", "Family films"))
            $0.pane = .post
        }
    }

    func testEscClearsTheTypingThenAsksAndNoBringsTheBoxBack() {
        var h = ReducerHarness(F.main(sessions: [films, music]))
        var picker = SharedLinkPicker(link, selecting: "s1", in: h.state.sessions)
        h.send(.linkReceived(link)) { $0.overlay = .sharedLink(picker) }
        picker.filter = TextField("mu")
        picker.selection = 0
        h.send(.textPasted("mu")) { $0.overlay = .sharedLink(picker) }
        picker.filter = TextField()
        h.send(.keyPressed(.escape)) { $0.overlay = .sharedLink(picker) }
        h.send(.keyPressed(.escape)) {
            $0.overlay = .confirm(Confirmation(.discardSharedLink(self.link), "discard the shared link https://example.com/v? (y/n)"))
        }
        h.send(.keyPressed(.char("n"))) { $0.overlay = .sharedLink(SharedLinkPicker(self.link, in: $0.sessions)) }
        h.send(.keyPressed(.escape)) { $0.overlay = .confirm(Confirmation(.discardSharedLink(self.link), "discard the shared link https://example.com/v? (y/n)")) }
        h.send(.keyPressed(.char("y"))) { $0.overlay = nil; $0.status = StatusLine("shared link discarded.") }
    }

    func testNoMatchStartsASessionOfThatNameAndTheLinkWaitsForIt() {
        var h = ReducerHarness(F.main(sessions: [films]))
        var picker = SharedLinkPicker(link, selecting: "s1", in: h.state.sessions)
        h.send(.linkReceived(link)) { $0.overlay = .sharedLink(picker) }
        picker.filter = TextField("Cats ")
        picker.selection = 0
        h.type("Cats ") { $0.overlay = .sharedLink(picker) }
        var form = NewSessionForm()
        form.name = TextField("Cats")
        form.sharing = link
        h.send(.keyPressed(.enter)) { $0.overlay = .newSession(form) }
        // Esc in that form is not the end of the link: its box comes back.
        h.send(.keyPressed(.escape)) { $0.overlay = .sharedLink(SharedLinkPicker(self.link, in: $0.sessions)) }
        picker.filter = TextField("Cats")
        h.send(.textPasted(" Cats\n")) { $0.overlay = .sharedLink(picker) }
        h.send(.keyPressed(.enter)) { $0.overlay = .newSession(form) }
        form.busy = true
        h.send(.keyPressed(.enter), [.sessions(.createSession(name: "Cats", members: []))]) { $0.overlay = .newSession(form) }
        h.send(.sessions(.sessionCreated(sessionID: "s9")), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s9", limit: AppReducer.feedPage))]) {
            $0.overlay = nil
            $0.sessions.open = SessionFeed(sessionID: "s9")
            $0.post.mode = .composer(self.composer("s9", "Cats"))
            $0.pane = .post
            $0.status = StatusLine("session created: write a note and press Enter to share the link.", .success)
        }
    }

    func testTheBoxOpensOnTheActiveListWhereverTheUserWas() {
        var state = F.main(sessions: [films])
        state.sessions.list = .requests
        state.sessions.rows = [request]
        var h = ReducerHarness(state)
        h.send(.linkReceived(link), [.sessions(.loadSessions(.active))]) {
            $0.sessions.list = .active
            $0.overlay = .sharedLink(SharedLinkPicker(self.link, in: $0.sessions))
        }
    }

    /// Issue 53 (6.7): a second link handed in while the first one's box was open replaced it. Now it
    /// waits (said), and its box opens once the first is done: discarded, or sent from its composer.
    func testALinkHandedInWhileAnotherIsOpenWaitsItsTurn() {
        let second = DeepLink.Link(action: .share, url: "https://example.com/w", note: nil)
        let third = DeepLink.Link(action: .share, url: "https://example.com/x", note: nil)
        var h = ReducerHarness(F.main(sessions: [films, music]))
        let picker = SharedLinkPicker(link, selecting: "s1", in: h.state.sessions)
        h.send(.linkReceived(link)) { $0.overlay = .sharedLink(picker) }
        h.send(.linkReceived(second)) {
            $0.waitingLinks = [second]
            $0.status = StatusLine("1 more shared link waiting: shown when this one is done")
        }
        h.send(.keyPressed(.escape)) { $0.overlay = .confirm(Confirmation(.discardSharedLink(self.link), "discard the shared link https://example.com/v? (y/n)")) }
        h.send(.linkReceived(third)) {
            $0.waitingLinks = [second, third]
            $0.status = StatusLine("2 more shared links waiting: shown when this one is done")
        }
        h.send(.keyPressed(.char("y"))) {
            $0.overlay = .sharedLink(SharedLinkPicker(second, selecting: "s1", in: $0.sessions))
            $0.waitingLinks = [third]
            $0.status = StatusLine("shared link discarded.")
        }
        // Shared into Films: the third waits while the composer is open, and comes once it is left.
        h.send(.keyPressed(.enter), [.post(.checkReach(sessionID: "s1"))]) {
            $0.overlay = nil
            var c = ComposerState(sessionID: "s1", sessionName: "Films")
            c.link = TextField("https://example.com/w")
            c.focus = .note
            $0.post.mode = .composer(c)
            $0.pane = .post
        }
        XCTAssertEqual(h.state.waitingLinks, [third])
        _ = AppReducer.reduce(&h.state, .keyPressed(.escape))  // the draft kept, the composer closed
        if case .composer = h.state.post.mode { XCTFail("the composer is still open") }
        XCTAssertEqual(h.state.overlay.flatMap { if case .sharedLink(let p) = $0 { return p.link } else { return nil } }, third)
        XCTAssertEqual(h.state.waitingLinks, [])
    }
}
