import Synchronization
import XCTest

@testable import LinkstrRelay

/// `Concurrently.map`, the one way an actor fans work out (issue 52): results in the items' order
/// whatever order the work ends in, never more than `atMost` at once, children cancelled with the caller.
final class ConcurrentlyTests: XCTestCase {
    func testResultsComeInTheItemsOrderWhateverOrderTheWorkEnds() async {
        let items = Array(0..<40)
        let results = await Concurrently.map(items) { i in
            try? await Task.sleep(for: .milliseconds((40 - i) % 7))
            return i * 10
        }
        XCTAssertEqual(results, items.map { $0 * 10 })
        let none = await Concurrently.map([Int]()) { $0 }
        XCTAssertEqual(none, [])
    }

    func testNeverMoreThanTheLimitAtOnce() async {
        let running = Mutex((now: 0, most: 0))
        let results = await Concurrently.map(Array(0..<30), atMost: 4) { i in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try? await Task.sleep(for: .milliseconds(2))
            running.withLock { $0.now -= 1 }
            return i
        }
        XCTAssertEqual(results, Array(0..<30))
        XCTAssertEqual(running.withLock { $0.most }, 4, "four at a time, and all four used")
        let one = Mutex(0)
        _ = await Concurrently.map(Array(0..<5), atMost: 0) { _ in one.withLock { $0 += 1 } }
        XCTAssertEqual(one.withLock { $0 }, 5, "a limit below one runs one at a time")
    }

    func testCancellingTheCallerCancelsTheChildren() async {
        let cancelled = Mutex(0)
        let task = Task {
            await Concurrently.map(Array(0..<3)) { _ in
                do { try await Task.sleep(for: .seconds(60)) } catch { cancelled.withLock { $0 += 1 } }
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        _ = await task.value
        XCTAssertEqual(cancelled.withLock { $0 }, 3)
    }
}
