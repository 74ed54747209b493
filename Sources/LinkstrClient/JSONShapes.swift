import LinkstrDomain
import NostrProtocol

/// The `--json` shapes of a post, a session and a key, shared by the CLI's output, the event stream of
/// `sync --follow --json` and the hooks' standard input (one shape each, so a script reads the same
/// fields wherever it meets them).
public enum JSONShapes {
    public static func key(_ hex: Pubkey) -> [(String, JSONValue)] {
        [("npub", .string((try? PublicKey(hex: hex))?.npub ?? hex)), ("pubkey", .string(hex))]
    }

    /// `held`: the account's counts of posts the membership gate holds, by session.
    public static func session(_ s: SessionSummary, held: [String: Int]) -> JSONValue {
        .object(JSONObject([
            ("id", .string(s.id)), ("name", .string(s.name)), ("creator", .string(s.creator)),
            ("members", .array(s.members.map { .string($0) })), ("unread", .bool(s.showsUnread)),
            ("unread_count", .integer(Int64(s.showsUnread ? s.unreadCount : 0))), ("archived", .bool(s.archived)),
            ("is_member", .bool(s.isMember)), ("updated_at", .integer(s.lastActivityAt)),
            // "listed", "request" (a stranger's session waiting for accept/decline) or "declined".
            ("standing", .string(s.standing.rawValue)),
            // Posts held for want of membership (dated before their sender joined, …): `posts ID --held`.
            ("held", .integer(Int64(held[s.id] ?? 0))),
        ]))
    }

    /// `deliveries`: of our post, each member's; nil leaves the field out.
    public static func post(_ p: PostView, title: String? = nil, deliveries: [MemberDeliveryRow]? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(p.id)), ("session_id", .string(p.post.sessionID)), ("author", .string(p.post.author)),
            ("url", .string(p.post.url)), ("note", p.post.note.map { .string($0) } ?? .null), ("created_at", .integer(p.post.createdAt)),
            // The date its sender's clock claimed, when it was more than 15 minutes past its arrival
            // (`created_at` is then the arrival, which it sorts by); null for every other post.
            ("dated_ahead", p.post.datedAhead.map { .integer($0) } ?? .null),
            ("unread", .bool(p.unread)), ("label", .string(URLClassifier.classify(p.post.url).label)),
            ("title", title.map { .string($0) } ?? .null),
            ("reactions", .array(p.reactions.map { r in
                .object(JSONObject([("emoji", .string(r.emoji)), ("count", .integer(Int64(r.count))), ("mine", .bool(r.mine)),
                                    ("by", .array(r.by.map { .string($0) }))]))
            })),
        ]
        if let deliveries {
            fields.append(("deliveries", .array(deliveries.map { row in
                var entry: [(String, JSONValue)] = [("pubkey", .string(row.member)), ("state", .string(row.outcome.state))]
                switch row.outcome {
                case .inbox(let relay): entry.append(("relay", .string(relay)))
                case .notDelivered(let why): entry.append(("why", .string(why)))
                case .pending, .sharedOnly: break
                }
                return .object(JSONObject(entry))
            })))
        }
        return .object(JSONObject(fields))
    }

}
