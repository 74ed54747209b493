import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// The engine's history chains over a fake pool and a manual clock: pages with the relay's clamped
/// limit, EOSE settling a chain, a page deadline on the injected clock, events on a stale page ignored.
final class EngineHistoryTests: XCTestCase {
    let relay = "ws://a.test"

    func testStartSubscribesAndAReadyRelayGetsBothChainsWithItsClampedLimit() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.limit = 100 }
        try await t.engine.start()
        XCTAssertEqual(t.pool.requests.map(\.id), ["linkstr-live", "linkstr-follow-list", "linkstr-private-preferences", "linkstr-profiles"])
        let live = try XCTUnwrap(t.pool.requests(.live).first?.filters.first)
        XCTAssertEqual(live.limit, SyncEngine.pageSize, "an empty store gets the newest at once")
        XCTAssertEqual(live.since, t.clock.start - SyncEngine.liveWindow, "backdated wraps still count as new")
        await t.engine.handle(.ready(relay: relay))
        let wraps = try XCTUnwrap(t.pool.requests(.history(.giftWraps, relay: 0, page: 0)).first)
        XCTAssertEqual(wraps.relays, [relay])
        XCTAssertEqual(wraps.filters.first?.limit, 100, "the relay's max_limit clamps the page")
        XCTAssertEqual(wraps.filters.first?.kinds, [NIP59.giftWrapKind])
        XCTAssertEqual(t.pool.requests(.history(.preferences, relay: 0, page: 0)).first?.filters.first?.kinds, [PrivatePreference.kind])
        // Both chains end empty: the history is read, and said once.
        var updates = t.engine.updates.makeAsyncIterator()
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(.giftWraps, relay: 0, page: 0).id))
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(.preferences, relay: 0, page: 0).id))
        let outcomes = await t.engine.historyOutcomes()
        XCTAssertEqual(outcomes[relay], .finished)
        let complete = await t.engine.waitForBackfill(timeout: .seconds(1))
        XCTAssertTrue(complete)
        let completions = await t.said(&updates) { update -> Bool? in if case .backfillComplete = update { return true } else { return nil } }
        XCTAssertEqual(completions, [true])
        XCTAssertTrue(t.pool.closed.contains(SyncSubscription.history(.giftWraps, relay: 0, page: 0).id), "a finished page is closed")
        await t.engine.stop()
    }

    /// A relay that refused one of our writes is read-only, not gone: its history goes on and completes
    /// (it was cut as if disconnected, and the backfill waited for a reconnect that never came).
    func testARelayMarkedReadOnlyMidHistoryIsStillRead() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.status(RelaySnapshot(url: relay, enabled: true, status: .readOnly, lastError: "restricted: read only",
                                                    stats: RelayStats(), information: nil, authenticated: false)))
        XCTAssertFalse(t.pool.closed.contains(SyncSubscription.history(.giftWraps, relay: 0, page: 0).id), "the page stays open")
        for chain in SyncSubscription.HistoryChain.own {
            await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(chain, relay: 0, page: 0).id))
        }
        let outcome = await t.engine.historyOutcomes()[relay]
        XCTAssertEqual(outcome, .finished)
        // Only then: an unsettled history would park this wait on the manual clock for good.
        if outcome == .finished {
            let complete = await t.engine.waitForBackfill(timeout: .seconds(1))
            XCTAssertTrue(complete)
        }
        await t.engine.stop()
    }

    func testAStoreThatHoldsItsHistoryAsksTheLiveSubscriptionForNewWrapsOnly() async throws {
        let t = try EngineUnderTest()
        try t.store.setHistoryRestored()
        try await t.engine.start()
        let live = try XCTUnwrap(t.pool.requests(.live).first?.filters.first)
        XCTAssertEqual(live.limit, 1, "new wraps (and one stored at most): what relays hold comes with the history")
        XCTAssertEqual(t.pool.requests(.preferences).first?.filters.first?.limit, 1)
        await t.engine.stop()
    }

    func testAPageThatNeverEndsTimesOutOnTheInjectedClock() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        let value1 = await t.engine.historyOutcomes()[relay]
        XCTAssertNil(value1)
        // Nothing passes until the test moves time: then the deadline ends the page, as often as the pager retries.
        for _ in 0..<10 where await t.engine.historyOutcomes()[relay] == nil {
            await eventually("a page timer waiting") { t.clock.sleepers > 0 }
            t.clock.advance(by: SyncEngine.pageDeadline)
            try await Task.sleep(for: .milliseconds(20))
        }
        let relay = self.relay
        await eventually("the chain settled") { await t.engine.historyOutcomes()[relay] != nil }
        let value2 = await t.engine.historyOutcomes()[relay]
        XCTAssertEqual(value2, .incomplete(.timedOut))
        await t.engine.stop()
    }

    /// A page's deadline runs from its last event: a page still bringing wraps (grown to 4 000 on a slow
    /// link) outlives it; one silent for a whole deadline times out.
    func testAPageTimesOutOnlyAfterADeadlineWithoutEvents() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        let page = SyncSubscription.history(.giftWraps, relay: 0, page: 0).id
        let sender = SecretKey.generate(), me = try XCTUnwrap(PublicKey(hex: t.me))
        let create = LinkstrPayload(conversationID: "slow-page", rootID: "op", kind: .sessionCreate, sessionName: "slow",
                                    memberPubkeys: [sender.publicKey.hex, t.me])
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: t.clock.start - 60, kind: 44001, content: create.encoded())
        // The preferences chain ends at once: the gift wraps' page is the only one with a deadline.
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(.preferences, relay: 0, page: 0).id))
        try await Task.sleep(for: .milliseconds(50))
        for step in 0..<3 {
            let wrap = try NIP59.giftWrap(rumor: rumor, sender: sender, recipient: me, now: t.clock.start)
            await t.engine.handle(.event(relay: relay, subscription: page, wrap))
            let deadline = t.clock.elapsed + SyncEngine.pageDeadline
            await eventually("the page's deadline waiting") { t.clock.hasSleeper(until: deadline) }
            t.clock.advance(by: SyncEngine.pageDeadline)
            try await Task.sleep(for: .milliseconds(20))
            let outcome = await t.engine.historyOutcomes()[relay]
            XCTAssertNil(outcome, "step \(step): the page brought a wrap within the deadline")
            XCTAssertFalse(t.pool.closed.contains(page), "step \(step)")
        }
        // Now nothing comes for a whole deadline: the re-armed deadline ends the page.
        let deadline = t.clock.elapsed + SyncEngine.pageDeadline
        await eventually("the deadline armed again") { t.clock.hasSleeper(until: deadline) }
        t.clock.advance(by: SyncEngine.pageDeadline)
        let relay = self.relay
        await eventually("the page timed out") { await t.engine.historyOutcomes()[relay] != nil }
        let outcome = await t.engine.historyOutcomes()[relay]
        XCTAssertEqual(outcome, .incomplete(.timedOut))
        await t.engine.stop()
    }

    func testAnEOSEForAnOlderPageOrAnUnknownSubscriptionChangesNothing() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(.giftWraps, relay: 0, page: 7).id))
        await t.engine.handle(.eose(relay: relay, subscription: "linkstr-backfill-zero-0"))
        await t.engine.handle(.eose(relay: relay, subscription: "someone-elses"))
        let value3 = await t.engine.historyOutcomes()[relay]
        XCTAssertNil(value3, "only the running page's end counts")
        await t.engine.stop()
    }

    func testSubscriptionIDsRoundTripAndJunkIsNotOurs() {
        let all: [SyncSubscription] = [.live, .followList, .profiles, .addedYouNew, .addedYouRows, .preferences, .query(12),
                                       .history(.giftWraps, relay: 3, page: 0), .history(.preferences, relay: 0, page: 41),
                                       .reconcile(.giftWraps, relay: 2), .reconcile(.preferences, relay: 5),
                                       .reconcileFetch(.giftWraps, relay: 1, batch: 9), .reconcileFetch(.preferences, relay: 12, batch: 0),
                                       .history(.profiles(part: 4), relay: 2, page: 1), .reconcile(.profiles(part: 0), relay: 7),
                                       .reconcileFetch(.profiles(part: 31), relay: 0, batch: 5)]
        for s in all { XCTAssertEqual(SyncSubscription(id: s.id), s, s.id) }
        for junk in ["", "linkstr-query-", "linkstr-query--1", "linkstr-backfill-1", "linkstr-backfill-1-2-3", "linkstr-backfill--1-2", "linkstr-livex",
                     "linkstr-neg-", "linkstr-neg-x", "linkstr-neg-preferences-", "linkstr-neg-preferences-fetch-1", "linkstr-neg-fetch-1",
                     "linkstr-neg-profiles-1", "linkstr-neg-profiles-1-2-3", "linkstr-neg-profiles-fetch-1-2", "linkstr-neg-profiles-+1-2",
                     "linkstr-profiles-history-1-2", "linkstr-profiles-history-1--2-3", "linkstr-profiles-history-1-2-3-4", "linkstr-profiles-"] {
            XCTAssertNil(SyncSubscription(id: junk), junk)
        }
    }
}
