import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrTestSupport
import XCTest

/// Issue 28: the send gate is woken by the pool when a relay becomes writable (it used to poll every
/// 350 ms), fails at its deadline when none does, and lets every waiter go when the pool stops.
final class SendGateTests: XCTestCase {
    func testWaitersAtTheGateGoOnWhenARelayConnects() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let pool = RelayPool()
        await pool.setRelays([(relay.url, true)])
        // Several senders wait at once, each with a deadline far beyond the connection.
        async let first = pool.waitForWritableRelay(timeout: .seconds(60))
        async let second = pool.waitForWritableRelay(timeout: .seconds(60))
        let answers = await [first, second]
        XCTAssertEqual(answers, [nil, nil])
        await pool.stop()
    }

    func testAGateThatNeverOpensFailsAtItsDeadlineAndStopReleasesIt() async throws {
        // A port nothing listens on: the relay keeps failing and reconnecting, the gate stays shut.
        let closed = try TestRelay()
        let url = closed.url
        closed.stop()
        let pool = RelayPool()
        await pool.setRelays([(url, true)])
        let timedOut = await pool.waitForWritableRelay(timeout: .milliseconds(300))
        XCTAssertEqual(timedOut, .reconnectTimeout)
        let waiting = Task { await pool.waitForWritableRelay(timeout: .seconds(600)) }
        try await Task.sleep(for: .milliseconds(50))
        await pool.stop()
        let released = await waiting.value
        XCTAssertEqual(released, .offline)
        // Disabling the only relay fails the gate for a sender already waiting.
        let other = RelayPool()
        await other.setRelays([(url, true)])
        let disabled = Task { await other.waitForWritableRelay(timeout: .seconds(600)) }
        try await Task.sleep(for: .milliseconds(50))
        await other.setRelays([(url, false)])
        let answer = await disabled.value
        XCTAssertEqual(answer, .noRelaysEnabled)
        await other.stop()
    }

    /// The pool's timers wait through its injected sleep: a 10-minute gate deadline passes at once on a
    /// test's clock (the other timers keep real time).
    func testTheGatesDeadlineWaitsOnTheInjectedClock() async throws {
        let closed = try TestRelay()
        let url = closed.url
        closed.stop()
        var configuration = RelayPool.Configuration()
        configuration.time.sleep = { duration in
            if duration == .seconds(600) { return }  // the gate's deadline passes at once
            await TimeSource.live.sleep(duration)
        }
        let pool = RelayPool(configuration: configuration)
        await pool.setRelays([(url, true)])
        let started = ContinuousClock.now
        let answer = await pool.waitForWritableRelay(timeout: .seconds(600))
        XCTAssertEqual(answer, .reconnectTimeout)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(300), "the deadline was the injected clock's, not ten minutes")
        await pool.stop()
    }
}
