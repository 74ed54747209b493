import NostrProtocol
import XCTest

@testable import LinkstrSync

/// The ingest pipeline's front: dedup, batches, slots and junk, without a network, a clock or a store.
final class IngestBatcherTests: XCTestCase {
    let key = SecretKey.generate()

    func wrap(_ i: Int) -> IngestBatcher.Item {
        let event = UnsignedEvent(pubkey: key.publicKey, createdAt: Int64(i), kind: 1059, tags: [], content: "\(i)").signed(with: key)
        return IngestBatcher.Item(relay: "ws://r", live: false, event: event)
    }

    func testWrapsLeaveInBatchesAndTheSameWrapIsNotOpenedTwiceAtOnce() {
        var b = IngestBatcher(batchSize: 3, maxBatchesInFlight: 2)
        let w = (0..<8).map(wrap)
        XCTAssertEqual(b.admit(w[0]), .buffered(flush: false, startTimer: true), "the first wrap starts the timer")
        XCTAssertEqual(b.admit(w[0]), .inFlight, "the same wrap from another relay")
        XCTAssertEqual(b.admit(w[1]), .buffered(flush: false, startTimer: false))
        XCTAssertEqual(b.admit(w[2]), .buffered(flush: true, startTimer: false), "full")
        let first = b.takeBatch()
        XCTAssertEqual(first?.map(\.event.id), [w[0], w[1], w[2]].map(\.event.id))
        XCTAssertEqual(b.admit(w[1]), .inFlight, "still being opened")
        for i in 3...5 { _ = b.admit(w[i]) }
        let second = b.takeBatch()
        XCTAssertEqual(second?.count, 3)
        XCTAssertFalse(b.hasSlot)
        _ = b.admit(w[6])
        XCTAssertNil(b.takeBatch(), "no slot: the buffer waits")
        XCTAssertFalse(b.isIdle)
        // The first batch is done; one of its wraps was junk.
        b.finished(first!, junk: [w[2].event.id])
        XCTAssertEqual(b.admit(w[2]), .knownJunk, "junk costs no second check")
        XCTAssertEqual(b.admit(w[0]), .buffered(flush: false, startTimer: false), "a stored wrap may come again: the persisted set answers for it")
        XCTAssertEqual(b.takeBatch()?.map(\.event.id), [w[6], w[0]].map(\.event.id), "a partial batch, when asked")
        b.finished(second!, junk: [])
        XCTAssertFalse(b.isIdle)
    }

    func testBatchesGrowDuringABurstAndStartSmallAgainOnceIdle() {
        var b = IngestBatcher(batchSize: 2, largestBatch: 8, maxBatchesInFlight: 2)
        var next = 0
        func admit(_ n: Int) -> Bool {
            var full = false
            for _ in 0..<n {
                if case .buffered(let flush, _) = b.admit(wrap(next)) { full = flush }
                next += 1
            }
            return full
        }
        XCTAssertFalse(admit(1))
        XCTAssertTrue(admit(1), "full at the smallest size")
        let first = b.takeBatch()!
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(b.batchSize, 4, "a full batch doubles the next")
        XCTAssertFalse(admit(3))
        XCTAssertTrue(admit(1))
        let second = b.takeBatch()!
        XCTAssertEqual(second.count, 4)
        XCTAssertEqual(b.batchSize, 8)
        b.finished(first, junk: [])
        XCTAssertTrue(admit(8))
        let third = b.takeBatch()!
        XCTAssertEqual(third.count, 8)
        XCTAssertEqual(b.batchSize, 8, "never past the largest")
        XCTAssertFalse(admit(3))
        b.finished(second, junk: [])
        let partial = b.takeBatch()!
        XCTAssertEqual(partial.count, 3, "the timer takes what there is")
        XCTAssertEqual(b.batchSize, 8, "a partial batch does not grow it, nor shrink it while the burst is in flight")
        b.finished(third, junk: [])
        XCTAssertEqual(b.batchSize, 8)
        b.finished(partial, junk: [])
        XCTAssertTrue(b.isIdle)
        XCTAssertEqual(b.batchSize, 2, "idle: the next burst starts small, so its first messages show soon")
        XCTAssertEqual(IngestBatchSizes.burst(5_000), [256, 512, 1_024, 1_024, 1_024, 1_024, 136])
        XCTAssertEqual(IngestBatchSizes.burst(100), [100])
        XCTAssertEqual(IngestBatchSizes.burst(0), [])
    }

    func testTheBufferIsBoundedByTheSlots() {
        var b = IngestBatcher(batchSize: 4, maxBatchesInFlight: 1)
        var flushes = 0, batches: [[IngestBatcher.Item]] = []
        for i in 0..<40 {
            if case .buffered(let full, _) = b.admit(wrap(i)), full {
                flushes += 1
                // The engine waits for a slot here (backpressure); finishing the batch in flight frees it.
                if !b.hasSlot { b.finished(batches.removeFirst(), junk: []) }
                batches.append(b.takeBatch()!)
            }
            XCTAssertLessThanOrEqual(b.buffer.count + batches.count * 4, (b.maxBatchesInFlight + 1) * b.batchSize)
        }
        XCTAssertEqual(flushes, 10)
        b.finished(batches.removeFirst(), junk: [])
        XCTAssertTrue(b.isIdle)
    }
}
