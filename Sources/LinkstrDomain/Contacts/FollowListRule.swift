/// Our own follow list (kind 3) as the iOS app keeps it (wire 2026 §7.1). Pure.
public enum FollowListRule {
    /// Edits that lose to a list another device published meanwhile are rebuilt on that list and
    /// published again, this many times in all.
    public static let maxAttempts = 3
    public static let changedElsewhere = "contacts changed on another device. try again."
    /// No relay answered which list is newest: an edit waits (it is never made on a guess).
    public static let unavailable = "your contact list is unavailable: no relay answered in time. try again."

    /// NIP-01 order for replaceable events: the newer second wins; within one second the **lower**
    /// id. The exact current event applies again (it restores the tags' metadata).
    public static func shouldApply(_ incoming: LWWStamp, over current: LWWStamp?) -> Bool {
        guard let current else { return true }
        if incoming.createdAt != current.createdAt { return incoming.createdAt > current.createdAt }
        return incoming.eventID <= current.eventID
    }

    /// The keys a list follows: its `p` tags, normalized, first occurrence kept.
    public static func keys(_ tags: [[String]]) -> [Pubkey] {
        PubkeyNormalizer.dedupedList(tags.compactMap { $0.count >= 2 && $0[0] == "p" ? $0[1] : nil })
    }

    /// The tags to publish for `keys`: the applied list's tags verbatim (other tags, relay hints and
    /// petnames on the `p` tags that stay), `p` tags of keys no longer wanted dropped (and repeats),
    /// new keys appended as `["p", hex]` in ascending order.
    public static func tags(base: [[String]], keeping keys: [Pubkey]) -> [[String]] {
        let wanted = Set(PubkeyNormalizer.dedupedList(keys))
        var present = Set<Pubkey>()
        var out = [[String]]()
        for tag in base {
            guard tag.count >= 2, tag[0] == "p" else { out.append(tag); continue }
            guard let key = PubkeyNormalizer.fromAnyForm(tag[1]), wanted.contains(key), present.insert(key).inserted else { continue }
            out.append(tag)
        }
        out += wanted.subtracting(present).sorted().map { ["p", $0] }
        return out
    }

    /// A new list is dated strictly after the one it replaces, so it wins on every relay and device.
    public static func publicationTime(now: Int64, after watermark: LWWStamp?) -> Int64 {
        max(now, (watermark?.createdAt ?? Int64.min + 1) + 1)
    }
}
