import LinkstrRelay
import NostrProtocol
import XCTest

/// One relay's connection as a pure state machine, driven with a fake clock (seconds as numbers), a
/// fixed jitter and no socket: what it asks the transport to do is what is checked (issue 12).
final class RelayMachineTests: XCTestCase {
    typealias A = RelayMachine.Action
    func id(_ n: Int) -> EventID { EventID(hex: String(repeating: String(n % 10), count: 64))! }

    /// A machine whose socket is open (generation 1).
    func connected(_ info: RelayInformation? = nil) -> RelayMachine {
        var m = RelayMachine(url: "wss://r.example", enabled: true)
        XCTAssertEqual(m.connect(), [.open(generation: 1, fetchInformation: true), .status])
        XCTAssertEqual(m.opened(generation: 1, information: info, now: 0), [.sendSubscriptions, .status, .ready])
        XCTAssertEqual(m.status, .connected)
        return m
    }

    func testReconnectsBackOffWithOneTimerAndStartOverAfterAGoodConnection() {
        var m = connected()
        var delays = [Double]()
        for g in 1...7 {
            let actions = m.failed(generation: g, reason: "connection refused", unit: 0.5)
            XCTAssertEqual(Array(actions.prefix(3)), [.close, .dropPublishes, .status])
            guard case .startReconnectTimer(let timerGeneration, let seconds)? = actions.last else { return XCTFail("no timer: \(actions)") }
            XCTAssertEqual(timerGeneration, g)
            delays.append(seconds)
            XCTAssertEqual(m.status, .failed)
            XCTAssertEqual(m.lastError, "connection refused")
            XCTAssertTrue(m.reconnectPending)
            // A stale timer or a stale socket's failure does nothing.
            XCTAssertEqual(m.reconnectDue(generation: g - 1), [])
            XCTAssertEqual(m.failed(generation: g - 1, reason: "old", unit: 0.5), [])
            XCTAssertEqual(m.reconnectDue(generation: g), [.open(generation: g + 1, fetchInformation: true), .status])
            XCTAssertEqual(m.reconnectDue(generation: g), [], "the timer fires once")
        }
        XCTAssertEqual(delays, [1, 2, 4, 8, 16, 16, 16], "1, 2, 4, 8, 16 s, then 16 s (jitter at its middle)")
        // Jitter: ±20 % at the ends of the unit interval.
        XCTAssertEqual(Backoff().delay(attempt: 0, unit: 0), 0.8, accuracy: 1e-9)
        XCTAssertEqual(Backoff().delay(attempt: 4, unit: 0.999_999), 19.2, accuracy: 1e-4)

        // A good connection starts the backoff over.
        _ = m.opened(generation: 8, information: nil, now: 100)
        XCTAssertEqual(m.stats.connects, 2)
        XCTAssertEqual(m.failed(generation: 8, reason: "closed", unit: 0.5).last, .startReconnectTimer(generation: 8, seconds: 1))
    }

    /// Issue 32 (13): a relay that breaks every connection at once (a message over the limit) was
    /// reconnected every second, because each open started the backoff over.
    func testARelayThatBreaksTheProtocolKeepsBackingOffAcrossOpens() {
        var m = connected()
        var delays = [Double](), now = 0.0
        for g in 1...5 {
            let actions = m.brokeProtocol(generation: g, reason: "the relay sent a message larger than 4 MiB", now: now, unit: 0.5)
            guard case .startReconnectTimer(_, let seconds)? = actions.last else { return XCTFail("no timer: \(actions)") }
            XCTAssertEqual(m.lastError, "the relay sent a message larger than 4 MiB; trying again later.")
            delays.append(seconds)
            now += seconds
            _ = m.reconnectDue(generation: g)
            _ = m.opened(generation: g + 1, information: nil, now: now)
        }
        XCTAssertEqual(delays, [1, 2, 4, 8, 16])
        // A connection that lasts starts over.
        _ = m.failed(generation: 6, reason: "closed", unit: 0.5)
        _ = m.reconnectDue(generation: 6)
        _ = m.opened(generation: 7, information: nil, now: now + 1_000)
        XCTAssertEqual(m.failed(generation: 7, reason: "closed", unit: 0.5).last, .startReconnectTimer(generation: 7, seconds: 1))
    }

    func testDisablingClosesAndNeverReconnectsAndAnOldSocketIsClosedOnArrival() {
        var m = connected()
        XCTAssertEqual(m.setEnabled(false), [.close, .dropPublishes, .status])
        XCTAssertEqual(m.status, .disabled)
        XCTAssertFalse(m.failed(generation: m.generation, reason: "late", unit: 0.5).contains { if case .startReconnectTimer = $0 { true } else { false } })
        XCTAssertEqual(m.connect(), [], "a disabled relay does not connect")
        // Enabled again: connects at once; a socket of the earlier attempt is closed when it arrives.
        XCTAssertEqual(m.setEnabled(true), [.open(generation: 3, fetchInformation: true), .status])
        XCTAssertEqual(m.opened(generation: 2, information: nil, now: 1), [.close])
        XCTAssertEqual(m.opened(generation: 3, information: .unknown, now: 1), [.sendSubscriptions, .status, .ready])
        XCTAssertEqual(m.connect(), [.open(generation: 4, fetchInformation: false), .status], "NIP-11 is fetched once")
    }

    func testAuthOnChallengeResubscribesOnceAndTakesSilenceAsYes() {
        var m = connected()
        XCTAssertEqual(m.challenged("c1", now: 1, unit: 0.5), [.authenticate(challenge: "c1")])
        XCTAssertEqual(m.authSent(id(1), challenge: "c1", now: 1), [.startAuthTimer(generation: 1, eventID: id(1), seconds: 1.5)])
        XCTAssertEqual(m.stats.authsSent, 1)
        XCTAssertEqual(m.challenged("c1", now: 1.1, unit: 0.5), [], "a challenge is answered once")
        XCTAssertEqual(m.authTimerFired(generation: 1, eventID: id(2)), [], "not our AUTH")
        XCTAssertEqual(m.authTimerFired(generation: 1, eventID: id(1)), [.sendSubscriptions, .status], "no OK in time: accepted")
        XCTAssertTrue(m.snapshot.authenticated)
        XCTAssertEqual(m.authAnswered(id(1), accepted: true, message: RelayStatusMessage("")), [], "answered already")
        XCTAssertEqual(m.challenged("c2", now: 2, unit: 0.5), [], "authenticated: kept for when something is refused")
    }

    func testAuthRequiredRefusalsAreSentAgainOnceAfterAuth() {
        var m = connected()
        let req = #"["REQ","live",{"kinds":[1059]}]"#
        // Refused before any challenge: held; the challenge that follows is answered.
        XCTAssertEqual(m.refusedForAuth(key: "REQ live", resend: req, canSign: true, now: 1, unit: 0.5), [])
        XCTAssertNil(m.refusedForAuth(key: "REQ live", resend: req, canSign: true, now: 1, unit: 0.5), "each message is retried once")
        XCTAssertNil(m.refusedForAuth(key: "EVENT e", resend: "[]", canSign: false, now: 1, unit: 0.5), "without a key the refusal stands")
        XCTAssertEqual(m.challenged("c1", now: 1, unit: 0.5), [.authenticate(challenge: "c1")])
        _ = m.authSent(id(1), challenge: "c1", now: 1)
        XCTAssertEqual(m.authAnswered(id(1), accepted: true, message: RelayStatusMessage("")), [.sendSubscriptions, .send(req), .status])
        // Once authenticated, a later refusal is sent again at once when the current challenge was answered.
        XCTAssertEqual(m.refusedForAuth(key: "EVENT 1", resend: "[\"EVENT\"]", canSign: true, now: 2, unit: 0.5), [.send("[\"EVENT\"]")])
        // A new connection retries what its relay refuses again (the old one's retries were spent).
        _ = m.failed(generation: 1, reason: "closed", unit: 0.5)
        _ = m.connect()
        _ = m.opened(generation: 2, information: nil, now: 3)
        XCTAssertEqual(m.refusedForAuth(key: "REQ live", resend: req, canSign: true, now: 3, unit: 0.5), [], "held until this connection's AUTH")
        XCTAssertNil(m.refusedForAuth(key: "REQ live", resend: req, canSign: true, now: 3, unit: 0.5), "once per connection")
        // A refused AUTH says why and drops what waited.
        var n = connected()
        _ = n.refusedForAuth(key: "REQ live", resend: req, canSign: true, now: 1, unit: 0.5)
        _ = n.challenged("c1", now: 1, unit: 0.5)
        _ = n.authSent(id(1), challenge: "c1", now: 1)
        XCTAssertEqual(n.authAnswered(id(1), accepted: false, message: RelayStatusMessage("restricted: not on the list")), [.status])
        XCTAssertEqual(n.lastError, "authentication refused: not on the list")
        // A NOTICE asking for AUTH answers the current challenge.
        var o = connected()
        _ = o.challenged("c9", now: 1, unit: 0.5)
        _ = o.authSent(id(9), challenge: "c9", now: 1)
        _ = o.authAnswered(id(9), accepted: true, message: RelayStatusMessage(""))
        _ = o.challenged("c10", now: 2, unit: 0.5)
        XCTAssertEqual(o.noticeAsksForAuth(now: 2, unit: 0.5), [.authenticate(challenge: "c10")])
    }

    func testAnAuthLoopFailsTheConnectionAndKeepsBackingOff() {
        var m = connected()
        var now = 0.0, n = 0
        var actions = m.challenged("c0", now: now, unit: 0.5)
        while case .authenticate(let c)? = actions.first {
            n += 1
            _ = m.authSent(id(n), challenge: c, now: now)
            _ = m.authAnswered(id(n), accepted: true, message: RelayStatusMessage(""))
            now += 0.1
            _ = m.challenged("c\(n)", now: now, unit: 0.5)
            actions = m.noticeAsksForAuth(now: now, unit: 0.5)
        }
        XCTAssertEqual(n, AuthState.maxChallenges)
        XCTAssertEqual(actions.first, .authLoop)
        XCTAssertEqual(actions.last, .startReconnectTimer(generation: 1, seconds: 1))
        XCTAssertEqual(m.status, .failed)
        XCTAssertEqual(m.stats.authLoops, 1)
        // Reconnecting soon after a loop does not start the backoff over...
        _ = m.reconnectDue(generation: 1)
        _ = m.opened(generation: 2, information: nil, now: now + 5)
        XCTAssertEqual(m.failed(generation: 2, reason: "x", unit: 0.5).last, .startReconnectTimer(generation: 2, seconds: 2))
        // ...a connection after twice the window does.
        _ = m.reconnectDue(generation: 2)
        _ = m.opened(generation: 3, information: nil, now: now + 2 * AuthState.window + 1)
        XCTAssertEqual(m.failed(generation: 3, reason: "x", unit: 0.5).last, .startReconnectTimer(generation: 3, seconds: 1))
    }

    func testSendGatingReadOnlyAndLimits() {
        XCTAssertEqual(SendGate.decide([]), .fail(.noRelaysEnabled))
        XCTAssertEqual(SendGate.decide([RelayMachine(url: "wss://off", enabled: false)]), .fail(.noRelaysEnabled))
        let connecting = RelayMachine(url: "wss://a", enabled: true)
        XCTAssertEqual(SendGate.decide([connecting]), .wait, "a relay still connecting: wait for it")
        var writable = connected(RelayInformation(maxMessageLength: 1_000, maxLimit: 500))
        XCTAssertEqual(SendGate.decide([connecting, writable]), .ready)
        XCTAssertEqual(writable.writeRefused(RelayStatusMessage("restricted: read only")), [.status])
        XCTAssertEqual(writable.status, .readOnly)
        XCTAssertEqual(SendGate.decide([connecting, writable]), .wait)
        XCTAssertEqual(SendGate.decide([writable]), .fail(.onlyReadOnly))
        // A reconnect keeps it read-only.
        _ = writable.failed(generation: 1, reason: "x", unit: 0.5)
        _ = writable.reconnectDue(generation: 1)
        _ = writable.opened(generation: 2, information: nil, now: 1)
        XCTAssertEqual(writable.status, .readOnly)
        // NIP-11 limits.
        XCTAssertTrue(writable.accepts(messageBytes: 1_000))
        XCTAssertFalse(writable.accepts(messageBytes: 1_001))
        var filter = Filter()
        filter.limit = 4_000
        XCTAssertEqual(writable.clamped([filter]).first?.limit, 500)
        XCTAssertEqual(RelayMachine(url: "wss://x", enabled: true).clamped([filter]).first?.limit, 4_000, "unknown limits: as asked")
    }
}
