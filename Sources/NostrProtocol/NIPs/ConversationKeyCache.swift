/// Remembers NIP-44 conversation keys between one local secret key and its peers, so that the
/// ECDH for a recurring sender runs once. Bounded (least recently used entries go first) and thread-safe.
public final class ConversationKeyCache: @unchecked Sendable {
    public let secretKey: SecretKey
    private let capacity: Int
    private let lock = Lock()
    private var entries: [PublicKey: (key: ConversationKey, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init(secretKey: SecretKey, capacity: Int = 4096) {
        self.secretKey = secretKey
        self.capacity = max(capacity, 8)
    }

    public func conversationKey(with peer: PublicKey) throws(NIP44Error) -> ConversationKey {
        let cached: ConversationKey? = lock.withLock {
            clock += 1
            if let entry = entries[peer] {
                entries[peer] = (entry.key, clock)
                hits += 1
                return entry.key
            }
            misses += 1
            return nil
        }
        if let cached { return cached }
        // ECDH runs outside the lock so that several threads can derive keys at once.
        let key = try NIP44.conversationKey(secretKey: secretKey, publicKey: peer)
        lock.withLock {
            clock += 1
            entries[peer] = (key, clock)
            if entries.count > capacity {
                let victims = entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(entries.count - capacity * 3 / 4)
                for v in victims { entries.removeValue(forKey: v.key) }
            }
        }
        return key
    }

    public var count: Int { lock.withLock { entries.count } }
}
