import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// NIP-77 history sync end to end on rust-nostr's LocalRelay (which speaks it): wraps added, missing
/// and kept on either side; private preferences the same way; a warm re-sync that opens nothing; a second too crowded for paging; and
/// relays that lie (fingerprints that never agree, ids of events that are not our gift wraps, answers
/// that are not negentropy) or refuse (CLOSED, silence), which cost bounded work, fall back to paging
/// and leave the store intact.
final class NegentropySyncTests: XCTestCase {
    private struct Seed {
        let me = SecretKey.generate()
        let sender = SecretKey.generate()
        let sid = LinkstrID.make(SystemRandom())
        var wraps: [NostrEvent] = []
    }

    /// A session from `sender` to `me` and `posts` posts in it, each wrapped; wrap times `perSecond` to a
    /// second, all older than the live subscription's window (so only history brings them).
    /// `age`: how far back the newest wrap is dated (by default, past the live window).
    private func seed(posts: Int, perSecond: Int = 1, age: Int64 = SyncEngine.liveWindow + 10_000) throws -> Seed {
        var s = Seed()
        let now = Int64(Date().timeIntervalSince1970)
        let create = LinkstrPayload(conversationID: s.sid, rootID: "op", kind: .sessionCreate, sessionName: "sync",
                                    memberPubkeys: [s.sender.publicKey.hex, s.me.publicKey.hex])
        var rumors = [UnsignedEvent(pubkey: s.sender.publicKey, createdAt: now - 5_000, kind: 44001, content: create.encoded())]
        for i in 0..<posts {
            rumors.append(UnsignedEvent(pubkey: s.sender.publicKey, createdAt: now - 4_000 + Int64(i), kind: 44001,
                                        content: LinkstrPayload(conversationID: s.sid, rootID: "", kind: .root, url: "https://example.com/\(i)").encoded()))
        }
        for (i, rumor) in rumors.enumerated() {
            let seal = try NIP59.seal(rumor: rumor, sender: s.sender, recipient: s.me.publicKey, now: now, random: SystemRandom())
            let oneTime = SecretKey.generate()
            let content = try NIP44.encrypt(seal.jsonString(), conversationKey: NIP44.conversationKey(secretKey: oneTime, publicKey: s.me.publicKey))
            s.wraps.append(UnsignedEvent(pubkey: oneTime.publicKey, createdAt: now - age - Int64(i / perSecond), kind: 1059,
                                         tags: [["p", s.me.publicKey.hex]], content: content).signed(with: oneTime))
        }
        return s
    }

    private func publish(_ events: [NostrEvent], to url: String) async throws {
        let publisher = RelayPool()
        await publisher.setRelays([(url, true)])
        _ = await publisher.waitForWritableRelay()
        for start in stride(from: 0, to: events.count, by: 200) {
            if case .failure(let e) = await publisher.publish(Array(events[start..<min(start + 200, events.count)]), timeout: .seconds(60)) {
                XCTFail("seeding: \(e)")
            }
        }
        await publisher.stop()
    }

    /// One sync of `store` against `relays` to the end of their history; its stats and whether it completed.
    /// `authenticatingAs`: the relay's own URL when it is reached through a proxy (AUTH names the relay).
    /// `seen`: given the relays' snapshots before the engine stops. Profiles' history is read too.
    private func sync(_ me: SecretKey, _ store: AccountStore, _ relays: [String], negentropy: Bool = true,
                      authenticatingAs relayURL: String? = nil, seen: (([RelaySnapshot]) -> Void)? = nil) async throws -> (SyncStats, Bool) {
        let signer = SyncEngine.authSigner(for: me)
        var authSigner = signer
        if let relayURL { authSigner = { @Sendable _, challenge in signer(relayURL, challenge) } }
        let pool = RelayPool(authSigner: authSigner)
        await pool.setRelays(relays.map { ($0, true) })
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        await engine.setNegentropy(enabled: negentropy)
        try await engine.start()
        let complete = await engine.waitForBackfill(timeout: .seconds(120))
        await engine.waitForProfileHistory(timeout: .seconds(60))
        seen?(await engine.relaySnapshots())
        await engine.flush()
        let stats = await engine.settledStats()
        await engine.stop()
        return (stats, complete)
    }

    func testWrapsMissingOnEitherSideAreReconciledAndAWarmSyncOpensNothing() async throws {
        let a = try RustRelay.start(), b = try RustRelay.start()
        defer { a.stop(); b.stop() }
        let s = try seed(posts: 400)
        // A holds the session and posts 0–299; B the session and posts 100–399. We start empty.
        try await publish(Array(s.wraps[0...300]), to: a.url)
        try await publish([s.wraps[0]] + Array(s.wraps[101...400]), to: b.url)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-neg-\(UUID().uuidString)")
        defer { removeTemporary(home) }
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let store = try local.account(s.me, now: 1)

        let (cold, coldDone) = try await sync(s.me, store, [a.url])
        XCTAssertTrue(coldDone)
        XCTAssertEqual(cold.reconciledRelays, 1)
        XCTAssertEqual(cold.backfillPages, 0, "no gift-wrap page was asked")
        XCTAssertEqual(cold.reconcileNeeded, 301)
        XCTAssertEqual(cold.decryptions, 301)
        XCTAssertEqual(try store.postCount(in: s.sid), 300)

        // As a store from before migration 12 holds them: processed, no time. They are fetched once
        // more (never opened) and get their time.
        try local.db.run("UPDATE processed_wraps SET created_at = NULL")
        let (upgraded, upgradedDone) = try await sync(s.me, store, [a.url])
        XCTAssertTrue(upgradedDone)
        XCTAssertEqual(upgraded.reconcileNeeded, 301)
        XCTAssertEqual(upgraded.decryptions, 0)
        XCTAssertEqual(try store.negentropySet().count, 301)

        // B lacks 100 of ours (we do not upload them) and has 100 we lack: only those are fetched.
        let (second, secondDone) = try await sync(s.me, store, [b.url])
        XCTAssertTrue(secondDone)
        XCTAssertEqual(second.reconcileNeeded, 100)
        XCTAssertEqual(second.decryptions, 100)
        XCTAssertEqual(try store.postCount(in: s.sid), 400)
        XCTAssertEqual(try store.negentropySet().count, 401)

        let (warm, warmDone) = try await sync(s.me, store, [a.url, b.url])
        XCTAssertTrue(warmDone)
        XCTAssertEqual(warm.reconciledRelays, 2)
        XCTAssertEqual(warm.reconcileNeeded, 0)
        XCTAssertEqual(warm.wrapsReceived, 0, "nothing downloaded")
        XCTAssertEqual(warm.decryptions, 0)
        print("NIP-77 on LocalRelay: cold 301 wraps in \(cold.reconcileRounds) rounds (\(cold.reconcileBytes) hex bytes); "
              + "warm over two relays \(warm.reconcileRounds) rounds, \(warm.reconcileBytes) bytes")
    }

    /// The private preferences' history (kind 30078, ours) is reconciled too: a cold sync fetches every
    /// record by id, a relay holding half of them costs no fetch of ours it lacks, a record replaced on
    /// the relay is the only linkstr one fetched again, and another app's record under our key is
    /// fetched each time (it is not stored: relays keep it, we ignore it, as the paged chain does).
    func testPrivatePreferencesAreReconciledBesideTheGiftWraps() async throws {
        let a = try RustRelay.start(), b = try RustRelay.start()
        defer { a.stop(); b.stop() }
        let me = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        let people = (0..<120).map { _ in SecretKey.generate().publicKey.hex }
        let records = try people.enumerated().map { i, pk in
            try PrivatePreference.alias(pubkey: pk, name: "friend \(i)").event(secretKey: me, createdAt: now - 500 + Int64(i / 7))
        }
        let otherApp = UnsignedEvent(pubkey: me.publicKey, createdAt: now - 5, kind: PrivatePreference.kind, tags: [["d", "someapp/settings"]],
                                     content: "{}").signed(with: me)
        try await publish(records + [otherApp], to: a.url)
        try await publish(Array(records[0..<60]), to: b.url)
        let store = try LocalStore().account(me, now: 1)
        func stored(_ i: Int) throws -> PrivatePreference? {
            try store.preference(dTag: PrivatePreference.dTag(for: "alias:" + people[i], secretKey: me))?.preference
        }

        let (cold, coldDone) = try await sync(me, store, [a.url])
        XCTAssertTrue(coldDone)
        XCTAssertEqual(cold.preferencesReconciled, 1, cold.lastReconcileFallback ?? "")
        XCTAssertEqual(cold.preferencesReconcileFallbacks, 0)
        XCTAssertEqual(cold.preferencesReconcileNeeded, 121)
        XCTAssertEqual(try store.storedPreferenceTargets().count, 120)
        XCTAssertEqual(try stored(119), .alias(pubkey: people[119], name: "friend 119"))
        XCTAssertEqual(try store.preferenceNegentropySet().count, 121, "the 120 records, and the other app's passed over")

        let (half, halfDone) = try await sync(me, store, [b.url])
        XCTAssertTrue(halfDone)
        XCTAssertEqual(half.preferencesReconciled, 1)
        XCTAssertEqual(half.preferencesReconcileNeeded, 0, "B lacks 60 of ours: nothing to fetch")

        let renamed = try PrivatePreference.alias(pubkey: people[3], name: "renamed on the phone").event(secretKey: me, createdAt: now - 1)
        try await publish([renamed], to: a.url)
        let (warm, warmDone) = try await sync(me, store, [a.url])
        XCTAssertTrue(warmDone)
        XCTAssertEqual(warm.preferencesReconciled, 1)
        XCTAssertEqual(warm.preferencesReconcileNeeded, 1, "the replaced record (the other app's was passed over by the cold sync)")
        XCTAssertEqual(try store.passedOverCount(.preferences), 1)
        XCTAssertEqual(try stored(3), .alias(pubkey: people[3], name: "renamed on the phone"))
        XCTAssertEqual(try stored(4), .alias(pubkey: people[4], name: "friend 4"))
        XCTAssertEqual(warm.wrapsReceived, 0)
        print("NIP-77 for private preferences on LocalRelay: cold 120 records, \(cold.preferencesReconcileBytes) hex bytes; "
              + "warm \(warm.preferencesReconcileBytes) bytes")

        // Paged instead (NIP-77 off): the same records, nothing lost either way.
        let paged = try LocalStore().account(me, now: 1)
        let (plain, plainDone) = try await sync(me, paged, [a.url], negentropy: false)
        XCTAssertTrue(plainDone)
        XCTAssertEqual(plain.preferencesReconciled, 0)
        for i in people.indices {
            let d = PrivatePreference.dTag(for: "alias:" + people[i], secretKey: me)
            XCTAssertEqual(try paged.preference(dTag: d)?.preference, try stored(i), "record \(i)")
        }
    }

    /// The profiles and relay lists of 300 people (two parts of 250 authors) are reconciled: a cold sync
    /// fetches them all, a warm one nothing (the live request asks for new ones only) and sees the lists
    /// again, a changed name is the only event fetched; paged on nostr-relay, the same profiles.
    func testProfilesAndRelayListsOfThePeopleWeKnowAreReconciled() async throws {
        let rust = try RustRelay.start(), plain = try TestRelay()
        defer { rust.stop(); plain.stop() }
        let me = SecretKey.generate(), now = Int64(Date().timeIntervalSince1970)
        let people = (0..<300).map { _ in SecretKey.generate() }
        var events = [NostrEvent]()
        for (i, p) in people.enumerated() {
            events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 5_000 + Int64(i), kind: 0, content: #"{"name":"person \#(i)"}"#).signed(with: p))
            events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 4_000, kind: InboxRelayRule.inboxKind,
                                        tags: [["relay", "wss://inbox\(i).example"]], content: "").signed(with: p))
            if i % 3 == 0 {
                events.append(UnsignedEvent(pubkey: p.publicKey, createdAt: now - 3_000, kind: InboxRelayRule.relayListKind,
                                            tags: [["r", "wss://read\(i).example", "read"]], content: "").signed(with: p))
            }
        }
        for relay in [rust.url, plain.url] { try await publish(events, to: relay) }
        let contacts = LWWStamp(createdAt: now - 6_000, eventID: String(repeating: "e", count: 64))
        let store = try LocalStore().account(me, now: 1)
        try store.replaceContacts(people.map(\.publicKey.hex), stamp: contacts)
        func names(_ store: AccountStore) throws -> [String] { try people.map { try store.profileNames()[$0.publicKey.hex] ?? "" } }

        let (cold, coldDone) = try await sync(me, store, [rust.url])
        XCTAssertTrue(coldDone)
        XCTAssertEqual([cold.profilesReconciled, cold.profilesReconcileFallbacks], [2, 0], cold.lastReconcileFallback ?? "")
        XCTAssertEqual(cold.profilesReconcileNeeded, events.count)
        XCTAssertEqual(try names(store), people.indices.map { "person \($0)" })
        XCTAssertEqual(try store.relayList(people[299].publicKey.hex, kind: InboxRelayRule.inboxKind), ["wss://inbox299.example"])
        XCTAssertEqual(try store.profileNegentropySet(people.map(\.publicKey.hex)).count, events.count)

        var received = -1
        let (warm, warmDone) = try await sync(me, store, [rust.url], seen: { received = $0.map(\.stats.eventsReceived).reduce(0, +) })
        XCTAssertTrue(warmDone)
        XCTAssertEqual([warm.profilesReconciled, warm.profilesReconcileNeeded], [2, 0])
        // Messages, not events: the live subscriptions' EOSEs and the four syncs' answers (each event was one before).
        XCTAssertLessThanOrEqual(received, 12, "nothing downloaded again")
        XCTAssertGreaterThan(try XCTUnwrap(store.relayListRecord(people[0].publicKey.hex, kind: InboxRelayRule.inboxKind)).fetchedAt, now - 60,
                             "the lists the relay holds were seen again")

        let renamed = UnsignedEvent(pubkey: people[7].publicKey, createdAt: now - 1_000, kind: 0, content: #"{"name":"seven"}"#).signed(with: people[7])
        try await publish([renamed], to: rust.url)
        let (changed, _) = try await sync(me, store, [rust.url])
        XCTAssertEqual(changed.profilesReconcileNeeded, 1)
        XCTAssertEqual(try store.profileNames()[people[7].publicKey.hex], "seven")
        // A relay that missed the rename keeps the old kind 0: fetched once, passed over, then held.
        let stale = try RustRelay.start()
        defer { stale.stop() }
        try await publish(events, to: stale.url)
        let (missed, _) = try await sync(me, store, [stale.url])
        XCTAssertEqual(missed.profilesReconcileNeeded, 1)
        XCTAssertEqual(try store.profileNames()[people[7].publicKey.hex], "seven", "the older name does not come back")
        let (again, _) = try await sync(me, store, [stale.url])
        XCTAssertEqual(again.profilesReconcileNeeded, 0, "passed over: not fetched again")
        print("NIP-77 for profiles on LocalRelay: cold \(events.count) events, \(cold.profilesReconcileBytes) hex bytes; "
              + "warm \(warm.profilesReconcileBytes) bytes, \(received) messages received")

        // nostr-relay does not speak NIP-77: the parts are paged, the same profiles. Paged on LocalRelay too,
        // which sends at most 500 events a request: the first part's 584 come whole all the same (the
        // one request of before got 500 of them).
        for relay in [plain.url, rust.url] {
            var expected = people.indices.map { "person \($0)" }
            if relay == rust.url { expected[7] = "seven" }
            let paged = try LocalStore().account(me, now: 1)
            try paged.replaceContacts(people.map(\.publicKey.hex), stamp: contacts)
            let (plainRun, plainDone) = try await sync(me, paged, [relay], negentropy: false)
            XCTAssertTrue(plainDone, relay)
            XCTAssertEqual(plainRun.profilesReconciled, 0, relay)
            XCTAssertEqual(try names(paged), expected, relay)
            XCTAssertEqual(try paged.profileNegentropySet(people.map(\.publicKey.hex)).count, events.count, relay)
        }
    }

    /// Wraps from the last two days (inside the live subscription's window) are not downloaded again on
    /// every start: the live subscription asks for new ones only (at most one stored, `limit: 1`, as
    /// nostr-relay reads `limit: 0` as no limit), so a warm sync by NIP-77 receives at most that one, and
    /// a paged one its pages and at most that one.
    func testRecentWrapsAreNotDownloadedAgainByTheLiveSubscription() async throws {
        let rust = try RustRelay.start(), plain = try TestRelay()
        defer { rust.stop(); plain.stop() }
        let s = try seed(posts: 60, age: 3_600)
        for relay in [rust.url, plain.url] { try await publish(s.wraps, to: relay) }
        for (relay, paged) in [(rust.url, false), (plain.url, true)] {
            let store = try LocalStore().account(s.me, now: 1)
            let (cold, coldDone) = try await sync(s.me, store, [relay])
            XCTAssertTrue(coldDone, relay)
            XCTAssertEqual(cold.decryptions, 61, relay)
            XCTAssertEqual(try store.postCount(in: s.sid), 60, relay)
            let (warm, warmDone) = try await sync(s.me, store, [relay])
            XCTAssertTrue(warmDone, relay)
            XCTAssertEqual(warm.decryptions, 0, relay)
            // Paged: the one page, and the page after it that finds the oldest second again (`until` is
            // inclusive) and nothing older; then the live subscription's one stored wrap.
            print("\(paged ? "paged" : "NIP-77"): warm sync received \(warm.wrapsReceived) wraps")
            XCTAssertLessThanOrEqual(warm.wrapsReceived, (paged ? 61 + 1 : 0) + 1, "\(relay): the live subscription brought what we hold")
        }
    }

    /// An inbox relay that lets only the addressee read gift wraps answers NEG-OPEN with NEG-ERR
    /// "auth-required:" until we authenticate: we do, open again on the same connection and reconcile
    /// (before, such a relay was paged and its whole history downloaded again whenever our NEG-OPEN beat
    /// our AUTH, which is most of the time; the proxy holds our AUTH back so that it always does).
    func testARelayThatWantsAuthFirstIsReconciledAfterAuth() async throws {
        let relay = try RustRelay.start(giftWrapsAfterAuth: true)
        defer { relay.stop() }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "auth-late")
        defer { proxy.stop() }
        let s = try seed(posts: 150)
        try await publish(s.wraps, to: relay.url)
        let store = try LocalStore().account(s.me, now: 1)
        let (cold, coldDone) = try await sync(s.me, store, [proxy.url], authenticatingAs: relay.url)
        XCTAssertTrue(coldDone)
        XCTAssertEqual(cold.reconciledRelays, 1, "reconciled after AUTH: \(cold.lastReconcileFallback ?? "")")
        XCTAssertEqual(cold.reconcileFallbacks, 0)
        XCTAssertEqual(cold.backfillPages, 0, "no gift-wrap page was asked")
        XCTAssertEqual(cold.decryptions, 151)
        XCTAssertEqual(try store.postCount(in: s.sid), 150)
        let (warm, warmDone) = try await sync(s.me, store, [proxy.url], authenticatingAs: relay.url)
        XCTAssertTrue(warmDone)
        XCTAssertEqual(warm.reconciledRelays, 1)
        XCTAssertEqual(warm.wrapsReceived, 0, "nothing downloaded")
        XCTAssertEqual(warm.decryptions, 0)
    }

    /// 700 wraps in one second: more than LocalRelay ever sends for one REQ, so paging cannot read that
    /// second (`BackfillPagingTests`); by id, every one arrives.
    func testASecondTooCrowdedForPagingIsReadWhole() async throws {
        let relay = try RustRelay.start()
        defer { relay.stop() }
        let s = try seed(posts: 999, perSecond: 700)
        try await publish(s.wraps, to: relay.url)
        let store = try LocalStore().account(s.me, now: 1)
        let (stats, complete) = try await sync(s.me, store, [relay.url])
        XCTAssertTrue(complete)
        XCTAssertEqual(stats.decryptions, 1_000)
        XCTAssertEqual(try store.postCount(in: s.sid), 999)
    }

    /// Each kind of liar: the history still completes (by paging where NIP-77 failed), what is not a
    /// gift wrap for us is never opened, and the refusal is remembered so the next sync pages at once.
    /// Issue 53 (6.2): a relay offering ids it never serves (kind 1 events, or nothing at all) made the
    /// history complete with nothing fetched; one inventing 25 ids every round kept a core busy for
    /// minutes. Both are paged now, after bounded rounds.
    func testLyingRelaysCostBoundedWorkAndLeaveTheStoreIntact() async throws {
        for mode in ["fingerprints", "garbage", "closed", "silent", "foreign-ids", "phantom-ids", "new-ids"] {
            let liar = try InteropServer(script: "negentropy_liar.py", arguments: [mode])
            defer { liar.stop() }
            let s = try seed(posts: 19)
            let strangers = (0..<30).map { i in
                UnsignedEvent(pubkey: s.sender.publicKey, createdAt: 1_700_000_000 + Int64(i), kind: 1, content: "not a wrap \(i)").signed(with: s.sender)
            }
            try await publish(s.wraps + strangers, to: liar.url)
            let store = try LocalStore().account(s.me, now: 1)
            let started = ContinuousClock.now
            let (stats, complete) = try await sync(s.me, store, [liar.url])
            XCTAssertTrue(complete, mode)
            XCTAssertEqual(stats.invalidWraps, 0, "\(mode): nothing that was not a wrap for us reached decryption")
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(60), "\(mode): bounded")
            switch mode {
            default:
                XCTAssertEqual(stats.reconcileFallbacks, 1, mode)
                XCTAssertEqual(stats.preferencesReconcileFallbacks, 1, "\(mode): the preferences are paged too")
                XCTAssertEqual(stats.decryptions, 20, "\(mode): paged instead")
                XCTAssertEqual(try store.postCount(in: s.sid), 19)
                XCTAssertNotNil(try store.negentropyRefusedAt(liar.url), mode)
                let (again, againDone) = try await sync(s.me, store, [liar.url])
                XCTAssertTrue(againDone)
                XCTAssertEqual(again.reconcileFallbacks + again.reconciledRelays, 0, "\(mode): remembered, paged at once")
                XCTAssertEqual(again.preferencesReconcileFallbacks + again.preferencesReconciled, 0, "\(mode): both chains")
                XCTAssertEqual(again.decryptions, 0)
            }
        }
    }
}
