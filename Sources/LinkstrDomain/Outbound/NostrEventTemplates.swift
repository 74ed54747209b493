import NostrProtocol

/// An event to sign with the user's key: kind, tags and content (pubkey and id come at signing).
public struct UnsignedEventTemplate: Equatable, Sendable {
    public let kind: Int
    public let tags: [[String]]
    public let content: String
    public let createdAt: Int64

    public init(kind: Int, tags: [[String]], content: String, createdAt: Int64) {
        self.kind = kind; self.tags = tags; self.content = content; self.createdAt = createdAt
    }

    public func event(author: PublicKey) -> UnsignedEvent {
        UnsignedEvent(pubkey: author, createdAt: createdAt, kind: kind, tags: tags, content: content)
    }
}

/// The plain (not gift-wrapped) events linkstr publishes (wire document §7).
public enum NostrEventTemplates {
    /// NIP-09 request against the wraps that carried a post. Best effort: wraps are signed by one-time keys.
    public static func postDeletionRequest(wrapIDs: [String], now: Int64) -> UnsignedEventTemplate {
        UnsignedEventTemplate(kind: 5, tags: wrapIDs.map { ["e", $0] } + [["k", "1059"]], content: "linkstr post deletion request", createdAt: now)
    }

    /// NIP-09 request against the wraps of every root post of a deleted session (wire 2026 §1.5).
    public static func sessionDeletionRequest(wrapIDs: [String], now: Int64) -> UnsignedEventTemplate {
        UnsignedEventTemplate(kind: 5, tags: wrapIDs.map { ["e", $0] } + [["k", "1059"]], content: "linkstr session deletion request", createdAt: now)
    }

    /// NIP-02 follow list: every contact as a `p` tag, sorted ascending, no relay or petname.
    public static func followList(_ contacts: [Pubkey], now: Int64) -> UnsignedEventTemplate {
        followList(tags: contacts.sorted().map { ["p", $0] }, createdAt: now)
    }

    /// NIP-02 follow list with the tags as given (`FollowListRule.tags` keeps what other clients set).
    public static func followList(tags: [[String]], createdAt: Int64) -> UnsignedEventTemplate {
        UnsignedEventTemplate(kind: 3, tags: tags, content: "", createdAt: createdAt)
    }

    /// NIP-62 request to vanish, naming the enabled relays (or all relays when none).
    public static func requestToVanish(relays: [String], now: Int64) -> UnsignedEventTemplate {
        let urls = Array(Set(relays.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty })).sorted()
        let tags = urls.isEmpty ? [["relay", "ALL_RELAYS"]] : urls.map { ["relay", $0] }
        return UnsignedEventTemplate(kind: 62, tags: tags, content: "linkstr account deletion request", createdAt: now)
    }

    /// Kind 0 with `name` and `display_name` merged into whatever the existing profile held; `nip05`
    /// set too when given ("" removes it), else left as it was.
    public static func profile(name: String?, existingContent: String?, now: Int64, nip05: String? = nil) -> UnsignedEventTemplate {
        var members: [String: JSONValue] = [:]
        if let existingContent, case .object(let o)? = try? JSONParser.parse(existingContent) {
            for m in o.members { members[m.key] = m.value }
        }
        let trimmed = name?.trimmingWhitespace() ?? ""
        if trimmed.isEmpty {
            members.removeValue(forKey: "name"); members.removeValue(forKey: "display_name")
        } else {
            members["name"] = .string(trimmed); members["display_name"] = .string(trimmed)
        }
        if let nip05 = nip05?.trimmingWhitespace() {
            if nip05.isEmpty { members.removeValue(forKey: "nip05") } else { members["nip05"] = .string(nip05) }
        }
        let sorted = members.keys.sorted().map { (key: $0, value: members[$0]!) }
        return UnsignedEventTemplate(kind: 0, tags: [], content: JSONWriter.encode(.object(JSONObject(sorted))), createdAt: now)
    }

    /// NIP-17 inbox relays (kind 10050), so others know where to deliver our gift wraps.
    public static func inboxRelays(_ relays: [String], now: Int64) -> UnsignedEventTemplate {
        UnsignedEventTemplate(kind: 10050, tags: relays.map { ["relay", $0] }, content: "", createdAt: now)
    }

    /// A profile name as displayed: `display_name`, else `name`; control characters removed,
    /// whitespace collapsed, at most 80 characters.
    public static func profileName(fromContent content: String) -> String? {
        guard case .object(let o)? = try? JSONParser.parse(content, limits: .init(maxBytes: 256 << 10, maxDepth: 8)) else { return nil }
        for key in ["display_name", "name"] {
            if case .string(let raw)? = o[key] {
                let cleaned = DisplayText.singleLine(raw)
                if !cleaned.isEmpty { return String(cleaned.prefix(80)) }
            }
        }
        return nil
    }
}
