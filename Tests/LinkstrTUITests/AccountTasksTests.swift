import LinkstrApp
import LinkstrClient
import Synchronization
import XCTest

@testable import LinkstrTUI

/// The open account's background work stops with the account: tasks are cancelled, and what one
/// answers after the account went never reaches the app.
final class AccountTasksTests: XCTestCase {
    final class Received: Sendable {
        let actions = Mutex<[AppAction]>([])
        func add(_ a: AppAction) { actions.withLock { $0.append(a) } }
        var all: [AppAction] { actions.withLock { $0 } }
    }

    func testAnswersAfterTheAccountWentAreDroppedAndItsTasksCancelled() async throws {
        let tasks = AccountTasks()
        let received = Received()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (cancelled, sawCancel) = AsyncStream<Bool>.makeStream()
        // One task answers at once; one waits (like a publish waiting for relays) and answers late.
        tasks.start(received.add) { answer in answer(.settings(.cacheCleared)) }
        tasks.start(received.add) { answer in
            for await _ in gate { break }
            sawCancel.yield(Task.isCancelled)
            answer(.you(.contactRemoved("late")))
        }
        while received.all.isEmpty { await Task.yield() }
        XCTAssertEqual(received.all, [.settings(.cacheCleared)])
        tasks.cancelAll()
        XCTAssertEqual(tasks.running, 0)
        open.yield()
        var iterator = cancelled.makeAsyncIterator()
        let wasCancelled = await iterator.next()
        XCTAssertEqual(wasCancelled, true, "the waiting task was cancelled")
        XCTAssertEqual(received.all, [.settings(.cacheCleared)], "its late answer was dropped")
        // The next account's work answers as usual.
        tasks.start(received.add) { answer in answer(.post(.linkOpened(how: "opened"))) }
        while received.all.count < 2 { await Task.yield() }
        XCTAssertEqual(received.all, [.settings(.cacheCleared), .post(.linkOpened(how: "opened"))])
    }
}
