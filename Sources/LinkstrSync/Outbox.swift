import LinkstrDomain
import NostrProtocol

/// What one send puts on the wire and into the store, worked out without I/O (keys, time and randomness
/// come in), so it is tested alone. The engine publishes `wraps` as one batch, applies `localMessages`
/// once every wrap was accepted, and hands `wrapsByRecipient` to inbox delivery.
struct OutboxBatch: Sendable {
    /// For each rumor, one wrap per recipient and one for us (each key once), rumors in order.
    let wraps: [NostrEvent]
    let sent: [SyncEngine.SentRumor]
    /// What our own ingest applies: each rumor as sent, with the ids of its wraps.
    let localMessages: [InboundMessage]
    /// Posts this send started, in order (ours of one second list in the order sent).
    let startedPosts: [String]
    /// Every other recipient's wraps, for their own inbox relays.
    let wrapsByRecipient: [Pubkey: [NostrEvent]]

    /// Wraps every rumor to each of its recipients and to us. A recipient that is not a valid key is
    /// left out (members are validated when they arrive; this only keeps a bad row from stopping a send).
    static func seal(_ rumors: [OutboundRumor], identity: SecretKey, now: Int64, random: any RandomSource,
                     cache: ConversationKeyCache?) throws(NIP44Error) -> OutboxBatch {
        let me = identity.publicKey.hex
        var wraps = [NostrEvent](), sent = [SyncEngine.SentRumor](), messages = [InboundMessage](), started = [String]()
        var byRecipient = [Pubkey: [NostrEvent]]()
        for outbound in rumors {
            let rumor = outbound.rumor(author: identity.publicKey)
            let rumorID = rumor.id.hex
            var mine = [NostrEvent]()
            for recipient in PubkeyNormalizer.dedupedList(outbound.recipients + [me]) {
                guard let key = try? PublicKey(hex: recipient) else { continue }
                let wrap = try NIP59.giftWrap(rumor: rumor, sender: identity, recipient: key, now: now, random: random, cache: cache)
                mine.append(wrap)
                if recipient != me { byRecipient[recipient, default: []].append(wrap) }
            }
            let ids = mine.map { $0.id.hex }
            wraps += mine
            sent.append(SyncEngine.SentRumor(rumorID: rumorID, wrapIDs: ids))
            messages.append(outbound.localMessage(rumorID: rumorID, wrapIDs: ids, me: me, now: now))
            if outbound.payload.kind == .root { started.append(rumorID) }
        }
        return OutboxBatch(wraps: wraps, sent: sent, localMessages: messages, startedPosts: started, wrapsByRecipient: byRecipient)
    }
}
