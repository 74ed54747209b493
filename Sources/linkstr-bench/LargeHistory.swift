import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The large history the store and TUI benchmarks read: `sessions` sessions with a friend, each with
/// `postsPerSession` link posts (a third ours, half with notes, every fifth with our 👍).
enum LargeHistory {
    static func fill(_ account: AccountStore, me: String, sessions: Int, postsPerSession: Int) throws -> (seconds: Double, messages: Int) {
        let friend = SecretKey.generate(using: SeededRandom(seed: 7)).publicKey.hex
        var seconds = 0.0, messages = 0
        var batch = [InboundMessage]()
        func flush() throws {
            let b = batch
            // Wrap ids recorded as processed too, as after a real sync.
            seconds += try Timing.seconds { _ = try account.ingest(b, processedWraps: b.flatMap(\.wrapIDs), now: 1) }
            messages += b.count
            batch.removeAll(keepingCapacity: true)
        }
        for s in 0..<sessions {
            let sid = LinkstrID.make(SeededRandom(seed: UInt64(s)))
            batch.append(MessageFactory.create(sid, by: friend, members: [friend, me], at: 1_000, name: "Session \(s)"))
            for p in 0..<postsPerSession {
                let t = Int64(1_000 + p * 60 + s)
                let root = MessageFactory.root(sid, by: p % 3 == 0 ? me : friend, at: t, url: "https://example.com/\(s)/\(p)",
                                               note: p % 2 == 0 ? "note \(p) for session \(s)" : nil)
                batch.append(root)
                if p % 5 == 0 { batch.append(MessageFactory.reaction(sid, post: root.rumorID, by: me, emoji: "👍", at: t + 1)) }
            }
            if batch.count >= 2_000 { try flush() }
        }
        try flush()
        return (seconds, messages)
    }
}
