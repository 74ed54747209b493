import XCTest

@testable import LinkstrTUI

/// The session list follows news in batches: a read within 200 ms of the last one waits for the rest.
final class ReloadThrottleTests: XCTestCase {
    func testAReadSoonAfterTheLastWaitsForTheIntervalAndALaterOneDoesNot() {
        var throttle = ReloadThrottle()
        XCTAssertEqual(throttle.delay(now: 10), 0, "the first read goes at once")
        throttle.read(at: 10)
        XCTAssertEqual(throttle.delay(now: 10.05), 0.15, accuracy: 1e-9)
        XCTAssertEqual(throttle.delay(now: 10.2), 0, accuracy: 1e-9)
        XCTAssertEqual(throttle.delay(now: 11), 0)
        throttle.read(at: 11)
        XCTAssertEqual(throttle.delay(now: 11.1), 0.1, accuracy: 1e-9)
    }
}
