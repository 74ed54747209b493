import LinkstrDomain
import XCTest

/// Who waits as a request (issue 18): the rule's whole table, and the lists made from it.
final class SessionRequestRuleTests: XCTestCase {
    let me = "aa", friend = "bb", stranger = "cc"

    func testStandingForEveryCreatorDecisionAndSetting() {
        let on = SessionRequestPolicy(), off = SessionRequestPolicy(holdsStrangers: false)
        let contacts: Set<String> = [friend]
        for policy in [on, off] {
            XCTAssertEqual(policy.standing(creator: me, me: me, contacts: contacts, decision: .undecided), .listed)
            XCTAssertEqual(policy.standing(creator: friend, me: me, contacts: contacts, decision: .undecided), .listed)
            for creator in [me, friend, stranger, ""] {
                XCTAssertEqual(policy.standing(creator: creator, me: me, contacts: contacts, decision: .accepted), .listed)
                XCTAssertEqual(policy.standing(creator: creator, me: me, contacts: contacts, decision: .declined), .declined)
            }
        }
        XCTAssertEqual(on.standing(creator: stranger, me: me, contacts: contacts, decision: .undecided), .request)
        XCTAssertEqual(on.standing(creator: "", me: me, contacts: contacts, decision: .undecided), .request, "an unknown creator is a stranger")
        XCTAssertEqual(off.standing(creator: stranger, me: me, contacts: contacts, decision: .undecided), .listed)
    }

    func testListingSortsRowsAndCountsOnlyWaitingRequests() {
        func row(_ id: String, _ creator: String, archived: Bool = false, _ decision: RequestDecision = .undecided) -> SessionSummary {
            var s = SessionSummary(id: id, name: id, creator: creator, members: [creator, me], isMember: true, archived: archived,
                                   unread: true, lastActivityAt: 1)
            s.decision = decision
            return s
        }
        let all = [row("declined", stranger, .declined), row("mine", me), row("request", stranger), row("old", friend, archived: true),
                   row("accepted", stranger, .accepted)]
        let policy = SessionRequestPolicy()
        let active = SessionListing.make(.active, from: all, me: me, contacts: [friend], policy: policy)
        XCTAssertEqual(active.rows.map(\.id), ["mine", "accepted"])
        XCTAssertTrue(active.hasArchived)
        XCTAssertEqual(active.requestCount, 1)
        XCTAssertEqual(SessionListing.make(.archived, from: all, me: me, contacts: [friend], policy: policy).rows.map(\.id), ["old"])
        let requests = SessionListing.make(.requests, from: all, me: me, contacts: [friend], policy: policy)
        XCTAssertEqual(requests.rows.map(\.id), ["request", "declined"], "waiting ones first")
        XCTAssertEqual(requests.rows.map(\.showsUnread), [false, false])
        XCTAssertEqual(active.rows.map(\.showsUnread), [true, true])
        // For "next unread" and the archive hint: active and archived rows with unread posts, never requests.
        XCTAssertEqual(requests.unreadActive.map(\.id), ["mine", "accepted"], "whichever list is shown")
        XCTAssertEqual(active.archivedUnread, 1)
    }
}
