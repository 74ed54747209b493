import LinkstrDomain
import NostrProtocol

/// Whose profiles and relay lists the engine reads, in parts of `perPart` authors (a part is a history
/// chain of its own, `HistoryChain.profiles`), and what a new set of people changes: pure, like
/// `HistoryPager`. The engine takes the decision before it awaits anything (so an overlapping refresh
/// sees the parts this one made), then carries it out: closes what ran, subscribes, reads parts.
struct ProfileParts: Equatable, Sendable {
    /// Contacts and session members.
    private(set) var authors = Set<Pubkey>()
    /// A set was taken (the live subscription exists).
    private(set) var subscribed = false
    /// The authors by part number, and each author's part; numbers are never reused.
    private(set) var parts: [Int: [Pubkey]] = [:]
    private(set) var partOf: [Pubkey: Int] = [:]
    private(set) var nextPart = 0
    let perPart: Int

    init(perPart: Int) { self.perPart = max(1, perPart) }

    enum Change: Equatable, Sendable {
        /// The same people: nothing to do.
        case unchanged
        /// People only added (sessions and contacts arriving, as in a first sync): the parts read so far
        /// stand; these new parts are to be read on every relay.
        case grew(newParts: [Int])
        /// The first set, or someone gone: every part was made again; whatever ran for the old parts is to
        /// be closed and every relay's parts read from the start.
        case remade
    }

    /// Takes the people as they are now.
    mutating func take(_ people: Set<Pubkey>) -> Change {
        if subscribed && people == authors { return .unchanged }
        let growing = subscribed && authors.isSubset(of: people)
        let newcomers = people.subtracting(growing ? authors : [])
        authors = people
        subscribed = true
        if !growing {
            parts = [:]
            partOf = [:]
        }
        let added = newcomers.sorted()
        var made = [Int]()
        for start in stride(from: 0, to: added.count, by: perPart) {
            let part = Array(added[start..<min(start + perPart, added.count)])
            parts[nextPart] = part
            for author in part { partOf[author] = nextPart }
            made.append(nextPart)
            nextPart += 1
        }
        return growing ? .grew(newParts: made) : .remade
    }

    /// The live subscription's filters: our newest kind 0 (a name change keeps the fields other clients
    /// set) and our own lists (another client's newer edit wins), then each part's `kinds` from `since`
    /// (nil: all of them, when nothing reads their history).
    func filters(me: Pubkey, ownListKinds: [Int], kinds: [Int], since: Int64?) -> [Filter] {
        [Filter(authors: [me], kinds: [0], limit: 1), Filter(authors: [me], kinds: ownListKinds, limit: ownListKinds.count)]
            + parts.keys.sorted().map { Filter(authors: parts[$0] ?? [], kinds: kinds, since: since) }
    }
}

/// Where an event of the profiles subscription goes, decided before any signature is checked.
enum ProfileEventRoute: Equatable, Sendable {
    /// Our blocked-relays or relay list (another client's edit).
    case ownList
    /// Someone's inbox or relay list (kinds 10050, 10002); ours of those kinds are our own lists' business.
    case theirRelayList
    /// Our kind 0.
    case ownProfile
    /// The kind 0 of someone we asked for.
    case theirProfile
    /// Anything else: not verified, not stored.
    case ignore

    static func of(kind: Int, author: Pubkey, me: Pubkey, ownListKinds: [Int], relayListKinds: [Int], wanted: Set<Pubkey>) -> ProfileEventRoute {
        if author == me, ownListKinds.contains(kind) { return .ownList }
        if relayListKinds.contains(kind) { return author == me ? .ignore : .theirRelayList }
        guard kind == 0 else { return .ignore }
        if author == me { return .ownProfile }
        return wanted.contains(author) ? .theirProfile : .ignore
    }
}
