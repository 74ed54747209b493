import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// The engine's NIP-77 syncs of both history chains over a fake pool and a manual clock: what it opens
/// with which filter, what a relay's answer makes it fetch, and how a refusal, a NOTICE or silence of
/// one or both chains turns into pages (the wire is tested end to end in `NegentropySyncTests`).
final class EngineReconcileTests: XCTestCase {
    let relay = "ws://a.test"

    private func speaking(_ t: EngineUnderTest) async throws -> [FakePool.NegentropySent] {
        t.pool.state.withLock { $0.advertisesNegentropy = true }
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        return t.pool.negentropySent.filter { if case .open = $0.verb { return true } else { return false } }
    }

    /// A relay's answer to `open` when it holds `events` (a real negentropy responder).
    private func answer(_ open: FakePool.NegentropySent, holding events: [NostrEvent]) throws -> String {
        let items = try events.map { NegentropyItem(timestamp: UInt64($0.createdAt), id: try XCTUnwrap(Bytes32(hex: $0.id.hex))) }
        let responder = Negentropy(storage: NegentropyStorage(items), role: .responder)
        let first = try XCTUnwrap(Hex.decode(try XCTUnwrap(open.message)))
        return Hex.encode(try XCTUnwrap(try responder.reconcile(first).next))
    }

    private static func pagesAsked(_ t: EngineUnderTest) -> [SyncSubscription.HistoryChain] {
        SyncSubscription.HistoryChain.own.filter { !t.pool.requests(.history($0, relay: 0, page: 0)).isEmpty }
    }

    func testBothChainsAreReconciledAndOnlyWhatWeLackIsFetched() async throws {
        let t = try EngineUnderTest()
        let opens = try await speaking(t)
        XCTAssertEqual(opens.map(\.id), ["linkstr-neg-0", "linkstr-neg-preferences-0"])
        XCTAssertEqual(opens.first?.verb, .open(Filter(kinds: [NIP59.giftWrapKind], tags: ["p": [t.me]])))
        XCTAssertEqual(opens.last?.verb, .open(Filter(authors: [t.me], kinds: [PrivatePreference.kind])))
        XCTAssertEqual(Self.pagesAsked(t), [], "nothing paged")

        // The relay holds one record of ours that we lack: it alone is fetched, by id, and applied.
        let bob = SecretKey.generate().publicKey.hex
        let record = try PrivatePreference.alias(pubkey: bob, name: "Bob").event(secretKey: t.key, createdAt: t.clock.start - 60)
        await t.engine.handle(.negentropy(relay: relay, subscription: opens[1].id, .message(try answer(opens[1], holding: [record]))))
        let fetch = try XCTUnwrap(t.pool.requests(.reconcileFetch(.preferences, relay: 0, batch: 0)).first)
        XCTAssertEqual(fetch.filters, [Filter(ids: [record.id.hex], authors: [t.me], kinds: [PrivatePreference.kind], limit: 1)])
        XCTAssertEqual(fetch.relays, [relay])
        await t.engine.handle(.event(relay: relay, subscription: fetch.id, record))
        await t.engine.handle(.eose(relay: relay, subscription: fetch.id))
        let d = PrivatePreference.dTag(for: "alias:" + bob, secretKey: t.key)
        XCTAssertEqual(try t.store.preference(dTag: d)?.preference, .alias(pubkey: bob, name: "Bob"))
        XCTAssertEqual(try t.store.preferenceNegentropySet().count, 1, "the next sync holds it")
        XCTAssertTrue(t.pool.closed.contains(fetch.id))

        // The gift wraps: the relay holds none; the history is read once both chains finished.
        await t.engine.handle(.negentropy(relay: relay, subscription: opens[0].id, .message(try answer(opens[0], holding: []))))
        let complete = await t.engine.waitForBackfill(timeout: .seconds(1))
        XCTAssertTrue(complete)
        let outcome = await t.engine.historyOutcomes()[relay]
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(t.pool.negentropySent.filter { $0.verb == .close }.map(\.id).sorted(), ["linkstr-neg-0", "linkstr-neg-preferences-0"])
        let stats = await t.engine.settledStats()
        XCTAssertEqual([stats.reconciledRelays, stats.preferencesReconciled, stats.preferencesReconcileNeeded], [1, 1, 1])
        XCTAssertEqual(Self.pagesAsked(t), [])
        await t.engine.stop()
    }

    func testARefusalOfOneChainPagesThatChainAndIsRememberedForBoth() async throws {
        let t = try EngineUnderTest()
        let opens = try await speaking(t)
        await t.engine.handle(.negentropy(relay: relay, subscription: opens[1].id, .refused(RelayStatusMessage("blocked: not for this filter"))))
        XCTAssertEqual(Self.pagesAsked(t), [.preferences], "the gift wraps go on reconciling")
        XCTAssertNotNil(try t.store.negentropyRefusedAt(relay))
        let stats = await t.engine.settledStats()
        XCTAssertEqual([stats.preferencesReconcileFallbacks, stats.reconcileFallbacks], [1, 0])
        XCTAssertEqual(stats.lastReconcileFallback, "refused (blocked: not for this filter)")

        // The next connection pages both chains at once: no NEG-OPEN.
        await t.engine.handle(.ready(relay: relay))
        XCTAssertEqual(Self.pagesAsked(t), [.giftWraps, .preferences])
        XCTAssertEqual(t.pool.negentropySent.filter { if case .open = $0.verb { return true } else { return false } }.count, 2)
        await t.engine.stop()
    }

    func testANoticeBeforeTheFirstAnswerPagesBothChains() async throws {
        let t = try EngineUnderTest()
        _ = try await speaking(t)
        await t.engine.handle(.notice(relay: relay, "ERROR: unknown message type NEG-OPEN"))
        XCTAssertEqual(Self.pagesAsked(t), [.giftWraps, .preferences])
        let stats = await t.engine.settledStats()
        XCTAssertEqual([stats.reconcileFallbacks, stats.preferencesReconcileFallbacks], [1, 1])
        await t.engine.stop()
    }

    func testSilenceForThreeSecondsPagesBothChainsOnTheInjectedClock() async throws {
        let t = try EngineUnderTest()
        _ = try await speaking(t)
        // Both: with one, the clock could move before the second chain's timer starts, and that one
        // would then end a second later than the test expects (seen once in a full run).
        await eventually("both answer timers wait") { t.clock.sleepers(until: SyncEngine.negentropyFirstAnswer) >= 2 }
        t.clock.advance(by: .seconds(2))
        XCTAssertEqual(Self.pagesAsked(t), [], "not before the deadline")
        t.clock.advance(by: .seconds(1))
        await eventually("both chains paged") { Self.pagesAsked(t) == [.giftWraps, .preferences] }
        XCTAssertNotNil(try t.store.negentropyRefusedAt(relay), "a silent relay is remembered")
        await t.engine.stop()
    }
}
