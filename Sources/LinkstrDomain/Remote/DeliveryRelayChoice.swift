/// Which relays a send dials to reach each member where they read (the outbox plan's relay
/// selector adapted to the write path). Pure: the lists come in already verified, time as a parameter.
///
/// Each member's relays are their NIP-17 inbox list (kind 10050), else their NIP-65 read relays (kind
/// 10002), in the list's order, blocked relays (our kind 10006) taken out, at most `perRecipient` kept:
/// a hostile list of thirty relays costs no more than a short one. A member one of whose relays we
/// publish to anyway is reached there. The rest are covered greedily, the relay that reaches the most
/// members not yet reached first (ties by URL, so the plan is the same every time), until every member is
/// reached or `extraConnections` relays are chosen. Whoever is left is reported with the reason.
public enum DeliveryRelayChoice {
    public struct Budget: Equatable, Sendable {
        public var perRecipient: Int
        public var extraConnections: Int
        /// A list older than this is still used, and flagged to be fetched again.
        public var staleAfter: Int64
        public init(perRecipient: Int = 3, extraConnections: Int = 16, staleAfter: Int64 = 7 * 86_400) {
            self.perRecipient = perRecipient; self.extraConnections = extraConnections; self.staleAfter = staleAfter
        }
        public static let standard = Budget()
    }

    /// What we know of where a member reads.
    public struct Recipient: Equatable, Sendable {
        public var pubkey: Pubkey
        /// Their kind 10050 relays (nil: no list found), and when that list was fetched.
        public var inbox: [String]?
        /// Their kind 10002 read relays (nil: no list found).
        public var readRelays: [String]?
        public var listedAt: Int64?
        public init(pubkey: Pubkey, inbox: [String]? = nil, readRelays: [String]? = nil, listedAt: Int64? = nil) {
            self.pubkey = pubkey; self.inbox = inbox; self.readRelays = readRelays; self.listedAt = listedAt
        }
    }

    public enum Source: String, Equatable, Sendable { case inbox, readRelays }

    public enum Unreached: Equatable, Sendable {
        /// No 10050 and no 10002 found: only relays both of us use may carry it.
        case noList
        /// Every relay their list names is one we blocked.
        case allBlocked
        /// Their relays were not among those the connection budget allowed.
        case overBudget
    }

    public struct Plan: Equatable, Sendable {
        /// Relays to dial beyond ours, each with the members it reaches, in the order chosen.
        public var extra: [(relay: String, members: [Pubkey])] = []
        /// Members reached on a relay we publish to anyway (that relay for each).
        public var onOurs: [Pubkey: String] = [:]
        public var unreached: [Pubkey: Unreached] = [:]
        /// Where each member's relays came from.
        public var source: [Pubkey: Source] = [:]
        /// Members whose list is older than the budget allows (fetch it again).
        public var stale: Set<Pubkey> = []

        /// The relay each reached member's wrap goes to (beyond the ones we publish to anyway).
        public var deliveries: [Pubkey: String] {
            var out = [Pubkey: String]()
            for (relay, members) in extra { for m in members { out[m] = relay } }
            return out
        }

        public static func == (a: Plan, b: Plan) -> Bool {
            a.extra.map(\.relay) == b.extra.map(\.relay) && a.extra.map(\.members) == b.extra.map(\.members) && a.onOurs == b.onOurs
                && a.unreached == b.unreached && a.source == b.source && a.stale == b.stale
        }
    }

    public static func plan(_ recipients: [Recipient], ours: Set<String>, blocked: Set<String>, budget: Budget = .standard, now: Int64) -> Plan {
        var plan = Plan()
        var candidates = [Pubkey: [String]]()
        for r in recipients {
            let (named, source): ([String], Source?) = r.inbox?.isEmpty == false ? (r.inbox!, .inbox)
                : r.readRelays?.isEmpty == false ? (r.readRelays!, .readRelays) : ([], nil)
            guard let source else {
                plan.unreached[r.pubkey] = .noList
                continue
            }
            plan.source[r.pubkey] = source
            if let at = r.listedAt, now - at > budget.staleAfter { plan.stale.insert(r.pubkey) }
            var usable = [String]()
            for url in named {
                guard let relay = RelayURL.normalized(url), !blocked.contains(relay), !usable.contains(relay) else { continue }
                usable.append(relay)
                if usable.count == budget.perRecipient { break }
            }
            guard !usable.isEmpty else {
                plan.unreached[r.pubkey] = .allBlocked
                continue
            }
            if let shared = usable.first(where: { ours.contains($0) }) {
                plan.onOurs[r.pubkey] = shared
                continue
            }
            candidates[r.pubkey] = usable
        }
        // Greedy set cover over what is left.
        var uncovered = Set(candidates.keys)
        while !uncovered.isEmpty, plan.extra.count < budget.extraConnections {
            var reach = [String: [Pubkey]]()
            for member in uncovered { for relay in candidates[member]! { reach[relay, default: []].append(member) } }
            guard let best = reach.max(by: { a, b in a.value.count != b.value.count ? a.value.count < b.value.count : a.key > b.key }) else { break }
            plan.extra.append((best.key, best.value.sorted()))
            uncovered.subtract(best.value)
        }
        for member in uncovered { plan.unreached[member] = .overBudget }
        return plan
    }
}
