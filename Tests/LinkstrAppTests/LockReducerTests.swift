import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// The idle lock, decided by the reducer: `.idled`, ^X and `:lock` lock the main screen; by default
/// nothing of the account is left in the state the screen is drawn from, and the account closes; unlocked,
/// the app goes back where it was. With `lock_keeps_syncing` only the screen locks, and news rings as
/// "new activity" only.
final class LockReducerTests: XCTestCase {
    typealias F = AppFixture

    func testIdleLockClearsTheScreenAndUnlockingGoesBack() {
        let films = F.session("s1", "Films")
        var state = F.feed(films, posts: [F.post("p1", in: "s1", note: "secret plans"), F.post("p2", in: "s1")])
        _ = AppReducer.reduce(&state, .keyPressed(.char("j")))
        let effects = AppReducer.reduce(&state, .idled)
        XCTAssertEqual(effects, [.lock(keepsAccountOpen: false)])
        XCTAssertEqual(state.phase, .unlock(UnlockState(pubkey: F.me, npub: F.meInfo.npub, locked: true)))
        XCTAssertNil(state.identity)
        XCTAssertNil(state.sessions.open)
        XCTAssertTrue(state.sessions.rows.isEmpty)
        XCTAssertEqual(state.lockedPosition, UIPosition(pane: "sessions", sessionID: "s1", postID: "p2"))
        // Keys go to the passphrase field; Enter unlocks with it.
        for ch in "pass" { _ = AppReducer.reduce(&state, .keyPressed(.char(ch))) }
        XCTAssertEqual(AppReducer.reduce(&state, .keyPressed(.enter)), [.onboarding(.unlock(passphrase: "pass"))])
        // The account opened again: back to the session and the post it was on, once the list is there.
        _ = AppReducer.reduce(&state, .identityReady(F.meInfo, inMemory: false))
        XCTAssertEqual(state.phase, .main)
        XCTAssertNil(state.lockedPosition)
        XCTAssertEqual(state.pendingPosition, UIPosition(pane: "sessions", sessionID: "s1", postID: "p2"))
        var listing = SessionListing(list: .active, rows: [films], hasArchived: false, requestCount: 0)
        listing.unreadActive = []
        let reopened = AppReducer.reduce(&state, .sessions(.sessionsLoaded(listing)))
        XCTAssertEqual(reopened, [.sessions(.loadFeed(sessionID: "s1", limit: AppReducer.feedPage))])
        XCTAssertEqual(state.sessions.open?.selectWhenLoaded, "p2")
    }

    func testCtrlXAndLockCommandKeepADraftAndAnInMemoryAccountIsNotLocked() {
        let films = F.session("s1", "Films")
        var state = F.feed(films, posts: [])
        _ = AppReducer.reduce(&state, .keyPressed(.char("c")))
        for ch in "https://example.com/x" { _ = AppReducer.reduce(&state, .keyPressed(.char(ch))) }
        let draft = Draft(link: "https://example.com/x", note: "")
        XCTAssertEqual(AppReducer.reduce(&state, .keyPressed(AppReducer.lockKey)),
                       [.sessions(.saveDraft(sessionID: "s1", draft)), .lock(keepsAccountOpen: false)], "^X locks even in a field")
        if case .unlock(let u) = state.phase { XCTAssertTrue(u.locked) } else { XCTFail("\(state.phase)") }

        var command = F.main(sessions: [films])
        _ = AppReducer.reduce(&command, .keyPressed(.char(":")))
        for ch in "lock" { _ = AppReducer.reduce(&command, .keyPressed(.char(ch))) }
        XCTAssertEqual(AppReducer.reduce(&command, .keyPressed(.enter)), [.saveCommandHistory(["lock"]), .lock(keepsAccountOpen: false)])
        XCTAssertNil(command.overlay)

        var memory = F.main(sessions: [films])
        memory.inMemory = true
        XCTAssertEqual(AppReducer.reduce(&memory, .idled), [])
        XCTAssertEqual(memory.phase, .main)
        XCTAssertEqual(memory.status?.kind, .warning)
    }

    func testKeepsSyncingLocksOnlyTheScreenAndNewsSaysNothing() {
        let films = F.session("s1", "Films", members: [F.me, F.bob])
        var state = F.feed(films, posts: [])
        state.lockKeepsSyncing = true
        state.terminalFocused = false
        XCTAssertEqual(AppReducer.reduce(&state, .idled), [.lock(keepsAccountOpen: true)])
        XCTAssertNotNil(state.sessions.open, "the account's view stays (sync goes on)")
        let rung = AppReducer.reduce(&state, .sessions(.messagesArrived(touchedSessions: ["s1"], notifications: [.post(postID: "p9", sessionID: "s1", author: F.bob)],
                                                                        details: ["p9": NewsDetail(sessionName: "Films", url: "https://example.com/", note: "x")])))
        XCTAssertTrue(rung.contains(.notify(title: "new activity", body: "", via: .both)), "\(rung)")
        XCTAssertFalse(rung.contains { if case .notify(let title, _, _) = $0 { title.contains("Films") || title.contains("shared") } else { false } })
        _ = AppReducer.reduce(&state, .lockLifted)
        XCTAssertEqual(state.phase, .main)
        XCTAssertEqual(state.sessions.open?.sessionID, "s1", "back where it was")
    }
}
