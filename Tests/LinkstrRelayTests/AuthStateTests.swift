import LinkstrRelay
import NostrProtocol
import XCTest

/// NIP-42 as a pure state machine: each distinct challenge answered once, a bounded number per minute,
/// subscriptions re-installed after the first accepted AUTH only.
final class AuthStateTests: XCTestCase {
    func id(_ n: Int) -> EventID { EventID(hex: String(repeating: String(n % 10), count: 64))! }

    func testAChallengeIsAnsweredOnceAndSubscriptionsAreReinstalledOnce() {
        var a = AuthState()
        XCTAssertEqual(a.challenged("c1", now: 0), .sign("c1"))
        a.sent(id(1), for: "c1", now: 0)
        XCTAssertEqual(a.challenged("c1", now: 1), .none, "the same challenge again: nothing")
        XCTAssertEqual(a.challenged("c2", now: 1), .none, "an AUTH is in flight")
        XCTAssertNil(a.answered(id(9), accepted: true), "not our AUTH")
        XCTAssertEqual(a.answered(id(1), accepted: true), .authenticated(resubscribeAll: true))
        XCTAssertTrue(a.authenticated)
        XCTAssertEqual(a.challenged("c3", now: 2), .none, "authenticated: a new challenge is kept, not answered")
        XCTAssertEqual(a.needed(now: 2), .sign("c3"), "until the relay refuses something for want of AUTH")
        a.sent(id(3), for: "c3", now: 2)
        XCTAssertEqual(a.answered(id(3), accepted: true), .authenticated(resubscribeAll: false), "later AUTHs re-send only what was refused")
        XCTAssertEqual(a.needed(now: 3), .none, "the current challenge is answered already")
    }

    func testARelayThatKeepsIssuingChallengesIsAnAuthLoop() {
        var a = AuthState()
        var signed = 0
        var now = 0.0
        var decision = a.challenged("c0", now: now)
        while case .sign(let c) = decision {
            signed += 1
            a.sent(id(signed), for: c, now: now)
            _ = a.answered(id(signed), accepted: true)
            now += 0.01
            // The relay issues a new challenge and refuses the next REQ with auth-required.
            _ = a.challenged("c\(signed)", now: now)
            decision = a.needed(now: now)
        }
        XCTAssertEqual(decision, .loop)
        XCTAssertEqual(signed, AuthState.maxChallenges)
        // After the window, a fresh connection (a new state) may authenticate again.
        var fresh = AuthState()
        XCTAssertEqual(fresh.challenged("x", now: now + AuthState.window + 1), .sign("x"))
    }

    func testChallengesSpreadOverTimeAreNotALoop() {
        var a = AuthState()
        for n in 0..<20 {
            let now = Double(n) * (AuthState.window / 2)
            let first = a.challenged("c\(n)", now: now)
            XCTAssertEqual(first == .none ? a.needed(now: now) : first, .sign("c\(n)"), "challenge \(n)")
            a.sent(id(n), for: "c\(n)", now: now)
            _ = a.answered(id(n), accepted: true)
        }
    }

    func testARefusedAuthIsReported() {
        var a = AuthState()
        XCTAssertEqual(a.challenged("c", now: 0), .sign("c"))
        a.sent(id(1), for: "c", now: 0)
        XCTAssertEqual(a.answered(id(1), accepted: false), .refused)
        XCTAssertFalse(a.authenticated)
        XCTAssertEqual(a.needed(now: 1), .none, "a refused challenge is not signed again")
    }
}
