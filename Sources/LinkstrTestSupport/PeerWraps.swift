import LinkstrDomain
import NostrProtocol

/// What another client sends us, made as NIP-59 makes it: a linkstr payload as a rumor (kind 44001) by
/// `sender`, sealed and gift-wrapped to `recipient`. For tests and benches whose peers are not a linkstr home.
public enum PeerWraps {
    public static func wrap(_ payload: LinkstrPayload, by sender: SecretKey, at t: Int64, to recipient: PublicKey,
                            now: Int64) throws -> NostrEvent {
        try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: sender.publicKey, createdAt: t, kind: LinkstrPayload.rumorKind, content: payload.encoded()),
                           sender: sender, recipient: recipient, now: now)
    }

    /// A new session from a stranger naming `me`, created 30 s before `now`.
    public static func strangersSession(_ name: String, to me: PublicKey, now: Int64) throws -> NostrEvent {
        let sender = SecretKey.generate()
        let create = LinkstrPayload(conversationID: LinkstrID.make(SystemRandom()), rootID: "op", kind: .sessionCreate, timestamp: now - 30,
                                    sessionName: name, memberPubkeys: [sender.publicKey.hex, me.hex])
        return try wrap(create, by: sender, at: now - 30, to: me, now: now)
    }
}
