/// The engine's subscriptions, typed: the wire id is made here and parsed back here only, so routing a
/// relay's answer is a `switch`, never a string prefix test.
public enum SyncSubscription: Hashable, Sendable {
    /// Our gift wraps as they come (the live window).
    case live
    /// A page of one relay's history chain (`relay` is the relay's number in this engine's life).
    case history(HistoryChain, relay: Int, page: Int)
    /// Our own newest follow list (kind 3), then live.
    case followList
    /// Kind 0 of the people we know (and our own), their inbox and relay lists.
    case profiles
    /// "Added you" while watched: new lists naming us, and the newest lists of who is listed.
    case addedYouNew, addedYouRows
    /// Our private preferences (kind 30078), live.
    case preferences
    /// A one-shot read-only request.
    case query(Int)
    /// NIP-77: one relay's negentropy sync of a history chain (NEG-OPEN's own namespace), and the REQs
    /// by id that fetch what it found missing.
    case reconcile(HistoryChain, relay: Int)
    case reconcileFetch(HistoryChain, relay: Int, batch: Int)

    /// The history chains of each relay: our gift wraps and our private preferences (wire 2026 §6), and
    /// the profiles and relay lists of the people we know, one part per `SyncEngine.authorsPerFilter` of
    /// them (`part` numbers are never reused in an engine's life, so a late answer to a part that was
    /// replaced names no running one).
    public enum HistoryChain: Hashable, Sendable {
        case giftWraps, preferences
        case profiles(part: Int)

        /// The account's own history: what a backfill waits for (the profiles' parts are not).
        public static let own: [HistoryChain] = [.giftWraps, .preferences]

        public var isOwn: Bool { if case .profiles = self { return false } else { return true } }
    }

    /// The ids relays see (unchanged from the string families they replace).
    public var id: String {
        switch self {
        case .live: return "linkstr-live"
        case .history(.giftWraps, let relay, let page): return "linkstr-backfill-\(relay)-\(page)"
        case .history(.preferences, let relay, let page): return "linkstr-preferences-history-\(relay)-\(page)"
        case .history(.profiles(let part), let relay, let page): return "linkstr-profiles-history-\(relay)-\(part)-\(page)"
        case .followList: return "linkstr-follow-list"
        case .profiles: return "linkstr-profiles"
        case .addedYouNew: return "linkstr-contact-new"
        case .addedYouRows: return "linkstr-contact-rows"
        case .preferences: return "linkstr-private-preferences"
        case .query(let n): return "linkstr-query-\(n)"
        case .reconcile(.giftWraps, let relay): return "linkstr-neg-\(relay)"
        case .reconcile(.preferences, let relay): return "linkstr-neg-preferences-\(relay)"
        case .reconcile(.profiles(let part), let relay): return "linkstr-neg-profiles-\(relay)-\(part)"
        case .reconcileFetch(.giftWraps, let relay, let batch): return "linkstr-neg-fetch-\(relay)-\(batch)"
        case .reconcileFetch(.preferences, let relay, let batch): return "linkstr-neg-preferences-fetch-\(relay)-\(batch)"
        case .reconcileFetch(.profiles(let part), let relay, let batch): return "linkstr-neg-profiles-fetch-\(relay)-\(part)-\(batch)"
        }
    }

    /// The subscription an id names; nil for anything the engine never asked for. Run for every event
    /// a relay sends, so the history pages (nearly all of them) are tried first, without allocating.
    public init?(id: String) {
        if let (relay, page) = Self.pair(id, after: "linkstr-backfill-") { self = .history(.giftWraps, relay: relay, page: page); return }
        switch id {
        case "linkstr-live": self = .live
        case "linkstr-follow-list": self = .followList
        case "linkstr-profiles": self = .profiles
        case "linkstr-contact-new": self = .addedYouNew
        case "linkstr-contact-rows": self = .addedYouRows
        case "linkstr-private-preferences": self = .preferences
        default:
            if let n = Self.number(id, after: "linkstr-query-") { self = .query(n); return }
            if let (relay, page) = Self.pair(id, after: "linkstr-preferences-history-") { self = .history(.preferences, relay: relay, page: page); return }
            if let (relay, batch) = Self.pair(id, after: "linkstr-neg-fetch-") { self = .reconcileFetch(.giftWraps, relay: relay, batch: batch); return }
            if let relay = Self.number(id, after: "linkstr-neg-") { self = .reconcile(.giftWraps, relay: relay); return }
            if let (relay, batch) = Self.pair(id, after: "linkstr-neg-preferences-fetch-") {
                self = .reconcileFetch(.preferences, relay: relay, batch: batch)
                return
            }
            if let relay = Self.number(id, after: "linkstr-neg-preferences-") { self = .reconcile(.preferences, relay: relay); return }
            if let n = Self.numbers(id, after: "linkstr-profiles-history-"), n.count == 3 {
                self = .history(.profiles(part: n[1]), relay: n[0], page: n[2])
                return
            }
            if let n = Self.numbers(id, after: "linkstr-neg-profiles-fetch-"), n.count == 3 {
                self = .reconcileFetch(.profiles(part: n[1]), relay: n[0], batch: n[2])
                return
            }
            if let n = Self.numbers(id, after: "linkstr-neg-profiles-"), n.count == 2 { self = .reconcile(.profiles(part: n[1]), relay: n[0]); return }
            return nil
        }
    }

    /// "<prefix><relay>-<page>", both whole numbers.
    private static func pair(_ id: String, after prefix: String) -> (Int, Int)? {
        guard id.hasPrefix(prefix) else { return nil }
        let rest = id.utf8.dropFirst(prefix.utf8.count)
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")),
              let relay = Int(Substring(rest[..<dash])), let page = Int(Substring(rest[rest.index(after: dash)...])),
              relay >= 0, page >= 0 else { return nil }
        return (relay, page)
    }

    /// "<prefix><n>-<n>…", whole numbers only (the profiles' ids, off the hot path).
    private static func numbers(_ id: String, after prefix: String) -> [Int]? {
        guard id.hasPrefix(prefix) else { return nil }
        var out = [Int]()
        for part in id.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false) {
            guard let n = Int(part), n >= 0, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            out.append(n)
        }
        return out
    }

    private static func number(_ id: String, after prefix: String) -> Int? {
        guard id.hasPrefix(prefix), let n = Int(id.dropFirst(prefix.count)), n >= 0 else { return nil }
        return n
    }
}
