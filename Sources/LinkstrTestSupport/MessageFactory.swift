import LinkstrDomain
import NostrProtocol

/// Builds inbound messages for ingest tests and benchmarks. Ids are hex strings derived from a label, so tests can
/// choose their lexicographic order when a tie-break matters.
public struct MessageFactory {
    public static let me = String(repeating: "0e", count: 32)
    public static let alice = String(repeating: "a1", count: 32)
    public static let bob = String(repeating: "b2", count: 32)
    public static let carol = String(repeating: "c3", count: 32)
    public static let mallory = String(repeating: "d4", count: 32)

    public static func id(_ label: String) -> String { SHA256.hash(label).hex }

    public static func message(_ payload: LinkstrPayload, by sender: Pubkey, at t: Int64, id: String, wrap: String? = nil,
                        source: MessageSource = .historical, receivedAt: Int64? = nil) -> InboundMessage {
        InboundMessage(rumorID: id, wrapIDs: [wrap ?? MessageFactory.id("wrap-" + id)], sender: sender, createdAt: t,
                       payload: (try? payload.validated()) ?? payload, source: source, receivedAt: receivedAt ?? t)
    }

    public static func create(_ session: String, by sender: Pubkey, members: [Pubkey], at t: Int64, name: String = "Film club",
                       id: String? = nil, source: MessageSource = .historical, receivedAt: Int64? = nil) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: "op", kind: .sessionCreate, timestamp: t, sessionName: name, memberPubkeys: members),
                by: sender, at: t,
                // A rumor's id is the hash of its content: another name is another id (the default keeps the ids tests know).
                id: id ?? self.id("create-\(session)-\(sender)-\(t)-\(members)" + (name == "Film club" ? "" : "-\(name)")),
                source: source, receivedAt: receivedAt)
    }

    public static func members(_ session: String, by sender: Pubkey, members: [Pubkey], at t: Int64, name: String? = nil,
                        id: String? = nil, source: MessageSource = .historical, receivedAt: Int64? = nil) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: "op", kind: .sessionMembers, timestamp: t, sessionName: name, memberPubkeys: members),
                by: sender, at: t, id: id ?? self.id("members-\(session)-\(sender)-\(t)-\(members)-\(name ?? "")"), source: source, receivedAt: receivedAt)
    }

    public static func root(_ session: String, by sender: Pubkey, at t: Int64, url: String = "https://example.com/v", note: String? = nil,
                     id: String? = nil, rootID: String = "", wrap: String? = nil, source: MessageSource = .historical,
                     receivedAt: Int64? = nil) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: rootID, kind: .root, url: url, note: note, timestamp: t),
                by: sender, at: t, id: id ?? self.id("root-\(session)-\(sender)-\(t)-\(url)"), wrap: wrap, source: source, receivedAt: receivedAt)
    }

    public static func reaction(_ session: String, post: String, by sender: Pubkey, emoji: String = "👍", active: Bool = true, at t: Int64,
                         id: String? = nil, source: MessageSource = .historical, receivedAt: Int64? = nil) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: post, kind: .reaction, timestamp: t, emoji: emoji, reactionActive: active),
                by: sender, at: t, id: id ?? self.id("react-\(post)-\(sender)-\(emoji)-\(active)-\(t)"), source: source, receivedAt: receivedAt)
    }

    public static func delete(_ session: String, post: String, by sender: Pubkey, at t: Int64, id: String? = nil) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: post, kind: .rootDelete, timestamp: t),
                by: sender, at: t, id: id ?? self.id("delete-\(post)-\(sender)-\(t)"))
    }

    public static func sessionDelete(_ session: String, by sender: Pubkey, at t: Int64) -> InboundMessage {
        message(LinkstrPayload(conversationID: session, rootID: "op", kind: .sessionDelete, timestamp: t),
                by: sender, at: t, id: id("sdelete-\(session)-\(sender)-\(t)"))
    }
}
