import LinkstrDomain
import XCTest

/// Issue 53 (6.5): the placement rule at its edges.
final class PostPlacementTests: XCTestCase {
    func testOnlyADateMoreThanFifteenMinutesAheadOfItsArrivalIsPlacedThere() {
        let arrival: Int64 = 1_800_000_000
        XCTAssertTrue(PostPlacement.place(claimed: arrival - 86_400, receivedAt: arrival) == (arrival - 86_400, nil), "the past is kept")
        XCTAssertTrue(PostPlacement.place(claimed: arrival + 900, receivedAt: arrival) == (arrival + 900, nil), "15 minutes fast is kept")
        XCTAssertTrue(PostPlacement.place(claimed: arrival + 901, receivedAt: arrival) == (arrival, arrival + 901))
        XCTAssertTrue(PostPlacement.place(claimed: Int64.max, receivedAt: arrival) == (arrival, Int64.max), "no overflow")
    }
}
