import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// The ingest pipeline over a fake pool: a wrap is opened once however often it comes, the pool's
/// consumer is held while batches wait, junk is told to the relay's meter, and stop ends a flood.
final class EngineIngestTests: XCTestCase {
    let relay = "ws://a.test"

    func testAWrapIsOpenedOnceHoweverOftenAndWhereverItComes() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.live.id))
        let rumor = try XCTUnwrap({ () -> OutboundRumor? in
            guard case .success(let s) = OutboundPlanner.createSession(name: "Films", members: [t.me], me: bob.publicKey.hex, now: t.clock.start,
                                                                        random: SystemRandom()) else { return nil }
            return s.rumor
        }())
        let wraps = try wrap(rumor, from: bob, at: t.clock.start)
        let mine = try XCTUnwrap(wraps.first { $0.tags.contains(["p", t.me]) })
        var updates = t.engine.updates.makeAsyncIterator()
        for subscription in [SyncSubscription.live, .history(.giftWraps, relay: 0, page: 0), .live] {
            await t.engine.handle(.event(relay: relay, subscription: subscription.id, mine))
        }
        await t.engine.flush()
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, mine))
        await t.engine.flush()
        let stats = await t.engine.stats
        XCTAssertEqual(stats.wrapsReceived, 4)
        XCTAssertEqual(stats.decryptions, 1, "opened once: the others were in flight or already processed")
        XCTAssertEqual(stats.applied, 1)
        XCTAssertEqual(try t.store.sessionSummaries(archived: false).map(\.name), ["Films"])
        let ingested = await t.said(&updates) { update -> Set<String>? in
            if case .ingested(let touched, _) = update { return touched } else { return nil }
        }
        XCTAssertEqual(ingested, [[rumor.payload.conversationID]])
        await t.engine.stop()
    }

    /// Issue 53 (1): another wrap around a seal already opened (signed right: only its sender can make
    /// one) is junk, told to the relay's meter and never written as a processed wrap; the first stays.
    func testAnotherWrapAroundASealAlreadyOpenedIsJunk() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.live.id))
        guard case .success(let s) = OutboundPlanner.createSession(name: "Films", members: [t.me], me: bob.publicKey.hex, now: t.clock.start,
                                                                    random: SystemRandom()) else { return XCTFail("no session planned") }
        let me = try PublicKey(hex: t.me)
        let seal = try NIP59.seal(rumor: s.rumor.rumor(author: bob.publicKey), sender: bob, recipient: me, now: t.clock.start, random: SystemRandom())
        let wraps = try (0..<3).map { _ in try NIP59.wrap(seal: seal, recipient: me, now: t.clock.start, random: SystemRandom()) }
        XCTAssertEqual(Set(wraps.map(\.id)).count, 3)
        XCTAssertTrue(wraps.allSatisfy { (try? $0.verify()) != nil }, "each variant is signed right")
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, wraps[0]))
        await t.engine.flush()
        for variant in wraps.dropFirst() { await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, variant)) }
        await t.engine.flush()
        let stats = await t.engine.stats
        XCTAssertEqual(stats.applied, 1)
        XCTAssertEqual(stats.duplicates, 0, "a variant is not a duplicate: it is never written")
        XCTAssertEqual(stats.invalidWraps, 2)
        XCTAssertEqual(try t.store.alreadyProcessed(wraps.map(\.id.hex)), [wraps[0].id.hex])
        XCTAssertEqual(t.pool.state.withLock { $0.checked[relay]?.junk }, 2, "told to the relay's junk meter")
        await t.engine.stop()
    }

    func testAPartialBatchOfHistoryWaitsLongerThanOneOfNews() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        func wrapForMe(_ name: String) throws -> NostrEvent {
            guard case .success(let s) = OutboundPlanner.createSession(name: name, members: [t.me], me: bob.publicKey.hex, now: t.clock.start,
                                                                        random: SystemRandom()) else { throw StorageError.corrupt("no session planned") }
            return try XCTUnwrap(try wrap(s.rumor, from: bob, at: t.clock.start).first { $0.tags.contains(["p", t.me]) })
        }
        let history = try wrapForMe("Films"), news = try wrapForMe("Books")
        let clock = t.clock
        var start = clock.elapsed
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.history(.giftWraps, relay: 0, page: 0).id, history))
        await eventually("a flush timer for history") { [start] in clock.hasSleeper(until: start + IngestState.historyDelay) }
        t.clock.advance(by: IngestState.newsDelay)
        try await Task.sleep(for: .milliseconds(100))
        let waiting = await t.engine.ingestion.batcher.buffer.count
        XCTAssertEqual(waiting, 1, "history waits past the news delay for more of its page")
        t.clock.advance(by: IngestState.historyDelay - IngestState.newsDelay)
        await eventually("the history flushed at its delay") { await t.engine.stats.applied == 1 }
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.live.id))
        start = clock.elapsed
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, news))
        await eventually("a flush timer for news") { [start] in clock.hasSleeper(until: start + IngestState.newsDelay) }
        t.clock.advance(by: IngestState.newsDelay)
        await eventually("the news flushed at its delay") { await t.engine.stats.applied == 2 }
        XCTAssertEqual(Set(try t.store.sessionSummaries(archived: false).map(\.name)), ["Films", "Books"])
        await t.engine.stop()
    }

    func testThePoolsConsumerIsHeldWhileBatchesWaitAndJunkIsToldToTheRelaysMeter() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        let stranger = SecretKey.generate()
        // Well-formed wraps that are not for us: each costs an unwrap attempt and is junk.
        // Enough for the batches to grow to the largest and the buffer to fill behind them.
        let count = IngestBatchSizes.largest * (IngestState.queuedBatches + 1) + 1_000
        let junk = (0..<count).map { i in
            UnsignedEvent(pubkey: stranger.publicKey, createdAt: t.clock.start - Int64(i), kind: NIP59.giftWrapKind, tags: [["p", t.me]],
                          content: "not a sealed message \(i)").signed(with: stranger)
        }
        var most = 0
        for e in junk {
            await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, e))
            most = max(most, await t.engine.ingestion.batcher.buffer.count)
        }
        XCTAssertLessThan(most, IngestBatchSizes.largest * IngestState.queuedBatches, "the consumer waits once two full batches are buffered")
        XCTAssertGreaterThanOrEqual(most, IngestBatchSizes.smallest * IngestState.queuedBatches, "batches grew during the burst")
        await t.engine.flush()
        let stats = await t.engine.stats
        XCTAssertEqual(stats.invalidWraps, count)
        XCTAssertEqual(t.pool.state.withLock { $0.checked[relay]?.junk }, count)
        await t.engine.stop()
    }

    func testStopEndsAFloodAndIngestsWhatWasBuffered() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        let stranger = SecretKey.generate()
        let pool = t.pool, me = t.me, relay = relay
        let flood = Task {
            var i: Int64 = 0
            while !Task.isCancelled {
                i += 1
                let e = UnsignedEvent(pubkey: stranger.publicKey, createdAt: i, kind: NIP59.giftWrapKind, tags: [["p", me]], content: "\(i)").signed(with: stranger)
                pool.sink.yield(.event(relay: relay, subscription: SyncSubscription.live.id, e))
                await Task.yield()
            }
        }
        await eventually("the flood being received") { await t.engine.stats.wrapsReceived > 300 }
        await t.engine.stop()
        flood.cancel()
        let stats = await t.engine.stats
        let value1 = await t.engine.ingestion.batcher.buffer.count
        XCTAssertEqual(value1, 0, "what was buffered was ingested")
        XCTAssertEqual(stats.invalidWraps + stats.wrapsAlreadyProcessed, stats.wrapsReceived)
    }
}
