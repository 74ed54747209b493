import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// The profiles and relay lists of the people we know, read as each relay's history over a fake pool:
/// by NIP-77 only what we lack is fetched, the lists the relay still holds are seen again, a relay
/// without it pages them, the live request asks for new ones only, and a new set of people replaces
/// the parts (the wire is tested end to end in `NegentropySyncTests`).
final class EngineProfileHistoryTests: XCTestCase {
    let relay = "ws://a.test"
    let bob = SecretKey.generate()

    private func event(_ key: SecretKey, kind: Int, at: Int64, tags: [[String]] = [], content: String = "") -> NostrEvent {
        UnsignedEvent(pubkey: key.publicKey, createdAt: at, kind: kind, tags: tags, content: content).signed(with: key)
    }

    /// An engine whose store knows Bob (a contact), with his kind 0 and kind 10050 held.
    private func knowingBob() async throws -> (EngineUnderTest, profile: NostrEvent, inbox: NostrEvent) {
        let t = try EngineUnderTest()
        try t.store.replaceContacts([bob.publicKey.hex], stamp: LWWStamp(createdAt: t.clock.start - 900, eventID: String(repeating: "c", count: 64)))
        let profile = event(bob, kind: 0, at: t.clock.start - 500, content: #"{"name":"Bob"}"#)
        let inbox = event(bob, kind: InboxRelayRule.inboxKind, at: t.clock.start - 400, tags: [["relay", "wss://inbox.bob.test"]])
        try t.store.applyProfile(bob.publicKey.hex, .apply(name: "Bob", stamp: LWWStamp(createdAt: profile.createdAt, eventID: profile.id.hex)))
        try t.store.storeRelayList(bob.publicKey.hex, kind: inbox.kind, relays: ["wss://inbox.bob.test"],
                                   stamp: LWWStamp(createdAt: inbox.createdAt, eventID: inbox.id.hex), fetchedAt: t.clock.start - 300)
        return (t, profile, inbox)
    }

    private func opened(_ t: EngineUnderTest) -> [FakePool.NegentropySent] {
        t.pool.negentropySent.filter { if case .open = $0.verb { return true } else { return false } }
    }

    private func answer(_ open: FakePool.NegentropySent, holding events: [NostrEvent]) throws -> String {
        let items = try events.map { NegentropyItem(timestamp: UInt64($0.createdAt), id: try XCTUnwrap(Bytes32(hex: $0.id.hex))) }
        let responder = Negentropy(storage: NegentropyStorage(items), role: .responder)
        return Hex.encode(try XCTUnwrap(try responder.reconcile(try XCTUnwrap(Hex.decode(try XCTUnwrap(open.message)))).next))
    }

    /// The gift wraps' and preferences' syncs answered (the relay holds none), so that their answer
    /// timers do not page the relay when the test moves the clock on.
    private func answerOwnChains(_ t: EngineUnderTest) async throws {
        for id in ["linkstr-neg-0", "linkstr-neg-preferences-0"] {
            let open = try XCTUnwrap(opened(t).last { $0.id == id })
            await t.engine.handle(.negentropy(relay: relay, subscription: id, .message(try answer(open, holding: []))))
        }
    }

    /// The engine started and the relay ready, without NIP-77: the part's first page.
    private func pagedPart(_ t: EngineUnderTest) async throws -> FakePool.Request {
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        return try XCTUnwrap(t.pool.requests(.history(.profiles(part: 0), relay: 0, page: 0)).first)
    }

    func testOnlyTheListWeLackIsFetchedAndTheOnesTheRelayHoldsAreSeenAgain() async throws {
        let (t, profile, inbox) = try await knowingBob()
        t.pool.state.withLock { $0.advertisesNegentropy = true }
        try await t.engine.start()
        // The live request asks for new profiles only (ten minutes of clock skew); our own, whole.
        let live = try XCTUnwrap(t.pool.requests(.profiles).last)
        XCTAssertEqual(live.filters.last, Filter(authors: [bob.publicKey.hex], kinds: [0, 10050, 10002], since: t.clock.start - 600))
        XCTAssertEqual(live.filters.first, Filter(authors: [t.me], kinds: [0], limit: 1))

        await t.engine.handle(.ready(relay: relay))
        try await answerOwnChains(t)
        let open = try XCTUnwrap(opened(t).first { $0.id == "linkstr-neg-profiles-0-0" })
        XCTAssertEqual(open.verb, .open(Filter(authors: [bob.publicKey.hex], kinds: [0, 10050, 10002])))

        // The relay holds his kind 0 as we do, and a kind 10002 we lack; not his kind 10050.
        let general = event(bob, kind: InboxRelayRule.relayListKind, at: t.clock.start - 200, tags: [["r", "wss://read.bob.test", "read"]])
        await t.engine.handle(.negentropy(relay: relay, subscription: open.id, .message(try answer(open, holding: [profile, general]))))
        let fetch = try XCTUnwrap(t.pool.requests(.reconcileFetch(.profiles(part: 0), relay: 0, batch: 0)).first)
        // Time passes within the fetch's deadline (15 s; the answer's 3 s timer ended with the rounds).
        t.clock.advance(by: .seconds(10))
        XCTAssertEqual(fetch.filters.first?.ids, [general.id.hex], "only what we lack")
        await t.engine.handle(.event(relay: relay, subscription: fetch.id, general))
        await t.engine.handle(.eose(relay: relay, subscription: fetch.id))
        XCTAssertEqual(try t.store.relayList(bob.publicKey.hex, kind: InboxRelayRule.relayListKind), ["wss://read.bob.test"])
        // His kind 10050 is not on this relay: not seen again; the kind 10002 just came, now.
        XCTAssertEqual(try t.store.relayListRecord(bob.publicKey.hex, kind: inbox.kind)?.fetchedAt, t.clock.start - 300)
        XCTAssertEqual(try t.store.relayListRecord(bob.publicKey.hex, kind: general.kind)?.fetchedAt, t.clock.start + 10)
        let stats = await t.engine.settledStats()
        XCTAssertEqual([stats.profilesReconciled, stats.profilesReconcileNeeded, stats.profilesReconcileFallbacks], [1, 1, 0])

        // The next connection: the relay holds both lists as we do; they are seen again, nothing fetched.
        t.clock.advance(by: .seconds(100))
        await t.engine.handle(.ready(relay: relay))
        try await answerOwnChains(t)
        let again = try XCTUnwrap(opened(t).last { $0.id == "linkstr-neg-profiles-0-0" })
        XCTAssertNotEqual(again, open, "our set holds the kind 10002 now")
        let ours = try t.store.profileNegentropySet([bob.publicKey.hex])
        XCTAssertEqual(ours.count, 3, "his kind 0 and both lists")
        let fetchesBefore = t.pool.requests.filter { $0.id.hasPrefix("linkstr-neg-profiles-fetch-") }.count
        await t.engine.handle(.negentropy(relay: relay, subscription: again.id, .message(try answer(again, holding: [profile, inbox, general]))))
        XCTAssertEqual(t.pool.requests.filter { $0.id.hasPrefix("linkstr-neg-profiles-fetch-") }.count, fetchesBefore, "nothing fetched")
        XCTAssertEqual(try t.store.relayListRecord(bob.publicKey.hex, kind: inbox.kind)?.fetchedAt, t.clock.start + 110, "seen again")
        XCTAssertEqual(try t.store.profileStamp(bob.publicKey.hex)?.eventID, profile.id.hex)
        await t.engine.stop()
    }

    func testARelayWithoutNIP77PagesThePartsAndTheBackfillDoesNotWaitForThem() async throws {
        let (t, profile, _) = try await knowingBob()
        let page = try await pagedPart(t)
        XCTAssertEqual(page.filters, [Filter(authors: [bob.publicKey.hex], kinds: [0, 10050, 10002], limit: 3)], "all his at once: three kinds")
        XCTAssertEqual(page.relays, [relay])
        // The own chains end; the profiles' page is still open: the backfill is complete all the same.
        for chain in SyncSubscription.HistoryChain.own {
            await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.history(chain, relay: 0, page: 0).id))
        }
        let complete = await t.engine.waitForBackfill(timeout: .seconds(1))
        XCTAssertTrue(complete)
        // A newer kind 0 on the page is applied.
        let newer = event(bob, kind: 0, at: profile.createdAt + 10, content: #"{"name":"Robert"}"#)
        await t.engine.handle(.event(relay: relay, subscription: page.id, newer))
        XCTAssertEqual(try t.store.profileStamp(bob.publicKey.hex)?.eventID, newer.id.hex)
        await t.engine.stop()
    }

    func testARefusedPartIsPagedAndTheRelayStillReconcilesOurHistory() async throws {
        let (t, _, _) = try await knowingBob()
        t.pool.state.withLock { $0.advertisesNegentropy = true }
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.negentropy(relay: relay, subscription: "linkstr-neg-profiles-0-0", .refused(RelayStatusMessage("blocked: too many authors"))))
        XCTAssertEqual(t.pool.requests(.history(.profiles(part: 0), relay: 0, page: 0)).count, 1, "the part is paged")
        XCTAssertNil(try t.store.negentropyRefusedAt(relay), "not remembered: our own chains still reconcile")
        let stats = await t.engine.settledStats()
        XCTAssertEqual([stats.profilesReconcileFallbacks, stats.reconcileFallbacks, stats.preferencesReconcileFallbacks], [1, 0, 0])
        // The next connection offers NIP-77 again, for every chain.
        await t.engine.handle(.ready(relay: relay))
        XCTAssertEqual(opened(t).map(\.id).filter { $0 == "linkstr-neg-0" }.count, 2)
        XCTAssertEqual(opened(t).map(\.id).filter { $0 == "linkstr-neg-profiles-0-0" }.count, 2)
        await t.engine.stop()
    }

    func testOlderProfilesAndListsAreCountedAsHeldButNotForeignerOrFutureOnes() async throws {
        let (t, profile, inbox) = try await knowingBob()
        let page = try await pagedPart(t)
        let older = event(bob, kind: 0, at: profile.createdAt - 50, content: #"{"name":"Bobby"}"#)
        let olderList = event(bob, kind: InboxRelayRule.inboxKind, at: inbox.createdAt - 50, tags: [["relay", "wss://old.bob.test"]])
        let future = event(bob, kind: 0, at: t.clock.start + 86_400, content: #"{"name":"later"}"#)
        var forged = event(bob, kind: 0, at: profile.createdAt - 60, content: #"{"name":"forged"}"#)
        forged = NostrEvent(id: forged.id, pubkey: forged.pubkey, createdAt: forged.createdAt, kind: forged.kind, tags: forged.tags,
                            content: forged.content, sig: older.sig)
        for e in [older, olderList, future, forged, profile, inbox] { await t.engine.handle(.event(relay: relay, subscription: page.id, e)) }
        XCTAssertEqual(try t.store.profileStamp(bob.publicKey.hex)?.eventID, profile.id.hex, "ours stays")
        XCTAssertEqual(try t.store.passedOverCount(.author(bob.publicKey.hex)), 2, "the older kind 0 and list; not a bad signature, not one dated ahead")
        let ids = Set(try t.store.profileNegentropySet([bob.publicKey.hex]).items.map(\.id.hex))
        XCTAssertEqual(ids, [profile.id.hex, inbox.id.hex, older.id.hex, olderList.id.hex])
        await t.engine.stop()
    }

    func testNewcomersGetPartsOfTheirOwnAndAnyoneGoneRemakesThem() async throws {
        let (t, _, _) = try await knowingBob()
        t.pool.state.withLock { $0.advertisesNegentropy = true }
        try await t.engine.start()
        await t.engine.handle(.status(RelaySnapshot(url: relay, enabled: true, status: .connected, lastError: nil, stats: RelayStats(),
                                                    information: nil, authenticated: false)))
        await t.engine.handle(.ready(relay: relay))
        let first = try XCTUnwrap(opened(t).first { $0.id == "linkstr-neg-profiles-0-0" })

        // Carol joins the contacts: Bob's part goes on; hers is read after it.
        let carol = SecretKey.generate().publicKey.hex
        try t.store.replaceContacts([bob.publicKey.hex, carol], stamp: LWWStamp(createdAt: t.clock.start - 800, eventID: String(repeating: "d", count: 64)))
        await t.engine.refreshProfileSubscription()
        XCTAssertFalse(t.pool.negentropySent.contains { $0.verb == .close && $0.id == first.id }, "Bob's part is not read again")
        XCTAssertNil(opened(t).first { $0.id == "linkstr-neg-profiles-0-1" }, "one part at a time")
        XCTAssertEqual(t.pool.requests(.profiles).last?.filters.dropFirst(2).map(\.authors), [[bob.publicKey.hex], [carol]])
        await t.engine.handle(.negentropy(relay: relay, subscription: first.id, .message(try answer(first, holding: []))))
        let hers = try XCTUnwrap(opened(t).first { $0.id == "linkstr-neg-profiles-0-1" })
        XCTAssertEqual(hers.verb, .open(Filter(authors: [carol], kinds: [0, 10050, 10002])))

        // Bob is gone: the parts are made again (hers, negotiating, is closed; a new part holds her).
        try t.store.replaceContacts([carol], stamp: LWWStamp(createdAt: t.clock.start - 700, eventID: String(repeating: "e", count: 64)))
        await t.engine.refreshProfileSubscription()
        XCTAssertTrue(t.pool.negentropySent.contains { $0.verb == .close && $0.id == hers.id })
        let remade = try XCTUnwrap(opened(t).first { $0.id == "linkstr-neg-profiles-0-2" })
        XCTAssertEqual(remade.verb, .open(Filter(authors: [carol], kinds: [0, 10050, 10002])))
        // A late answer to a part that was replaced names nothing running.
        await t.engine.handle(.negentropy(relay: relay, subscription: hers.id, .message("6100000200")))
        XCTAssertEqual(t.pool.requests.filter { $0.id.hasPrefix("linkstr-neg-profiles-fetch-0-1-") }, [])
        await t.engine.stop()
    }
}
