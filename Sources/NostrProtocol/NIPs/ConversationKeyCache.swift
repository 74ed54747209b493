import Synchronization
/// Remembers, per peer of one local secret key, the peer's key lifted onto the curve and the NIP-44
/// conversation key, so that for a recurring sender the square root (for its seal's signature) and the
/// ECDH run once. Bounded (least recently used entries go first) and thread-safe.
public final class ConversationKeyCache: Sendable {
    public let secretKey: SecretKey
    private let capacity: Int
    private struct Entry {
        var lifted: LiftedPublicKey
        var key: ConversationKey?
        var lastUse: UInt64
    }
    private struct State {
        var entries: [PublicKey: Entry] = [:]
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }
    private let state = Mutex(State())
    /// Conversation keys found / derived.
    public var hits: Int { state.withLock { $0.hits } }
    public var misses: Int { state.withLock { $0.misses } }

    public init(secretKey: SecretKey, capacity: Int = 4096) {
        self.secretKey = secretKey
        self.capacity = max(capacity, 8)
    }

    /// The peer's key on the curve (to check its signatures).
    public func lifted(_ peer: PublicKey) throws(KeyError) -> LiftedPublicKey {
        if let entry = touch(peer) { return entry.lifted }
        // Lifting (a square root) runs outside the lock, so several threads can at once.
        let lifted = try LiftedPublicKey(peer)
        remember(peer, lifted: lifted, key: nil)
        return lifted
    }

    public func conversationKey(with peer: PublicKey) throws(NIP44Error) -> ConversationKey {
        let entry = touch(peer)
        state.withLock { s in
            if entry?.key != nil { s.hits += 1 } else { s.misses += 1 }
        }
        if let key = entry?.key { return key }
        let lifted: LiftedPublicKey
        if let known = entry?.lifted { lifted = known } else {
            do { lifted = try LiftedPublicKey(peer) } catch { throw .invalidKey(error) }
        }
        // ECDH runs outside the lock so that several threads can derive keys at once.
        let key = try NIP44.conversationKey(secretKey: secretKey, publicKey: lifted)
        remember(peer, lifted: lifted, key: key)
        return key
    }

    private func touch(_ peer: PublicKey) -> Entry? {
        state.withLock { s in
            s.clock += 1
            guard var entry = s.entries[peer] else { return nil }
            entry.lastUse = s.clock
            s.entries[peer] = entry
            return entry
        }
    }

    private func remember(_ peer: PublicKey, lifted: LiftedPublicKey, key: ConversationKey?) {
        state.withLock { s in
            s.clock += 1
            let known = s.entries[peer]?.key
            s.entries[peer] = Entry(lifted: lifted, key: key ?? known, lastUse: s.clock)
            if s.entries.count > capacity {
                let victims = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(s.entries.count - capacity * 3 / 4)
                for v in victims { s.entries.removeValue(forKey: v.key) }
            }
        }
    }

    public var count: Int { state.withLock { $0.entries.count } }
}
