import LinkstrSync
import LinkstrTestSupport
import XCTest

/// The history chain (`HistoryPager`) against simulated relays: `until` inclusive (NIP-01) or exclusive (nostr-relay),
/// limits clamped silently, timestamps crowded. Whenever no single second holds more events than the
/// relay's limit, every event must be read.
final class HistoryPagerSimulationTests: XCTestCase {
    struct SimulatedRelay {
        let events: [(id: Int, at: Int64)]
        let inclusive: Bool
        let clamp: Int
        func page(until: Int64?, limit: Int, rng: inout SplitMix) -> [(id: Int, at: Int64)] {
            let matching = events.filter { e in until.map { inclusive ? e.at <= $0 : e.at < $0 } ?? true }
            // Newest first; ties in any order (relays differ).
            let shuffled = matching.map { ($0, rng.next()) }.sorted { $0.0.at != $1.0.at ? $0.0.at > $1.0.at : $0.1 < $1.1 }.map(\.0)
            return Array(shuffled.prefix(min(limit, clamp)))
        }
    }

    func testEveryEventIsReadUnderEitherUntilSemanticsAndAnyClamp() {
        var rng = SplitMix(seed: UInt64.random(in: 1...1_000_000))
        let seed = rng.state
        var cases = 0, pages = 0
        for round in 0..<4_000 {
            // Half with the real limits, half with small ones, so that pages grow (and meet clamps) often.
            let limits = round % 2 == 0 ? HistoryPager.Limits.history : HistoryPager.Limits(first: 4, max: 32)
            let clamp = [3, 7, 10, 50, 100, 500][Int(rng.next() % 6)]
            let n = Int(rng.next() % 400)
            let window = Int64(1 + rng.next() % 200)
            var events = (0..<n).map { (id: $0, at: 1_000 + Int64(rng.next() % UInt64(window))) }
            // Thin out seconds holding as many events as the clamp or more: those cannot be paged by any
            // NIP-01 client (a second exactly as full as the clamp cannot be told from a fuller one).
            var perSecond = [Int64: Int]()
            // Nor can a second fuller than the largest page.
            events = events.filter { perSecond[$0.at, default: 0] += 1; return perSecond[$0.at]! < min(clamp, limits.max) }
            // And one older event alone: on the oldest second, a relay that clamps cannot be told from one
            // that sent all there was (a second holding exactly a page's limit reads as crowded).
            if !events.isEmpty { events.append((id: n, at: 900)) }
            let relay = SimulatedRelay(events: events, inclusive: rng.next() % 2 == 0, clamp: clamp)
            var pager = HistoryPager(limits: limits)
            var seen = Set<Int>()
            var actions = pager.start()
            var steps = 0
            var previous: Int64? = nil
            while steps < 10_000 {
                guard let page = actions.lazy.compactMap({ if case .request(let p) = $0 { p } else { nil } }).first else { break }
                steps += 1
                if let until = page.until, let previous { XCTAssertLessThanOrEqual(until, previous, "the chain never moves forward") }
                previous = page.until
                let events = relay.page(until: page.wireUntil, limit: page.limit, rng: &rng)
                for e in events {
                    seen.insert(e.id)
                    pager.received(id: "\(e.id)", createdAt: e.at, matchesFilter: true, page: page.number)
                }
                actions = pager.ended(.eose, page: page.number)
            }
            XCTAssertEqual(pager.outcome, .finished, "seed \(seed) (clamp \(clamp), \(relay.inclusive ? "inclusive" : "exclusive") until, limits \(limits))")
            XCTAssertLessThan(steps, 10_000)
            if seen.count != events.count {
                return XCTFail("seed \(seed): read \(seen.count) of \(events.count) (clamp \(clamp), \(relay.inclusive ? "inclusive" : "exclusive") until)")
            }
            cases += 1
            pages += steps
        }
        print("history pager: \(cases) simulated relays read completely in \(pages) pages (seed \(seed))")
    }

    /// A second fuller than a silent clamp below the page limit: every other second is read, and the
    /// chain says it is incomplete (before, a short page there read as "that was all").
    func testASecondFullerThanASilentClampIsReportedUnderEitherUntil() {
        for inclusive in [true, false] {
            let events = (0..<150).map { (id: $0, at: Int64(2_000 - $0)) } + (150..<450).map { (id: $0, at: Int64(1_000)) }
            let relay = SimulatedRelay(events: events, inclusive: inclusive, clamp: 100)
            var rng = SplitMix(seed: 7)
            var pager = HistoryPager(limits: .followLists)
            var seen = Set<Int>()
            var actions = pager.start()
            while let page = actions.lazy.compactMap({ if case .request(let p) = $0 { p } else { nil } }).first {
                for e in relay.page(until: page.wireUntil, limit: page.limit, rng: &rng) {
                    seen.insert(e.id)
                    pager.received(id: "\(e.id)", createdAt: e.at, matchesFilter: true, page: page.number)
                }
                actions = pager.ended(.eose, page: page.number)
            }
            XCTAssertEqual(pager.outcome, .incomplete(.crowdedSecond), "inclusive: \(inclusive)")
            XCTAssertTrue(seen.isSuperset(of: 0..<150), "inclusive: \(inclusive)")
            XCTAssertEqual(pager.learnedClamp, 100)
        }
    }

    /// Crowded seconds left in, pages growing: whatever the chain could not read, it never says it finished
    /// (until a short page all on one second counted as crowded when older events followed, a relay that
    /// clamps below the page limit could make it say finished, with pages of 500 as with grown ones).
    func testAChainThatMissedEventsNeverSaysFinished() {
        var rng = SplitMix(seed: UInt64.random(in: 1...1_000_000))
        let seed = rng.state
        var missed = 0
        for round in 0..<1_000 {
            let limits = round % 2 == 0 ? HistoryPager.Limits.history : HistoryPager.Limits(first: 4, max: 32)
            let clamp = [3, 7, 10, 50, 100, 500, 5_000][Int(rng.next() % 7)]
            let n = Int(rng.next() % 600)
            let window = Int64(1 + rng.next() % 100)
            // One older event alone, so that every crowded second has older history after it: only on the
            // oldest second can a relay that clamps not be told from one that sent all there was.
            let events: [(id: Int, at: Int64)] = (0..<n).map { (id: $0, at: 1_000 + Int64(rng.next() % UInt64(window))) } + [(id: n, at: 900)]
            let relay = SimulatedRelay(events: events, inclusive: rng.next() % 2 == 0, clamp: clamp)
            var pager = HistoryPager(limits: limits)
            var seen = Set<Int>()
            var actions = pager.start()
            var steps = 0
            while steps < 10_000, let page = actions.lazy.compactMap({ if case .request(let p) = $0 { p } else { nil } }).first {
                steps += 1
                for e in relay.page(until: page.wireUntil, limit: page.limit, rng: &rng) {
                    seen.insert(e.id)
                    pager.received(id: "\(e.id)", createdAt: e.at, matchesFilter: true, page: page.number)
                }
                actions = pager.ended(.eose, page: page.number)
            }
            XCTAssertLessThan(steps, 10_000)
            if seen.count < events.count {
                missed += 1
                XCTAssertEqual(pager.outcome, .incomplete(.crowdedSecond),
                               "seed \(seed): read \(seen.count) of \(events.count) (clamp \(clamp), limits \(limits)) yet \(String(describing: pager.outcome))")
            }
        }
        XCTAssertGreaterThan(missed, 0, "some simulated relays held seconds too crowded to read (seed \(seed))")
        print("history pager: \(missed) of 1000 simulated relays with unreadable seconds, every one reported incomplete (seed \(seed))")
    }

    func testOldStyleOldestMinusOneLosesBoundarySeconds() {
        // The iOS rule, for contrast: next until = oldest − 1, and stop at a short page.
        let events = (0..<60).map { (id: $0, at: Int64(1_000 + $0 / 3)) }
        let relay = SimulatedRelay(events: events, inclusive: true, clamp: 10)
        var rng = SplitMix(seed: 1)
        var seen = Set<Int>(), until: Int64? = nil
        while true {
            let page = relay.page(until: until, limit: 10, rng: &rng)
            page.forEach { seen.insert($0.id) }
            guard page.count >= 10, let oldest = page.map(\.at).min() else { break }
            until = oldest - 1
        }
        XCTAssertLessThan(seen.count, events.count, "the old rule skips the rest of each boundary second")
    }
}
