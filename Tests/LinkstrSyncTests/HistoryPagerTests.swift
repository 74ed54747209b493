import LinkstrSync
import XCTest

/// The per-relay history chain (wire 2026 §6), driven without a relay or a clock.
final class HistoryPagerTests: XCTestCase {
    typealias Pager = HistoryPager

    /// Feeds one page's events and its end; returns the actions.
    private func answer(_ pager: inout Pager, _ events: [(String, Int64)], end: Pager.PageEnd = .eose) -> [Pager.Action] {
        let number = pager.page!.number
        for (id, at) in events { pager.received(id: id, createdAt: at, matchesFilter: true, page: number) }
        return pager.ended(end, page: number)
    }

    private func requested(_ actions: [Pager.Action]) -> Pager.Page? {
        for case .request(let page) in actions { return page }
        return nil
    }

    private func events(_ range: ClosedRange<Int64>, prefix: String = "e") -> [(String, Int64)] {
        range.reversed().map { ("\(prefix)\($0)", $0) }
    }

    func testTheFirstPageAsksForTheNewestAndAnEmptyPageFinishes() {
        var pager = Pager()
        let first = requested(pager.start())
        XCTAssertEqual(first?.until, nil)
        XCTAssertEqual(first?.limit, 500)
        XCTAssertEqual(answer(&pager, []).last, .settled(.finished))
        XCTAssertEqual(pager.outcome, .finished)
        XCTAssertFalse(pager.isRunning)
    }

    func testUntilIsInclusiveAndShortPagesDoNotEndTheChain() {
        var pager = Pager()
        _ = pager.start()
        // A short page (10 of 500): the chain goes on from its oldest second, inclusive.
        var next = requested(answer(&pager, events(91...100)))
        XCTAssertEqual(next?.until, 91)
        XCTAssertEqual(next?.wireUntil, 91)
        XCTAssertEqual(next?.limit, 500)
        // The relay sends second 91 again (inclusive) and older ones.
        next = requested(answer(&pager, events(50...91)))
        XCTAssertEqual(next?.until, 50)
        // Only second 50 again: the whole page on its boundary, short ⇒ one second older.
        next = requested(answer(&pager, [("e50", 50)]))
        XCTAssertEqual(next?.until, 49)
        XCTAssertEqual(answer(&pager, []).last, .settled(.finished))
    }

    /// Full pages grow the next one, doubling to 4 000; what the relay says it allows (NIP-11) caps them,
    /// and so does a clamp learned from its answers; a short page does not grow the next.
    func testFullPagesGrowUpTo4000OrWhatTheRelayAllows() {
        func limits(_ pager: inout Pager, pages: Int, sent: (Int) -> Int) -> [Int] {
            var asked = [pager.page!.limit], second: Int64 = 1_000_000
            for _ in 0..<pages {
                let count = sent(asked.last!)
                let next = requested(answer(&pager, (0..<Int64(count)).map { ("g\(second - $0)", second - $0) }))!
                second -= Int64(count) - 1
                XCTAssertEqual(next.until, second)
                asked.append(next.limit)
            }
            return asked
        }
        var pager = Pager()
        _ = pager.start()
        XCTAssertEqual(limits(&pager, pages: 6) { $0 }, [500, 1_000, 2_000, 4_000, 4_000, 4_000, 4_000])
        pager = Pager(relayLimit: 1_500)
        _ = pager.start()
        XCTAssertEqual(limits(&pager, pages: 4) { $0 }, [500, 1_000, 1_500, 1_500, 1_500])
        pager = Pager(relayLimit: 300)
        _ = pager.start()
        XCTAssertEqual(limits(&pager, pages: 3) { $0 }, [300, 300, 300, 300])
        // A relay that sends 700 at most: the short page does not grow the next; once older events show
        // it was a clamp, pages stay at the first limit or the clamp, whichever is more.
        pager = Pager()
        _ = pager.start()
        XCTAssertEqual(limits(&pager, pages: 5) { min($0, 700) }, [500, 1_000, 1_000, 700, 700, 700])
        XCTAssertEqual(pager.learnedClamp, 700)
        // After a restart (a reconnect) the chain starts small again.
        _ = pager.start()
        XCTAssertEqual(pager.page?.limit, 500)
        // Short pages never grow it.
        pager = Pager()
        _ = pager.start()
        XCTAssertEqual(limits(&pager, pages: 3) { _ in 499 }, [500, 500, 500, 500])
    }

    func testACrowdedSecondDoublesTheLimitUpTo4000ThenMovesOnAndEndsIncomplete() {
        var pager = Pager()
        _ = pager.start()
        // A full first page: the next asks twice as many (pages grow).
        var next = requested(answer(&pager, events(1...500)))
        XCTAssertEqual(next?.until, 1)
        XCTAssertEqual(next?.limit, 1_000)
        var limit = 1_000
        while limit < 4_000 {
            // A full page, all on the boundary second: the same second again with twice the limit.
            next = requested(answer(&pager, (0..<limit).map { ("c\($0)", 1) }))
            limit *= 2
            XCTAssertEqual(next?.until, 1)
            XCTAssertEqual(next?.limit, min(limit, 4_000))
        }
        // Still full at 4 000: the older seconds are read all the same, and the chain ends incomplete.
        next = requested(answer(&pager, (0..<4_000).map { ("c\($0)", 1) }))
        XCTAssertEqual(next?.until, 0)
        XCTAssertEqual(next?.limit, 1_000, "the regular pages' limit, not the crowded second's")
        XCTAssertEqual(answer(&pager, [("z", 0)]).last, .settled(.incomplete(.crowdedSecond)), "second 0 read, nothing is older")
    }

    func testARelayThatClampsTheLimitBelowACrowdedSecondIsReadPastItAndReportedIncomplete() {
        // Pages that do not grow (the relay says 500): a full page on its boundary doubles, and a doubled
        // page that brings no more shows the clamp.
        var pager = Pager(relayLimit: 500)
        _ = pager.start()
        XCTAssertEqual(requested(answer(&pager, (0..<500).map { ("c\($0)", 9) }))?.until, 9)
        XCTAssertEqual(requested(answer(&pager, (0..<500).map { ("c\($0)", 9) }))?.limit, 1_000)
        // Asked for 1 000, the relay sends 500 again: it clamps. On to second 8.
        XCTAssertEqual(requested(answer(&pager, (0..<500).map { ("c\($0)", 9) }))?.until, 8)
        XCTAssertEqual(requested(answer(&pager, events(3...8)))?.until, 3)
        XCTAssertEqual(requested(answer(&pager, [("e3", 3)]))?.until, 2)
        XCTAssertEqual(answer(&pager, []).last, .settled(.incomplete(.crowdedSecond)))
        // Grown pages: asked for 1 000, the relay sends 500 all of second 9, which looks short. Older
        // events on the next page show the relay cut it: the second counts as crowded.
        pager = Pager()
        _ = pager.start()
        var next = requested(answer(&pager, (0..<500).map { ("c\($0)", 9) }))
        XCTAssertEqual(next?.until, 9)
        XCTAssertEqual(next?.limit, 1_000)
        next = requested(answer(&pager, (0..<500).map { ("c\($0)", 9) }))
        XCTAssertEqual(next?.until, 8)
        XCTAssertEqual(requested(answer(&pager, events(3...8)))?.until, 3)
        XCTAssertEqual(pager.learnedClamp, 500)
        XCTAssertEqual(requested(answer(&pager, [("e3", 3)]))?.until, 2)
        XCTAssertEqual(answer(&pager, []).last, .settled(.incomplete(.crowdedSecond)))
        // The same short page with nothing older: it was the whole second, and the history is complete.
        pager = Pager()
        _ = pager.start()
        _ = answer(&pager, (0..<500).map { ("c\($0)", 9) })
        XCTAssertEqual(requested(answer(&pager, (0..<600).map { ("c\($0)", 9) }))?.until, 8)
        XCTAssertEqual(answer(&pager, []).last, .settled(.finished))
    }

    func testABoundaryPageThatIsNotFullMovesOnAndSecondZeroEnds() {
        var pager = Pager()
        _ = pager.start()
        XCTAssertEqual(requested(answer(&pager, events(0...3)))?.until, 0)
        XCTAssertEqual(answer(&pager, [("e0", 0)]).last, .settled(.finished), "nothing is older than second 0")
    }

    func testAFailedPageLeavesTheHistoryIncompleteAndAReconnectStartsFromScratch() {
        for (end, reason) in [(Pager.PageEnd.timedOut, Pager.Incomplete.timedOut), (.disconnected, .disconnected)] {
            var pager = Pager()
            _ = pager.start()
            let second = requested(answer(&pager, events(100...600)))!
            let actions = answer(&pager, events(50...99), end: end)
            XCTAssertEqual(actions, [.close(second), .settled(.incomplete(reason))], "the cursor does not advance")
            let again = requested(pager.start())
            XCTAssertEqual(again?.until, nil, "retried from the newest events")
            XCTAssertNil(pager.outcome)
        }
    }

    /// Issue 32 (5): CLOSED is not the end of history. The same page is asked again after 1, 2 and 4 s
    /// (running meanwhile); one more refusal settles the chain as incomplete with the relay's reason.
    func testARefusedPageIsAskedAgainThenSettlesIncomplete() {
        var pager = Pager()
        _ = pager.start()
        let second = requested(answer(&pager, events(100...600)))!
        var current = second
        for wait in [1, 2, 4] {
            let actions = answer(&pager, events(90...99), end: .closed("rate-limited: slow down"))
            guard case .requestLater(let again, let after, let because)? = actions.last else { return XCTFail("\(actions)") }
            XCTAssertEqual(actions.first, .close(current))
            XCTAssertEqual(after, .seconds(wait))
            XCTAssertEqual(because, "rate-limited: slow down")
            XCTAssertEqual(again.until, second.until, "the same page, the cursor where it was")
            XCTAssertEqual(again.limit, second.limit)
            XCTAssertNotEqual(again.number, current.number, "a new subscription")
            XCTAssertTrue(pager.isRunning, "unsettled while it waits")
            XCTAssertNil(pager.outcome)
            current = again
        }
        XCTAssertEqual(answer(&pager, [], end: .closed("error: down")), [.close(current), .settled(.incomplete(.closed("error: down")))])
    }

    func testAPageReadAfterARefusalGoesOnAndTheCountStartsAgain() {
        var pager = Pager()
        _ = pager.start()
        _ = answer(&pager, events(100...600))
        _ = answer(&pager, [], end: .closed(""))
        // The second ask is answered: the chain goes on as if nothing had happened.
        let next = requested(answer(&pager, events(50...100)))
        XCTAssertEqual(next?.until, 50)
        for _ in 0..<3 {
            let actions = answer(&pager, [], end: .closed("error: again"))
            guard case .requestLater? = actions.last else { return XCTFail("three more waits after a page was read: \(actions)") }
        }
        XCTAssertEqual(requested(answer(&pager, events(10...50)))?.until, 10, "read on the fourth ask: the chain goes on")
    }

    func testAnInvalidResponseIsIncomplete() {
        var pager = Pager()
        _ = pager.start()
        _ = answer(&pager, events(100...600))
        // An event after the page's until.
        XCTAssertEqual(answer(&pager, [("late", 700)]).last, .settled(.incomplete(.invalidResponse)))
        // An event that does not match the filter.
        _ = pager.start()
        let n = pager.page!.number
        pager.received(id: "x", createdAt: 5, matchesFilter: false, page: n)
        XCTAssertEqual(pager.ended(.eose, page: n).last, .settled(.incomplete(.invalidResponse)))
        // More than 4 000 events in one page.
        _ = pager.start()
        XCTAssertEqual(answer(&pager, (0...4_000).map { ("m\($0)", 10) }).last, .settled(.incomplete(.invalidResponse)))
    }

    func testEventsOfAnOlderPageAndRepeatedIdsDoNotCount() {
        var pager = Pager()
        _ = pager.start()
        let old = pager.page!.number
        _ = pager.start()
        pager.received(id: "stale", createdAt: 5, matchesFilter: false, page: old)
        XCTAssertEqual(pager.ended(.eose, page: old), [], "an older page's end is ignored")
        // 500 copies of one id is one event: a short page, not a full one.
        XCTAssertEqual(requested(answer(&pager, [("same", 7)]))?.until, 7)
        let next = requested(answer(&pager, Array(repeating: ("same", 7), count: 500)))
        XCTAssertEqual(next?.until, 6, "a short page on its boundary moves on; a full one would double the limit")
        XCTAssertEqual(next?.limit, 500)
    }

    func testARelayThatReadsUntilAsExclusiveIsDetectedAndPagedOneSecondHigher() {
        var pager = Pager()
        _ = pager.start()
        XCTAssertEqual(requested(answer(&pager, events(100...599)))?.until, 100)
        // Asked until 100, the relay sends only older seconds: second 100 is missing.
        let retry = requested(answer(&pager, events(50...99)))
        XCTAssertEqual(retry?.until, 100)
        XCTAssertEqual(retry?.wireUntil, 101, "the same page, one second higher on the wire")
        XCTAssertTrue(pager.untilIsExclusive)
        let next = requested(answer(&pager, events(50...100)))
        XCTAssertEqual(next?.until, 50)
        XCTAssertEqual(next?.wireUntil, 51)
        // An inclusive relay after all (it sends the wire second): back to inclusive.
        let n = pager.page!.number
        pager.received(id: "e51", createdAt: 51, matchesFilter: true, page: n)
        XCTAssertFalse(pager.untilIsExclusive)
    }

    /// A model relay (inclusive or exclusive `until`, a clamped limit) holding events with crowded
    /// seconds: the chain reads every event on both kinds of relay.
    func testTheChainReadsEverythingOnInclusiveAndExclusiveRelays() {
        var rng = SystemRandomNumberGenerator()
        for exclusive in [false, true] {
            for clamp in [4_000, 300] {
                var stored = [(String, Int64)]()
                for i in 0..<3_000 { stored.append(("r\(i)", Int64.random(in: 0...2_000, using: &rng))) }
                for i in 0..<250 { stored.append(("crowd\(i)", 1_000)) }  // a crowded second, within every limit
                for i in 0..<40 { stored.append(("zero\(i)", 0)) }
                let sorted = stored.sorted { ($0.1, $0.0) > ($1.1, $1.0) }
                var pager = Pager()
                var seen = Set<String>()
                var actions = pager.start()
                var pages = 0
                while let page = requested(actions) {
                    pages += 1
                    XCTAssertLessThan(pages, 1_000, "the chain ends")
                    if pages >= 1_000 { break }
                    let matching = sorted.filter { e in
                        guard let until = page.wireUntil else { return true }
                        return exclusive ? e.1 < until : e.1 <= until
                    }
                    let sent = Array(matching.prefix(min(page.limit, clamp)))
                    seen.formUnion(sent.map(\.0))
                    actions = answer(&pager, sent)
                }
                XCTAssertEqual(pager.outcome, .finished, "exclusive \(exclusive), clamp \(clamp)")
                XCTAssertEqual(seen.count, stored.count, "exclusive \(exclusive), clamp \(clamp)")
                XCTAssertEqual(pager.untilIsExclusive, exclusive)
            }
        }
    }
}
