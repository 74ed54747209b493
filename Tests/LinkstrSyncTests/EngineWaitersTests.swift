import Foundation
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import XCTest

@testable import LinkstrSync

/// Issue 48 (2): waiters are per caller. A deadline released every caller waiting for the same thing:
/// `linkstr sync --timeout 1` beside the app's own wait for the history ended the app's wait too.
final class EngineWaitersTests: XCTestCase {
    func testOneCallersDeadlineDoesNotReleaseAnother() async throws {
        let t = try EngineUnderTest()
        let engine = t.engine
        let short = Task { await engine.waitForBackfill(timeout: .seconds(1)) }
        let long = Task { await engine.waitForBackfill(timeout: .seconds(100)) }
        await eventually("both parked") { await engine.waiting(.backfill) == 2 && t.clock.sleepers == 2 }
        t.clock.advance(by: .seconds(1))
        let first = await short.value
        XCTAssertFalse(first, "the history was not read")
        await eventually("the short one gone") { await engine.waiting(.backfill) == 1 }
        // The long one still waits: its own deadline is 99 s away.
        try await Task.sleep(for: .milliseconds(50))
        let stillWaiting = await engine.waiting(.backfill)
        XCTAssertEqual(stillWaiting, 1)
        t.clock.advance(by: .seconds(99))
        let second = await long.value
        XCTAssertFalse(second)
        let left = await engine.waiting(.backfill)
        XCTAssertEqual(left, 0)
    }

    func testADeadlineThatPassesBeforeItsCallerParksStillEndsTheWait() {
        var waiters = Waiters<Int>()
        let ticket = waiters.ticket()
        waiters.expire(7, ticket: ticket)
        XCTAssertEqual(waiters.count(7), 0)
        let resumed = expectation(description: "resumed at once")
        Task {
            await withCheckedContinuation { continuation in
                var w = waiters
                w.park(7, ticket: ticket, continuation)
            }
            resumed.fulfill()
        }
        wait(for: [resumed], timeout: 5)
        // A late timer of a caller that already went on leaves nothing behind.
        waiters.done(ticket)
        waiters.expire(7, ticket: ticket)
        let other = waiters.ticket()
        waiters.done(other)
        XCTAssertEqual(waiters.count(7), 0)
    }

    /// Issue 48 (2): a debounce's task held the engine and outlived `stop()`. Now `stop()` cancels it and
    /// it holds the engine weakly: a stopped engine goes while the wait is still pending.
    func testStopCancelsDebouncedWorkAndTheEngineGoes() async throws {
        let clock = ManualClock()
        let key = SecretKey.generate()
        let store = try LocalStore().account(key, now: clock.start)
        let pool = FakePool()
        var engine: SyncEngine? = SyncEngine(identity: key, store: store, pool: pool.client, time: clock.time)
        weak let gone = engine
        await engine!.debounce(.profilesChanged, .seconds(10))
        await eventually("the wait started") { clock.sleepers == 1 }
        let waiting = await engine!.debouncedWaiting
        XCTAssertEqual(waiting, 1)
        await engine!.stop()
        let after = await engine!.debouncedWaiting
        XCTAssertEqual(after, 0)
        engine = nil
        XCTAssertNil(gone, "nothing holds a stopped engine (its debounce still sleeps on the clock)")
        clock.advance(by: .seconds(10))
    }

    /// `stop()` leaves no task running: the engine's timers, debounces, a caller's deadline, the profile
    /// name going out and the queue's pass are each cancelled, end once their clock moves, and a task
    /// started after the stop is cancelled at birth.
    func testStopLeavesNoTaskRunning() async throws {
        let t = try EngineUnderTest()
        let engine = t.engine
        try t.store.setSetting(.profileNamePending, "Ann")
        await engine.debounce(.profilesChanged, .seconds(10))
        let waiting = Task { await engine.waitForBackfill(timeout: .seconds(100)) }
        await engine.startPublishingPendingProfileName()
        await engine.kickSendQueue()
        await eventually("the timers started") { t.clock.sleepers >= 3 }
        XCTAssertGreaterThanOrEqual(engine.tasks.count, 3, "the debounce, the deadline and the name's wait")
        await engine.stop()
        XCTAssertTrue(engine.tasks.handles.allSatisfy(\.isCancelled), "every task left is cancelled")
        _ = await waiting.value
        await engine.debounce(.flush, .seconds(1))
        t.clock.advance(by: .seconds(600))
        await eventually("every task ended") { engine.tasks.count == 0 }
    }
}
