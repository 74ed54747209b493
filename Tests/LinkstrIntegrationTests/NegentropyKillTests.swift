import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `linkstr sync` killed with SIGKILL at random moments of a NIP-77 sync on LocalRelay (a cold one,
/// then syncs against the partial local set it left): the next sync completes, every post is there
/// once, and a sync after that opens nothing.
final class NegentropyKillTests: XCTestCase {
    func testSIGKILLDuringNIP77SyncsLosesNothing() async throws {
        let relay = try RustRelay.start()
        defer { relay.stop() }
        let home = try Home("neg-kill", relays: [relay.url])
        defer { home.remove() }
        try home.writeConfig("link_previews = false\n")
        let me = try home.createIdentity()
        let recipient = try XCTUnwrap(PublicKey(hex: me.hex))
        let sender = SecretKey.generate(), sid = LinkstrID.make(SystemRandom())
        let now = Int64(Date().timeIntervalSince1970), posts = 1_500
        let create = LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, sessionName: "kill",
                                    memberPubkeys: [sender.publicKey.hex, me.hex])
        var wraps = [try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: sender.publicKey, createdAt: now - 9_000, kind: 44001, content: create.encoded()),
                                        sender: sender, recipient: recipient, now: now)]
        for i in 0..<posts {
            let root = LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(i)")
            wraps.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: sender.publicKey, createdAt: now - 8_000 + Int64(i), kind: 44001,
                                                                 content: root.encoded()), sender: sender, recipient: recipient, now: now))
        }
        let publisher = RelayPool()
        await publisher.setRelays([(relay.url, true)])
        _ = await publisher.waitForWritableRelay()
        for start in stride(from: 0, to: wraps.count, by: 250) {
            if case .failure(let e) = await publisher.publish(Array(wraps[start..<min(start + 250, wraps.count)]), timeout: .seconds(60)) {
                XCTFail("seeding: \(e)")
            }
        }
        await publisher.stop()

        // The kills are drawn within the time a whole cold sync takes on this machine (timed in a copy of the
        // home), and a run that finishes before its kill starts the next from the unsynced copy with a
        // shorter window: every kill lands in a sync however fast the machine is.
        let fm = FileManager.default
        let pristine = fm.temporaryDirectory.appendingPathComponent("linkstr-neg-kill-pristine-\(UUID().uuidString)")
        try fm.copyItem(at: home.directory, to: pristine)
        defer { removeTemporary(pristine) }
        let probe = fm.temporaryDirectory.appendingPathComponent("linkstr-neg-kill-probe-\(UUID().uuidString)")
        try fm.copyItem(at: pristine, to: probe)
        let probeStart = Date()
        let probeRun = try home.startSync(at: probe, relay: relay.url)
        probeRun.waitUntilExit()
        let wholeSync = Date().timeIntervalSince(probeStart)
        var window = wholeSync
        removeTemporary(probe)
        XCTAssertEqual(probeRun.terminationStatus, 0, "a whole sync in a copy of the home")

        var rng = SplitMix(seed: UInt64(now))
        var kills = 0, runs = 0, restarts = 0
        while kills < 4 {
            runs += 1
            guard runs <= 30 else { XCTFail("the syncs kept finishing before they could be killed (window \(window) s)"); break }
            let process = try home.startSync(at: home.directory, relay: relay.url)
            let fraction: Double = 0.05 + 0.7 * Double(rng.next() % 1_000) / 1_000
            usleep(UInt32(window * fraction * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
                process.waitUntilExit()
            } else {
                process.waitUntilExit()
                XCTAssertEqual(process.terminationStatus, 0, "a sync that was not killed")
                try fm.removeItem(at: home.directory)
                try fm.copyItem(at: pristine, to: home.directory)
                restarts += 1
                window *= 0.7
            }
        }
        let finished = try home.sync(timeout: 60)
        XCTAssertEqual(finished["complete"] as? Bool, true)
        _ = try home.acceptRequests()
        XCTAssertEqual(try home.allPostIDs(sid).count, posts, "every post, once, after \(kills) kills")
        let again = try home.sync(timeout: 60)
        XCTAssertEqual(again["complete"] as? Bool, true)
        XCTAssertEqual(again["decrypted"] as? Int, 0, "nothing opened twice")
        XCTAssertEqual(again["reconciled"] as? Int, 1)
        // The other chains, in the fields scripts read: our preferences, and the sender's profile (one part).
        XCTAssertEqual(again["preferences_reconciled"] as? Int, 1)
        XCTAssertEqual(again["profiles_reconciled"] as? Int, 1)
        XCTAssertGreaterThan(again["profiles_reconcile_bytes"] as? Int ?? 0, 0)
        print("NIP-77 kills: \(kills) SIGKILLs during syncs of \(wraps.count) wraps (\(runs) runs, \(restarts) started over; a whole cold sync \(String(format: "%.2f", wholeSync)) s); the next sync completed with every post; the one after opened nothing")
    }
}
