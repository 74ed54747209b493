/// Other people's profile names (kind 0), shown where we have no alias for them. Pure: the caller passes
/// the event's fields after checking its signature, the stored stamp, and the clock.
public enum ProfileRule {
    /// A profile dated further ahead than this is refused: it would otherwise win over every later edit.
    public static let maxClockSkew: Int64 = 600

    public enum Decision: Equatable, Sendable {
        /// Store this name (nil: the profile has no usable name, which clears an older one).
        case apply(name: String?, stamp: LWWStamp)
        case ignore(IgnoreReason)
    }

    public enum IgnoreReason: String, Equatable, Sendable {
        case notAProfile = "not a kind 0 event"
        case notSomeoneWeKnow = "the author is neither a contact nor a session member"
        case fromTheFuture = "dated more than ten minutes ahead"
        case older = "older than the stored profile"
    }

    /// Newest profile wins, equal timestamps by the greater event id (as session snapshots do).
    public static func decide(kind: Int, author: Pubkey, createdAt: Int64, eventID: String, content: String,
                              known: Set<Pubkey>, current: LWWStamp?, now: Int64) -> Decision {
        guard kind == 0 else { return .ignore(.notAProfile) }
        guard known.contains(author) else { return .ignore(.notSomeoneWeKnow) }
        guard createdAt <= now + maxClockSkew else { return .ignore(.fromTheFuture) }
        let stamp = LWWStamp(createdAt: createdAt, eventID: eventID)
        guard LWWStamp.shouldApply(stamp, over: current), stamp != current else { return .ignore(.older) }
        return .apply(name: NostrEventTemplates.profileName(fromContent: content), stamp: stamp)
    }

    /// Whose profiles we ask relays for: contacts and everyone who was ever in one of our sessions, not us.
    public static func interestingAuthors(contacts: [Contact], sessionMembers: [[Pubkey]], me: Pubkey) -> Set<Pubkey> {
        var keys = Set(contacts.map(\.pubkey))
        for members in sessionMembers { keys.formUnion(members) }
        keys.remove(me)
        return keys.filter { PubkeyNormalizer.hex($0) == $0 }
    }
}
