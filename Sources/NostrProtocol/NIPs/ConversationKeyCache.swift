import Synchronization
/// Remembers NIP-44 conversation keys between one local secret key and its peers, so that the
/// ECDH for a recurring sender runs once. Bounded (least recently used entries go first) and thread-safe.
public final class ConversationKeyCache: Sendable {
    public let secretKey: SecretKey
    private let capacity: Int
    private struct State {
        var entries: [PublicKey: (key: ConversationKey, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }
    private let state = Mutex(State())
    public var hits: Int { state.withLock { $0.hits } }
    public var misses: Int { state.withLock { $0.misses } }

    public init(secretKey: SecretKey, capacity: Int = 4096) {
        self.secretKey = secretKey
        self.capacity = max(capacity, 8)
    }

    public func conversationKey(with peer: PublicKey) throws(NIP44Error) -> ConversationKey {
        let cached: ConversationKey? = state.withLock { s in
            s.clock += 1
            if let entry = s.entries[peer] {
                s.entries[peer] = (entry.key, s.clock)
                s.hits += 1
                return entry.key
            }
            s.misses += 1
            return nil
        }
        if let cached { return cached }
        // ECDH runs outside the lock so that several threads can derive keys at once.
        let key = try NIP44.conversationKey(secretKey: secretKey, publicKey: peer)
        state.withLock { s in
            s.clock += 1
            s.entries[peer] = (key, s.clock)
            if s.entries.count > capacity {
                let victims = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(s.entries.count - capacity * 3 / 4)
                for v in victims { s.entries.removeValue(forKey: v.key) }
            }
        }
        return key
    }

    public var count: Int { state.withLock { $0.entries.count } }
}
