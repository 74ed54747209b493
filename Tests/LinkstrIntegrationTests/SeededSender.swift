import Foundation
import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// A stranger who shares posts with `me` in one session: wrapped here and put on the relay directly,
/// hundreds in a second (a CLI post per process would take minutes).
struct SeededSender {
    let key = SecretKey.generate()
    let session = LinkstrID.make(SystemRandom())
    let now = Int64(Date().timeIntervalSince1970)

    func seed(_ url: String, to me: PublicKey, posts range: Range<Int>) async throws {
        var events = [NostrEvent]()
        if range.lowerBound == 0 {
            events.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: key.publicKey, createdAt: now - 5_000, kind: 44001, content: LinkstrPayload(
                conversationID: session, rootID: "op", kind: .sessionCreate, timestamp: now - 5_000, sessionName: "Filling up",
                memberPubkeys: [key.publicKey.hex, me.hex]).encoded()), sender: key, recipient: me, now: now))
        }
        for i in range {
            let root = LinkstrPayload(conversationID: session, rootID: "", kind: .root, url: "https://example.com/\(i)",
                                      note: "post \(i) " + String(repeating: "words ", count: 20), timestamp: now - 4_000 + Int64(i))
            events.append(try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: key.publicKey, createdAt: now - 4_000 + Int64(i), kind: 44001,
                                                                  content: root.encoded()), sender: key, recipient: me, now: now))
        }
        let pool = RelayPool()
        await pool.setRelays([(url, true)])
        _ = await pool.waitForWritableRelay()
        for start in stride(from: 0, to: events.count, by: 200) {
            if case .failure(let e) = await pool.publish(Array(events[start..<min(start + 200, events.count)]), timeout: .seconds(60)) {
                throw HarnessFailure(description: "seeding failed: \(e)")
            }
        }
        await pool.stop()
    }
}
