import LinkstrRelay
import XCTest

/// Issue 32 (12): a relay whose traffic is mostly junk beyond a rate is dropped, with a backoff that
/// grows with each drop (30 s, 1, 2, 5, 10 min); a few bad events, or junk among real traffic, never
/// cost a connection. Pure: a fake clock and fixed jitter.
final class JunkMeterTests: XCTestCase {
    func testOnlyMostlyJunkBeyondARateTrips() {
        var m = JunkMeter()
        XCTAssertFalse(m.record(valid: 0, junk: 299, now: 0), "below the rate")
        XCTAssertTrue(m.record(valid: 0, junk: 1, now: 1))

        var mixed = JunkMeter()
        XCTAssertFalse(mixed.record(valid: 100, junk: 400, now: 0), "80 % junk among real traffic is not dropped")
        XCTAssertTrue(mixed.record(valid: 0, junk: 600, now: 2), "past 90 %")

        var slow = JunkMeter()
        for t in stride(from: 0.0, to: 300, by: 1) { XCTAssertFalse(slow.record(valid: 0, junk: 20, now: t), "20 a second never adds up: \(t)") }

        var stale = JunkMeter()
        XCTAssertFalse(stale.record(valid: 0, junk: 250, now: 0))
        XCTAssertFalse(stale.record(valid: 0, junk: 250, now: 25), "what is older than the window does not count")
        XCTAssertTrue(stale.record(valid: 0, junk: 100, now: 26), "the previous bucket counts while it is inside the window")
    }

    func testAJunkRelayIsDroppedWithAGrowingBackoffAndForgivenLater() {
        var m = RelayMachine(url: "wss://junk.example", enabled: true)
        var now = 0.0, delays = [Double]()
        for g in 1...6 {
            XCTAssertEqual(m.connect(), [.open(generation: g, fetchInformation: true), .status], "NIP-11 not known yet: asked each time")
            _ = m.opened(generation: g, information: nil, now: now)
            XCTAssertEqual(m.eventsChecked(valid: 5, junk: 200, now: now, unit: 0.5), [])
            let actions = m.eventsChecked(valid: 0, junk: 200, now: now + 1, unit: 0.5)
            XCTAssertEqual(Array(actions.prefix(4)), [.junkDropped, .close, .dropPublishes, .status], "\(actions)")
            guard case .startReconnectTimer(let timer, let seconds)? = actions.last else { return XCTFail("no timer: \(actions)") }
            XCTAssertEqual(timer, g)
            delays.append(seconds)
            XCTAssertEqual(m.status, .failed)
            XCTAssertTrue(m.lastError?.hasPrefix("dropped: it sent mostly invalid events (400 in 10 s); trying again in ") == true, m.lastError ?? "")
            XCTAssertEqual(m.eventsChecked(valid: 0, junk: 500, now: now + 2, unit: 0.5), [], "a dropped connection reports nothing more")
            now += seconds
        }
        XCTAssertEqual(delays, [30, 60, 120, 300, 600, 600])
        XCTAssertEqual(m.stats.junkDrops, 6)
        XCTAssertEqual(m.stats.junkEvents, 6 * 400)

        // A relay that behaved for a while starts over at 30 s.
        now += 2_000
        _ = m.connect()
        _ = m.opened(generation: 7, information: nil, now: now)
        XCTAssertEqual(m.eventsChecked(valid: 0, junk: 400, now: now, unit: 0.5).last, .startReconnectTimer(generation: 7, seconds: 30))
    }
}
