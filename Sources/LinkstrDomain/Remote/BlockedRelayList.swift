/// Our blocked relays: NIP-51 kind 10006, public `relay` tags. A blocked relay is never dialled,
/// whatever a list of someone else's names. Pure: reading a list (after its signature is checked) and
/// making the next one from the list in force, so an edit keeps what another client put there.
public enum BlockedRelayList {
    public static let kind = 10006
    /// Relays kept from one list at most (a list is ours, but a damaged one must not cost more).
    public static let maxRelays = 1_000

    /// The relays a list blocks: valid ws/wss URLs, normalised, without repeats, in its order.
    public static func relays(tags: [[String]]) -> [String] {
        var out = [String](), seen = Set<String>()
        for tag in tags where tag.count >= 2 && tag[0] == "relay" {
            guard let url = RelayURL.normalized(tag[1]), seen.insert(url).inserted else { continue }
            out.append(url)
            if out.count == maxRelays { break }
        }
        return out
    }

    /// The next list: `current`'s tags kept verbatim (other tags, other clients' entries), `relay` added
    /// (once) or removed (every spelling of it), dated after the list it replaces.
    public static func edit(current: (tags: [[String]], content: String, createdAt: Int64)?, block relay: String? = nil, unblock: String? = nil,
                            now: Int64) -> UnsignedEventTemplate {
        var tags = current?.tags ?? []
        if let unblock, let gone = RelayURL.normalized(unblock) {
            tags.removeAll { $0.count >= 2 && $0[0] == "relay" && RelayURL.normalized($0[1]) == gone }
        }
        if let relay, let url = RelayURL.normalized(relay), !relays(tags: tags).contains(url) {
            tags.append(["relay", url])
        }
        // The content may hold the list's private part (encrypted by whoever wrote it): kept as it is.
        return UnsignedEventTemplate(kind: kind, tags: tags, content: current?.content ?? "", createdAt: max(now, (current?.createdAt ?? 0) + 1))
    }

    /// Whether `url` may be dialled given the blocked set (normalised both ways; an invalid URL never is).
    public static func allows(_ url: String, blocked: Set<String>) -> Bool {
        guard let normalized = RelayURL.normalized(url) else { return false }
        return !blocked.contains(normalized)
    }
}
