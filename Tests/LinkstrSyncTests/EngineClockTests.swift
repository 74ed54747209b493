import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import Synchronization
import XCTest

/// The engine's timers wait through an injected sleep: a relay that never answers (a real one behind a
/// silent proxy) ends its history at the page deadline, which a test passes at once instead of 15 s.
final class EngineClockTests: XCTestCase {
    final class Count: Sendable {
        let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var current: Int { value.withLock { $0 } }
    }

    func testAPageDeadlinePassesOnTheInjectedClock() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "silent")
        defer { proxy.stop() }
        let key = SecretKey.generate()
        let store = try LocalStore().account(key, now: 1)
        let pool = RelayPool(authSigner: nil)
        let deadlines = Count()
        var time = TimeSource.live
        time.sleep = { duration in
            if duration == SyncEngine.pageDeadline {
                deadlines.add()  // the page deadline passes at once
                return
            }
            await TimeSource.live.sleep(duration)
        }
        let engine = SyncEngine(identity: key, store: store, pool: pool, time: time)
        let updates = engine.updates
        await pool.setRelays([(proxy.url, true)])
        try await engine.start()
        // With the real clock the first page alone would wait 15 s, longer than this wait.
        let started = ContinuousClock.now
        let complete = await engine.waitForBackfill(timeout: .seconds(12))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "the silent relay's history ended at its (injected) page deadline")
        XCTAssertFalse(complete, "a history that got no answer is not complete")
        let outcomes = await engine.historyOutcomes()
        XCTAssertEqual(outcomes[proxy.url], .incomplete(.timedOut))
        XCTAssertGreaterThan(deadlines.current, 0)
        var notices = [String]()
        for await update in updates {
            if case .notice(_, let text) = update { notices.append(text) }
            if case .backfillComplete = update { break }
        }
        XCTAssertTrue(notices.contains("couldn't finish loading relay history. reconnect to try again."), "\(notices)")
        await engine.stop()
        await pool.setRelays([])
    }
}
