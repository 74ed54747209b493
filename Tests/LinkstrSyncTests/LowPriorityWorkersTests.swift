import Foundation
import Synchronization
import XCTest

@testable import LinkstrSync

/// The unwrap workers run every copy of the work on threads of their own, niced below the rest of
/// the process, and return only when all are done; the calling thread keeps its own priority.
final class LowPriorityWorkersTests: XCTestCase {
    func testEveryCopyRunsNicedAndTheCallerWaitsForAll() {
        let workers = LowPriorityWorkers(threads: 2)
        let callerNice = LowPriorityWorkers.currentNiceness()
        for round in 0..<3 {
            let seen = Mutex<[(nice: Int32, thread: String)]>([])
            let next = Atomic<Int>(0)
            let sum = Atomic<Int>(0)
            // More copies than threads: the later ones wait for a free thread and find the work taken.
            workers.perform(3) {
                seen.withLock { $0.append((LowPriorityWorkers.currentNiceness(), Thread.current.name ?? "")) }
                while true {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < 1_000 else { break }
                    sum.wrappingAdd(i, ordering: .relaxed)
                }
            }
            XCTAssertEqual(sum.load(ordering: .relaxed), 999 * 1_000 / 2, "round \(round): all the work, once")
            let copies = seen.withLock { $0 }
            XCTAssertEqual(copies.count, 3)
            XCTAssertTrue(copies.allSatisfy { $0.nice == min(19, callerNice + LowPriorityWorkers.niceness) }, "\(copies)")
            XCTAssertTrue(copies.allSatisfy { $0.thread.hasPrefix("unwrap.") }, "\(copies)")
        }
        XCTAssertEqual(LowPriorityWorkers.currentNiceness(), callerNice, "the caller's own priority is untouched")
    }
}
