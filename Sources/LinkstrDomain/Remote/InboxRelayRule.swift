/// Where someone wants their gift wraps delivered (NIP-17 kind 10050; else the read relays of their NIP-65
/// kind 10002). Pure: the caller passes the event's fields after checking its signature.
public enum InboxRelayRule {
    public static let inboxKind = 10050
    public static let relayListKind = 10002
    /// Relays kept from one list: enough to choose from when some are blocked or down, bounded whatever
    /// a list says (a send dials at most `DeliveryRelayChoice.Budget.perRecipient` of them).
    public static let maxRelaysKept = 12

    /// The usable relays a list names, in its order: valid ws/wss URLs (normalised), deduplicated, capped.
    public static func relays(kind: Int, tags: [[String]]) -> [String] {
        var out = [String]()
        for tag in tags where tag.count >= 2 {
            switch (kind, tag[0]) {
            case (inboxKind, "relay"): break
            case (relayListKind, "r") where tag.count == 2 || tag[2] == "read": break
            default: continue
            }
            if let url = RelayURL.normalized(tag[1]), !out.contains(url) { out.append(url) }
            if out.count == maxRelaysKept { break }
        }
        return out
    }

    /// Newest list wins per (person, kind); equal timestamps by the greater event id; nothing dated ahead.
    public static func shouldStore(createdAt: Int64, eventID: String, current: LWWStamp?, now: Int64) -> Bool {
        guard createdAt <= now + ProfileRule.maxClockSkew else { return false }
        let stamp = LWWStamp(createdAt: createdAt, eventID: eventID)
        return stamp != current && LWWStamp.shouldApply(stamp, over: current)
    }
}
