import LinkstrApp
import LinkstrDomain
import XCTest

/// Issue 30 in the app: the composer's warning before sending, each member's delivery under our post,
/// Settings' blocked relays, and `:doctor`.
final class DeliveryReducerTests: XCTestCase {
    typealias F = Fixture
    let films = F.session("s1", "Films", creator: F.me, members: [F.me, F.bob])

    func testTheComposerWarnsAboutMembersItWouldNotReach() {
        var h = ReducerHarness(F.feed(films, posts: []))
        h.send(.keyPressed(.char("c")), [.post(.checkReach(sessionID: "s1"))]) {
            $0.post.mode = .composer(ComposerState(sessionID: "s1", sessionName: "Films"))
            $0.pane = .post
        }
        h.send(.post(.reachChecked(sessionID: "s1", warnings: ["Bob cannot be reached: every relay they read is one you blocked"]))) {
            var c = ComposerState(sessionID: "s1", sessionName: "Films")
            c.reachWarnings = ["Bob cannot be reached: every relay they read is one you blocked"]
            $0.post.mode = .composer(c)
        }
        h.send(.post(.reachChecked(sessionID: "other", warnings: ["x"])), [], { _ in })  // another session's answer changes nothing
    }

    func testDeliveriesOfTheShownPostAreShownAndReadAgainWhenRecorded() {
        var h = ReducerHarness(F.main(sessions: [films]))
        h.state.post.mode = .detail(PostDetail(postID: "p1", view: nil, sessionName: "Films"))
        let rows = [MemberDeliveryRow(member: F.bob, outcome: .notDelivered(why: "wss://x: refused"))]
        h.send(.post(.deliveriesLoaded(postID: "p1", rows))) {
            var d = PostDetail(postID: "p1", view: nil, sessionName: "Films")
            d.deliveries = rows
            $0.post.mode = .detail(d)
        }
        h.send(.post(.deliveriesLoaded(postID: "p2", []))) { _ in }
        h.send(.post(.deliveriesChanged(["p9"]))) { _ in }
        h.send(.post(.deliveriesChanged(["p0", "p1"])), [.post(.loadPost("p1"))])
    }

    func testBlockedRelaysAreListedBlockedAndUnblockedFromSettings() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.settings(.relaysChanged([RelayRow(url: "wss://ours.example", health: .connected)]))) {
            $0.settings.relays = [RelayRow(url: "wss://ours.example", health: .connected)]
        }
        h.send(.keyPressed(.char("b")), [.settings(.loadBlockedRelays)]) { $0.settings.ownList = OwnRelayListState(.blocked) }
        h.send(.settings(.blockedRelaysLoaded(["wss://spam.example"], pending: false))) {
            $0.settings.ownList?.relays = ["wss://spam.example"]
            $0.settings.ownList?.loaded = true
        }
        h.send(.keyPressed(.char("a"))) { $0.settings.ownList?.adding = TextField("wss://") }
        h.type("ours.example") { $0.settings.ownList?.adding = TextField("wss://ours.example") }
        h.send(.keyPressed(.enter)) { $0.status = StatusLine("wss://ours.example is one of your relays: remove it first.", .error) }
        h.send(.keyPressed(.ctrl("u"))) { $0.settings.ownList?.adding = TextField() }
        h.type("nope") { $0.settings.ownList?.adding = TextField("nope") }
        h.send(.keyPressed(.enter)) { $0.status = StatusLine(RelayURL.invalidMessage, .error) }
        h.send(.keyPressed(.ctrl("u"))) { $0.settings.ownList?.adding = TextField() }
        h.type("wss://bad.example") { $0.settings.ownList?.adding = TextField("wss://bad.example") }
        h.send(.keyPressed(.enter), [.settings(.blockRelay("wss://bad.example"))]) {
            $0.settings.ownList?.adding = nil
            $0.status = StatusLine("blocking wss://bad.example…")
        }
        h.send(.settings(.blockedRelayEdited(url: "wss://bad.example", blocked: true, note: nil)), [.settings(.loadBlockedRelays)]) {
            $0.status = StatusLine("blocked wss://bad.example: it is never dialled.", .success)
        }
        h.send(.keyPressed(.char("x")), [.settings(.unblockRelay("wss://spam.example"))]) { $0.status = StatusLine("unblocking wss://spam.example…") }
        h.send(.keyPressed(.escape)) { $0.settings.ownList = nil }
    }

    func testInboxRelaysAreChosenFromSettingsAndResetToTheRelaysWeUse() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.keyPressed(.char("i")), [.settings(.loadInboxRelays)]) { $0.settings.ownList = OwnRelayListState(.inbox) }
        h.send(.settings(.inboxRelaysLoaded(["wss://ours.example"], chosen: false))) {
            $0.settings.ownList?.relays = ["wss://ours.example"]
            $0.settings.ownList?.loaded = true
        }
        h.send(.keyPressed(.char("R")))  // nothing chosen: nothing to reset
        h.send(.keyPressed(.char("a"))) { $0.settings.ownList?.adding = TextField("wss://") }
        h.type("inbox.example") { $0.settings.ownList?.adding = TextField("wss://inbox.example") }
        h.send(.keyPressed(.enter), [.settings(.setInboxRelays(["wss://ours.example", "wss://inbox.example"]))]) {
            $0.settings.ownList?.adding = nil
            $0.status = StatusLine("reading gift wraps from wss://inbox.example too…")
        }
        h.send(.settings(.inboxRelaysSaved(note: nil)), [.settings(.loadInboxRelays)]) {
            $0.status = StatusLine("inbox relays published (kind 10050).", .success)
        }
        h.send(.settings(.inboxRelaysLoaded(["wss://ours.example", "wss://inbox.example"], chosen: true))) {
            $0.settings.ownList?.relays = ["wss://ours.example", "wss://inbox.example"]
            $0.settings.ownList?.chosen = true
        }
        h.send(.keyPressed(.char("x")), [.settings(.setInboxRelays(["wss://inbox.example"]))]) {
            $0.status = StatusLine("no longer reading gift wraps from wss://ours.example…")
        }
        h.send(.keyPressed(.char("R")), [.settings(.setInboxRelays(nil))]) { $0.status = StatusLine("your inbox is the relays you use again…") }
        h.send(.keyPressed(.char("i"))) { $0.settings.ownList = nil }
    }

    func testDoctorShowsItsReportScrolledAndCloses() {
        var h = ReducerHarness(F.feed(films, posts: []))
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.type("doctor") { $0.overlay = .commandLine(TextField("doctor")) }
        h.enterCommand([.settings(.runDoctor(sessionID: "s1", width: 72))]) { $0.overlay = .doctor(DoctorReport(sessionID: "s1")) }
        let lines = (0..<40).map { "line \($0)" }
        h.send(.settings(.doctorReported(sessionID: "s1", lines: lines))) {
            var r = DoctorReport(sessionID: "s1")
            r.lines = lines
            r.loading = false
            $0.overlay = .doctor(r)
        }
        h.send(.keyPressed(.char("j"))) {
            guard case .doctor(var r) = $0.overlay else { return }
            r.scroll = 1
            $0.overlay = .doctor(r)
        }
        h.send(.keyPressed(.end)) {
            guard case .doctor(var r) = $0.overlay else { return }
            r.scroll = 40 - 16
            $0.overlay = .doctor(r)
        }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
    }
}
