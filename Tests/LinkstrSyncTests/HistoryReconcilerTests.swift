import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// The NIP-77 history chain as a pure machine, against a responder built from the same codec: what we
/// lack is fetched newest first in bounded batches; a relay that refuses, stalls, lies about its set or
/// sends what is not negentropy makes it fall back to paging, with bounded work.
final class HistoryReconcilerTests: XCTestCase {
    private func item(_ t: UInt64, _ n: Int) -> NegentropyItem {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[0] = UInt8(n & 0xFF); bytes[1] = UInt8((n >> 8) & 0xFF); bytes[31] = 0x5A
        return NegentropyItem(timestamp: t, id: Bytes32(bytes)!)
    }

    /// Runs the machine against an honest responder; returns the fetched batches in order.
    private func run(local: [NegentropyItem], relay: [NegentropyItem], batchSize: Int, now: Int64? = nil) throws -> (batches: [[String]], reconciler: HistoryReconciler) {
        let responder = Negentropy(storage: NegentropyStorage(relay), role: .responder, frameSizeLimit: 4096)
        var r = HistoryReconciler(local: NegentropyStorage(local), batchSize: batchSize, frameSizeLimit: 4096, now: now)
        var pending = r.start(), batches = [[String]](), inFlight = [(batch: Int, ids: [String])]()
        var guardSteps = 0
        while !pending.isEmpty || !inFlight.isEmpty {
            guardSteps += 1
            XCTAssertLessThan(guardSteps, 10_000)
            if pending.isEmpty {
                // The relay answers the oldest fetch in flight, with every event it asked for.
                let fetch = inFlight.removeFirst()
                for id in fetch.ids { r.delivered(batch: fetch.batch, try XCTUnwrap(Bytes32(hex: id))) }
                pending = r.fetchEnded(batch: fetch.batch)
                continue
            }
            let action = pending.removeFirst()
            switch action {
            case .open(let hex), .send(let hex):
                let answer = try XCTUnwrap(responder.reconcile(XCTUnwrap(Hex.decode(hex))).next)
                pending += r.answered(Hex.encode(answer))
            case .fetch(let batch, let ids):
                XCTAssertLessThanOrEqual(ids.count, batchSize)
                XCTAssertLessThanOrEqual(inFlight.count, HistoryReconciler.fetchesInFlight - 1)
                batches.append(ids)
                inFlight.append((batch, ids))
            case .close, .finished: break
            case .fallBack(let why): XCTFail("fell back: \(why)")
            }
        }
        XCTAssertEqual(r.outcome, .finished)
        XCTAssertFalse(r.holdsLocalSet, "the local set is let go once the rounds are over")
        return (batches, r)
    }

    func testTheLocalSetIsHeldOnlyWhileNegotiatingAndAReconcilerRunsOnce() {
        let ours = (0..<100).map { item(UInt64(1_000 + $0), $0) }
        var r = HistoryReconciler(local: NegentropyStorage(ours), batchSize: 50)
        XCTAssertTrue(r.holdsLocalSet)
        XCTAssertEqual(r.start().count, 1)
        XCTAssertEqual(r.start(), [], "once only")
        XCTAssertTrue(r.holdsLocalSet)
        _ = r.timedOut()
        XCTAssertFalse(r.holdsLocalSet, "a fallback lets it go")
        var cut = HistoryReconciler(local: NegentropyStorage(ours), batchSize: 50)
        _ = cut.start()
        cut.disconnected()
        XCTAssertFalse(cut.holdsLocalSet, "so does a disconnect")
        XCTAssertEqual(cut.answered("6100000200"), [])
    }

    func testWhatWeLackIsFetchedNewestFirstInBatches() throws {
        let shared = (0..<3000).map { item(UInt64(1_000 + $0 / 7), $0) }
        let theirs = (3000..<4200).map { item(UInt64(1_000 + $0 / 3), $0) }
        let ours = (5000..<5010).map { item(UInt64(900 + $0 - 5000), $0) }
        let (batches, r) = try run(local: shared + ours, relay: shared + theirs, batchSize: 500)
        let fetched = batches.flatMap { $0 }
        XCTAssertEqual(Set(fetched), Set(theirs.map(\.id.hex)))
        XCTAssertEqual(fetched.count, theirs.count, "each id fetched once")
        XCTAssertEqual(batches.map(\.count), [500, 500, 200])
        // Newest first, as far as the ranges tell (an id's own time is not on the wire, only its
        // range's upper bound): the first batch is from the newest ranges, the last from the oldest.
        let times = Dictionary(uniqueKeysWithValues: theirs.map { ($0.id.hex, $0.timestamp) })
        let first = batches[0].compactMap { times[$0] }, last = batches[2].compactMap { times[$0] }
        XCTAssertGreaterThan(first.min()!, last.max()!)
        XCTAssertEqual(r.neededCount, theirs.count)
        XCTAssertLessThan(r.rounds, 20, "log16 of the set, plus a frame of 4 096 bytes per ~120 ids")
    }

    func testNothingMissingFinishesWithoutAFetch() throws {
        let same = (0..<20_000).map { item(UInt64(5_000 + $0 / 2), $0) }
        let (batches, r) = try run(local: same, relay: same, batchSize: 500)
        XCTAssertTrue(batches.isEmpty)
        XCTAssertEqual(r.rounds, 1, "equal sets agree on the first answer")
        XCTAssertLessThan(r.bytesSent + r.bytesReceived, 2_000)
    }

    /// A first sync asks by age, so it too fetches the newest first (one range would say nothing of time).
    func testAnEmptyStoreFetchesEverythingNewestFirst() throws {
        let now: Int64 = 1_800_000_000
        let theirs = (0..<2_345).map { item(UInt64(now - 600 * Int64($0) - 1), $0) }
        let (batches, r) = try run(local: [], relay: theirs, batchSize: 500, now: now)
        XCTAssertEqual(Set(batches.flatMap { $0 }), Set(theirs.map(\.id.hex)))
        let times = Dictionary(uniqueKeysWithValues: theirs.map { ($0.id.hex, $0.timestamp) })
        let first = batches[0].compactMap { times[$0] }, last = batches[batches.count - 1].compactMap { times[$0] }
        XCTAssertGreaterThan(first.min()!, last.max()!)
        XCTAssertLessThan(r.rounds, 60)
        // Without a clock the whole space is one range: everything still comes, in no particular order.
        let (unordered, _) = try run(local: [], relay: theirs, batchSize: 500)
        XCTAssertEqual(Set(unordered.flatMap { $0 }), Set(theirs.map(\.id.hex)))
    }

    func testARelayThatLiesAboutItsFingerprintsFallsBackWithinTheRoundCap() {
        var r = HistoryReconciler(local: NegentropyStorage((0..<5_000).map { item(UInt64($0), $0) }), batchSize: 500)
        var actions = r.start()
        var rng = SplitMix(seed: 31)
        var rounds = 0
        while true {
            rounds += 1
            // A fresh random fingerprint for the whole space, every time: never agrees.
            var lie: [UInt8] = [0x61, 0x00, 0x00, 0x01]
            lie += (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            actions = r.answered(Hex.encode(lie))
            if actions.contains(.fallBack(.tooManyRounds)) { break }
            XCTAssertLessThanOrEqual(rounds, HistoryReconciler.maxRounds)
            if rounds > HistoryReconciler.maxRounds { break }
        }
        XCTAssertEqual(r.outcome, .fellBack(.tooManyRounds))
        XCTAssertTrue(HistoryReconciler.FallBack.tooManyRounds.remembered)
        XCTAssertEqual(r.answered("61"), [], "nothing after it fell back")
    }

    func testRefusalsTimeoutsAndBrokenAnswersFallBack() {
        func fresh() -> HistoryReconciler {
            var r = HistoryReconciler(local: NegentropyStorage([]), batchSize: 10)
            _ = r.start()
            return r
        }
        var r = fresh()
        XCTAssertEqual(r.refused("blocked: too big"), [.close, .fallBack(.refused("blocked: too big"))])
        XCTAssertTrue(HistoryReconciler.FallBack.refused("blocked: too big").remembered)
        XCTAssertFalse(HistoryReconciler.FallBack.refused("auth-required: sign in").remembered)
        XCTAssertFalse(HistoryReconciler.FallBack.refused("closed: you took too long to respond!").remembered, "NIP-77's own example")
        XCTAssertFalse(HistoryReconciler.FallBack.refused("rate-limited: slow down").remembered)
        XCTAssertTrue(HistoryReconciler.FallBack.refused("error: unknown message NEG-OPEN").remembered)
        r = fresh()
        XCTAssertEqual(r.timedOut(), [.close, .fallBack(.timedOut)])
        r = fresh()
        XCTAssertEqual(r.answered("6G"), [.close, .fallBack(.malformed("not lowercase hex"))])
        r = fresh()
        XCTAssertEqual(r.answered("61AB"), [.close, .fallBack(.malformed("not lowercase hex"))])
        r = fresh()
        XCTAssertEqual(r.answered("62"), [.close, .fallBack(.malformed(NegentropyError.unsupportedVersion(0x62).description))])
        // A fetch refused or stalled: paged instead (nothing it asked for is taken as absent), not remembered.
        r = HistoryReconciler(local: NegentropyStorage([]), batchSize: 10)
        _ = r.start()
        let offer: [UInt8] = [0x61, 0x00, 0x00, 0x02, 0x01] + [UInt8](repeating: 7, count: 32)
        XCTAssertEqual(r.answered(Hex.encode(offer)), [.close, .fetch(batch: 0, ids: [String(repeating: "07", count: 32)])])
        XCTAssertEqual(r.fetchFailed(batch: 5, "not ours"), [], "a fetch this sync never made")
        XCTAssertEqual(r.fetchFailed(batch: 0, "rate-limited: slow down"), [.close, .fallBack(.fetchFailed("rate-limited: slow down"))])
        XCTAssertFalse(HistoryReconciler.FallBack.fetchFailed("x").remembered)
        r = fresh()
        r.disconnected()
        XCTAssertEqual(r.outcome, .interrupted)
        XCTAssertFalse(r.isRunning)
    }

    func testIDsOfferedTwiceAreFetchedOnce() {
        var r = HistoryReconciler(local: NegentropyStorage([]), batchSize: 100)
        _ = r.start()
        let ids = (0..<3).map { item(10, $0).id }
        // A relay that sends the same id list in two ranges, and keeps the sync going.
        var message: [UInt8] = [0x61, 0x0C, 0x00, 0x02, 0x03]
        ids.forEach { message += $0.bytes }
        message += [0x00, 0x00, 0x02, 0x03]
        ids.forEach { message += $0.bytes }
        let actions = r.answered(Hex.encode(message))
        let fetched = actions.flatMap { if case .fetch(_, let ids) = $0 { return ids } else { return [] } }
        XCTAssertEqual(fetched.sorted(), ids.map(\.hex).sorted())
        XCTAssertEqual(r.neededCount, 3)
    }

    /// Issue 53 (6.2): a relay that "finds" 25 new ids every round earned a round with each 25, so a core
    /// was busy for minutes. Now the rounds end at `maxRoundsEver` whatever the ids, and at `workBudget`
    /// of time spent on them, whichever comes first; then the history is paged.
    func testARelayInventingIDsEveryRoundIsPagedAfterBoundedRoundsAndTime() {
        var rng = SplitMix(seed: 77)
        /// 25 made-up ids in a range below 11, and a fingerprint that never agrees over the rest.
        func lie() -> String {
            var message: [UInt8] = [0x61, 0x0C, 0x00, 0x02, 25]
            for _ in 0..<25 { message += (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) } }
            message += [0x00, 0x00, 0x01] + (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            return Hex.encode(message)
        }
        var r = HistoryReconciler(local: NegentropyStorage((0..<2_000).map { item(UInt64(100 + $0), $0) }), batchSize: 500)
        _ = r.start()
        var actions = [HistoryReconciler.Action]()
        while r.outcome == nil, r.rounds <= HistoryReconciler.maxRoundsEver + 1 { actions = r.answered(lie()) }
        XCTAssertEqual(r.outcome, .fellBack(.tooManyRounds))
        XCTAssertEqual(actions, [.close, .fallBack(.tooManyRounds)])
        XCTAssertEqual(r.rounds, HistoryReconciler.maxRoundsEver + 1)
        XCTAssertLessThan(r.neededCount, 26_000, "ids bought no rounds past the cap")

        // The same liar on a large local set: the time spent is what ends it.
        var slow = HistoryReconciler(local: NegentropyStorage([]), batchSize: 500)
        _ = slow.start()
        XCTAssertEqual(slow.answered(lie()).count, 1, "a round")
        slow.spent(.seconds(2))
        XCTAssertEqual(slow.answered(lie()).count, 1, "within the budget")
        slow.spent(.milliseconds(1_500))
        XCTAssertEqual(slow.answered(lie()), [.close, .fallBack(.tooMuchWork)])
        XCTAssertTrue(HistoryReconciler.FallBack.tooMuchWork.remembered)
        XCTAssertEqual(HistoryReconciler.FallBack.tooMuchWork.words, "more than 3 s of work on its rounds")
    }

    /// Issue 53 (6.2): ids offered and never delivered (EOSE without them) made the history complete
    /// with nothing fetched. Now the relay is paged; remembered when most of what it offered was missing.
    func testIDsOfferedAndNeverDeliveredPageTheHistory() {
        let ids = (0..<4).map { item(10, $0).id }
        func offering() -> HistoryReconciler {
            var r = HistoryReconciler(local: NegentropyStorage([]), batchSize: 100)
            _ = r.start()
            var message: [UInt8] = [0x61, 0x00, 0x00, 0x02, 0x04]
            ids.forEach { message += $0.bytes }
            XCTAssertEqual(r.answered(Hex.encode(message)), [.close, .fetch(batch: 0, ids: ids.map(\.hex))])
            return r
        }
        var none = offering()
        XCTAssertEqual(none.fetchEnded(batch: 0), [.close, .fallBack(.undelivered(missing: 4, offered: 4))])
        XCTAssertTrue(HistoryReconciler.FallBack.undelivered(missing: 4, offered: 4).remembered)
        XCTAssertEqual(HistoryReconciler.FallBack.undelivered(missing: 4, offered: 4).words, "4 of the 4 ids it offered never came")

        var one = offering()
        for id in ids.dropLast() { one.delivered(batch: 0, id) }
        one.delivered(batch: 7, ids[3])  // another fetch's event is not this one's
        XCTAssertEqual(one.fetchEnded(batch: 0), [.close, .fallBack(.undelivered(missing: 1, offered: 4))])
        XCTAssertFalse(HistoryReconciler.FallBack.undelivered(missing: 1, offered: 4).remembered, "deleted meanwhile, perhaps: not remembered")

        var all = offering()
        for id in ids { all.delivered(batch: 0, id) }
        XCTAssertEqual(all.fetchEnded(batch: 0), [.finished])
        XCTAssertEqual(all.outcome, .finished)
    }
}
