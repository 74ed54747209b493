/// Our NIP-65 relay list (kind 10002), edited keeping what is there: other clients may own
/// entries of it, so we add the relays we use (plain `r` tags: read and write) and take out only the
/// ones we added ourselves and no longer use. Pure: the list in force and our relays in, the next list
/// out (nil when it already says what it should).
public enum OwnRelayList {
    public static let kind = InboxRelayRule.relayListKind

    public struct Current: Equatable, Sendable {
        public var tags: [[String]]
        public var content: String
        public var createdAt: Int64
        /// Relays this device added to it (so only those are ever taken out).
        public var addedByUs: [String]
        public init(tags: [[String]], content: String, createdAt: Int64, addedByUs: [String]) {
            self.tags = tags; self.content = content; self.createdAt = createdAt; self.addedByUs = addedByUs
        }
    }

    /// The relays a list names for reading (plain or `read`).
    public static func readRelays(_ tags: [[String]]) -> [String] { InboxRelayRule.relays(kind: kind, tags: tags) }

    /// The next list, or nil when `current` already names every one of `ours` and none we dropped.
    public static func next(current: Current?, ours: [String], now: Int64) -> (template: UnsignedEventTemplate, addedByUs: [String])? {
        let mine = ours.compactMap(RelayURL.normalized)
        var tags = current?.tags ?? []
        var added = current?.addedByUs ?? []
        let dropped = Set(added).subtracting(mine)
        func named(_ tag: [String]) -> String? { tag.count >= 2 && tag[0] == "r" ? RelayURL.normalized(tag[1]) : nil }
        tags.removeAll { named($0).map(dropped.contains) ?? false }
        added.removeAll(where: dropped.contains)
        let present = Set(tags.compactMap { tag -> String? in
            // A write-only entry does not tell senders to deliver there.
            guard let url = named(tag), tag.count == 2 || tag[2] == "read" else { return nil }
            return url
        })
        for relay in mine where !present.contains(relay) {
            // A write-only entry of the same relay becomes read and write.
            tags.removeAll { named($0) == relay }
            tags.append(["r", relay])
            if !added.contains(relay) { added.append(relay) }
        }
        guard current == nil || tags != current!.tags else { return nil }
        let template = UnsignedEventTemplate(kind: kind, tags: tags, content: current?.content ?? "",
                                             createdAt: max(now, (current?.createdAt ?? 0) + 1))
        return (template, added)
    }
}
