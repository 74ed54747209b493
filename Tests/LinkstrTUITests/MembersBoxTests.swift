import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrTUI

/// Issue 32 (7): the members box (`m`) of a session someone else created listed our contacts beside its
/// members, with nothing to tell them apart. It lists the members only; the creator still sees contacts
/// to add, each with its [x] / [ ] mark.
final class MembersBoxTests: XCTestCase {
    typealias F = AppFixture
    let dave = F.key(4)

    private func box(_ session: SessionSummary, openFirst: Bool) -> [String] {
        let contacts = [Contact(pubkey: F.bob, alias: "Bob"), Contact(pubkey: F.carol, alias: "Carol"), Contact(pubkey: dave, alias: "Dave")]
        var state = openFirst ? F.feed(session, posts: [], contacts: contacts) : F.main(sessions: [session], contacts: contacts)
        _ = AppReducer.reduce(&state, .keyPressed(.char("m")))
        state.screen = ScreenSize(columns: 80, rows: 24)
        return AppView.render(state).lines
    }

    func testSomeoneElsesSessionListsItsMembersOnly() {
        let theirs = F.session("s1", "Bob's films", creator: F.bob, members: [F.bob, F.me, F.carol])
        for openFirst in [true] {
            let lines = box(theirs, openFirst: openFirst)
            let screen = lines.joined(separator: "\n")
            XCTAssertTrue(screen.contains("Members"), screen)
            XCTAssertTrue(lines.contains { $0.contains("Bob") } && lines.contains { $0.contains("Carol") }, screen)
            XCTAssertFalse(screen.contains("Dave"), "a contact who is not a member is not listed:\n\(screen)")
        }
        // From the list (`:members` on a row), with no feed open or another one open: the row's members.
        for openFirst in [true, false] {
            XCTAssertEqual(Set(AppReducer.memberCandidates(stateWithBox(theirs, openFirst: openFirst), form(theirs))), [F.bob, F.me, F.carol])
        }
        let other = F.session("s9", "Other", creator: F.bob, members: [F.bob, F.me])
        XCTAssertEqual(Set(AppReducer.memberCandidates(stateWithBox(other, openFirst: true), form(theirs))), [F.bob, F.me, F.carol],
                       "the box's own session, not the open one")
    }

    func testTheCreatorSeesContactsToAddMarkedApart() {
        let mine = F.session("s2", "My films", creator: F.me, members: [F.me, F.bob])
        let screen = box(mine, openFirst: true).joined(separator: "\n")
        XCTAssertTrue(screen.contains("[x] Bob"), screen)
        XCTAssertTrue(screen.contains("[ ] Carol") && screen.contains("[ ] Dave"), screen)
    }

    private func form(_ s: SessionSummary) -> MembersForm {
        MembersForm(sessionID: s.id, selected: Set(s.members), editable: s.creator == F.me)
    }

    private func stateWithBox(_ s: SessionSummary, openFirst: Bool) -> AppState {
        let contacts = [Contact(pubkey: F.bob), Contact(pubkey: F.carol), Contact(pubkey: dave)]
        return openFirst ? F.feed(s, posts: [], contacts: contacts) : F.main(sessions: [s], contacts: contacts)
    }
}
