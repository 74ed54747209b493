import NostrProtocol

/// One linkstr rumor to publish: one gift wrap per recipient (ourselves included).
public struct OutboundRumor: Equatable, Sendable {
    public let payload: LinkstrPayload
    public let tags: [[String]]
    public let recipients: [Pubkey]
    public let createdAt: Int64

    public func rumor(author: PublicKey) -> UnsignedEvent {
        UnsignedEvent(pubkey: author, createdAt: createdAt, kind: LinkstrPayload.rumorKind, tags: tags, content: payload.encoded())
    }

    /// The message our own ingest applies once relays accepted every wrap.
    public func localMessage(rumorID: String, wrapIDs: [String], me: Pubkey, now: Int64) -> InboundMessage {
        InboundMessage(rumorID: rumorID, wrapIDs: wrapIDs, sender: me, createdAt: createdAt,
                       payload: (try? payload.validated()) ?? payload, source: .local, receivedAt: now)
    }
}

/// Ids as iOS makes them: a v4 UUID's 32 uppercase hex digits without dashes.
public enum LinkstrID {
    public static func make(_ random: any RandomSource) -> String {
        var b = random.bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return Hex.encode(b).uppercased()
    }
}

/// Errors users see when an action cannot be sent, in the iOS app's words where it has them.
public enum SendRuleError {
    public static let enterSessionName = DomainError.message("enter a session name.")
    public static let notCreator = DomainError.message("only the session creator can manage members.")
    /// The iOS wordings for the other creator-only actions (wire 2026 §1.2 and §2).
    public static let notCreatorDelete = DomainError.message("only the session creator can delete this session.")
    public static let notCreatorRename = DomainError.message("only the session creator can manage this session.")
    /// The iOS words, with what a valid one is (they gave no reason).
    public static let invalidURL = DomainError.message("enter a valid url: a web address (http or https), such as https://example.com/page.")
    public static let notMember = DomainError.message("you're no longer a member of this session.")
    public static let unknownSession = DomainError.message("that session is not available.")
    public static let unknownPost = DomainError.message("that post is not available.")
    public static let notYourPost = DomainError.message("you can only delete your own posts.")
    public static let emptyEmoji = DomainError.message("pick an emoji.")
    public static let notAnEmoji = DomainError.message("a reaction is one emoji.")
}
