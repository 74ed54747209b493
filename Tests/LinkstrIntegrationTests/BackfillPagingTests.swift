import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Backfill against a relay that silently clamps `limit` (to 100), with 600 wraps crowded 60 to a second:
/// every page ends inside a second, so paging by `oldest − 1` (iOS) would lose the rest of each boundary
/// second, and stopping at the first "short" page would lose everything after page one.
final class BackfillPagingTests: XCTestCase {
    func testEveryWrapArrivesWhenPagesShareSecondsAndTheRelayClampsLimits() async throws {
        let relay = try TestRelay(maxLimit: 100)
        let me = SecretKey.generate(), sender = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        let sid = LinkstrID.make(SystemRandom())
        var wraps = [NostrEvent]()
        let create = LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, sessionName: "crowd", memberPubkeys: [sender.publicKey.hex, me.publicKey.hex])
        var rumors = [UnsignedEvent(pubkey: sender.publicKey, createdAt: now - 500, kind: 44001, content: create.encoded())]
        for i in 0..<599 {
            rumors.append(UnsignedEvent(pubkey: sender.publicKey, createdAt: now - 400 + Int64(i),
                                        kind: 44001, content: LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(i)").encoded()))
        }
        let random = SystemRandom()
        for (i, rumor) in rumors.enumerated() {
            // Wrap timestamps 60 to a second (pages of 100 end inside seconds) (valid wraps, just crowded).
            let seal = try NIP59.seal(rumor: rumor, sender: sender, recipient: me.publicKey, now: now, random: random)
            let oneTime = SecretKey.generate()
            let content = try NIP44.encrypt(seal.jsonString(), conversationKey: NIP44.conversationKey(secretKey: oneTime, publicKey: me.publicKey))
            wraps.append(UnsignedEvent(pubkey: oneTime.publicKey, createdAt: now - 1000 - Int64(i / 60), kind: 1059,
                                       tags: [["p", me.publicKey.hex]], content: content).signed(with: oneTime))
        }
        let publisher = RelayPool()
        await publisher.setRelays([(relay.url, true)])
        let gate = await publisher.waitForWritableRelay()
        XCTAssertNil(gate)
        if case .failure(let e) = await publisher.publish(wraps, timeout: .seconds(60)) { XCTFail("seeding: \(e)") }
        await publisher.stop()

        let store = try LocalStore().account(me, now: now)
        let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
        await pool.setRelays([(relay.url, true)])
        let engine = SyncEngine(identity: me, store: store, pool: pool)
        try await engine.start()
        let complete = await engine.waitForBackfill(timeout: .seconds(90))
        await engine.flush()
        let stats = await engine.stats
        await engine.stop()
        XCTAssertTrue(complete)
        XCTAssertEqual(stats.decryptions, 600, "every wrap opened exactly once")
        XCTAssertEqual(try store.postCount(in: sid), 599)
        print("backfill paging: 600 wraps, 60 per second, through a relay clamping to 100: \(stats.backfillPages) pages, \(stats.decryptions) opened")
    }
}
