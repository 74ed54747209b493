import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The delivery doctor, for `linkstr doctor` and the app's view alike: whether our kind 10050
/// and 10002 are published and found on the indexers, and for each member where their lists came
/// from, their inbox relays and whether each answers (connection, NIP-11, AUTH), the relays we share,
/// the last delivery, and what to do. Every check is bounded by the engine's deadlines.
public struct DeliveryDoctor: Sendable {
    public struct RelayCheck: Equatable, Sendable {
        public var url: String
        public var blocked = false
        public var answered = false
        /// Why it did not answer, in words.
        public var error: String?
        /// It answered, and would not read for us (NIP-42 readers only, say): no matter for delivery.
        public var readRefused: String?
        public var authRequired = false
        public var paymentRequired = false
        public var restrictedWrites = false
        public var maxMessageLength: Int?
        public init(url: String) { self.url = url }
    }

    public struct Ours: Equatable, Sendable {
        public var relays: [String]
        public var inbox: [String]
        public var inboxChosen: Bool
        /// Our 10050 / 10002 as last published from here (nil: never).
        public var inboxPublished: Bool
        public var relayListPublished: Bool
        /// Per indexer: whether it holds our 10050 and our 10002, or why it could not say.
        public var indexers: [IndexerCheck]
        public var blocked: [String]
    }

    public struct IndexerCheck: Equatable, Sendable {
        public var url: String
        public var hasInbox = false
        public var hasRelayList = false
        public var error: String?
    }

    public struct Member: Equatable, Sendable {
        public var pubkey: Pubkey
        public var name: String?
        /// "inbox" (kind 10050), "read_relays" (kind 10002) or "none".
        public var source: String
        public var foundOn: String?
        public var fetchedAt: Int64?
        public var relays: [RelayCheck]
        public var overlap: [String]
        public var lastDelivery: MemberDelivery?
        public var lastDeliveryAt: Int64?
        public var advice: String
    }

    public struct Report: Equatable, Sendable {
        public var ours: Ours
        public var members: [Member]
        public var sessionID: String?
    }

    /// Relays checked at once.
    static let checksAtOnce = 16

    let store: AccountStore
    let me: Pubkey
    let engine: @Sendable () async throws -> SyncEngine

    public init(actions: AccountActions) {
        store = actions.store; me = actions.me; engine = actions.engine
    }

    /// The members of `sessionID` (nil: of every session and our contacts).
    public func people(in sessionID: String?) throws -> [Pubkey] {
        if let sessionID {
            guard let session = try store.session(sessionID), session.isListed else { throw ClientError(.notFound, "no session \(DisplayText.singleLine(sessionID)).") }
            return session.derived.currentMembers.filter { $0 != me }.sorted()
        }
        return try store.profileAuthors().filter { $0 != me }.sorted()
    }

    public func run(session sessionID: String?) async throws -> Report {
        let people = try people(in: sessionID)
        let engine = try await engine()
        await engine.discoverRelayLists(for: people)
        let dialer = await engine.outsideDialer()
        let ourRelays = await engine.ourRelays()
        let blocked = Set(try store.blockedRelays())
        let naming = try PersonNaming(store)
        // Our lists on the indexers, and each member's relays checked, all at once.
        let indexers = await engine.indexers
        let me = self.me
        async let indexerChecks = Concurrently.map(indexers.filter { !blocked.contains($0) }.sorted()) { url in
            let answer = await dialer.query([Filter(authors: [me], kinds: [InboxRelayRule.inboxKind, OwnRelayList.kind], limit: 2)], on: url, maxEvents: 10)
            var check = IndexerCheck(url: url)
            check.error = answer.error
            let mine = answer.events.filter { $0.pubkey.hex == me && $0.isValid }
            check.hasInbox = mine.contains { $0.kind == InboxRelayRule.inboxKind }
            check.hasRelayList = mine.contains { $0.kind == OwnRelayList.kind }
            return check
        }
        var lists = [Pubkey: (source: String, relays: [String], foundOn: String?, fetchedAt: Int64?)]()
        for person in people {
            let inbox = try store.relayListRecord(person, kind: InboxRelayRule.inboxKind)
            let general = try store.relayListRecord(person, kind: InboxRelayRule.relayListKind)
            if let inbox, !inbox.relays.isEmpty {
                lists[person] = ("inbox", inbox.relays, inbox.foundOn, inbox.fetchedAt)
            } else if let general, !general.relays.isEmpty {
                lists[person] = ("read_relays", general.relays, general.foundOn, general.fetchedAt)
            } else {
                lists[person] = ("none", [], nil, nil)
            }
        }
        let toCheck = Set(lists.values.flatMap(\.relays)).subtracting(blocked).sorted()
        // At most `checksAtOnce` connections at a time (everyone we know may name hundreds of relays).
        // One rule for what is dialled: a relay of ours is dialled by the pool whatever its
        // address, so it is checked the same way; others as an inbox delivery dials them (never a local or
        // private address unless allowed). The doctor said "✗ … a local or private address" for our own
        // loopback relay, then "delivered to their inbox (the same relay)".
        var oursDialer = dialer
        oursDialer.allowPrivateAddresses = true
        let ourSet = Set(ourRelays), asOurs = oursDialer
        let checks = Dictionary(uniqueKeysWithValues: await Concurrently.map(toCheck, atMost: Self.checksAtOnce) { url in
            (url, await Self.check(url, ourSet.contains(url) ? asOurs : dialer))
        })
        var members = [Member]()
        for person in people {
            let list = lists[person]!
            let relays = list.relays.map { url -> RelayCheck in
                var check = checks[url] ?? RelayCheck(url: url)
                if blocked.contains(url) { check.blocked = true; check.error = "blocked by you" }
                return check
            }
            // Shared: relays both lists name (compared as relay URLs: `wss://Host/` is `wss://host`), and
            // ours that accepted their copies of what we sent last ("shared relays: none" was
            // said of a member whose copies had landed on a relay both use).
            let last = try store.lastDelivery(to: person)
            let ourNormalized = Set(ourRelays.map { RelayURL.normalized($0) ?? $0 })
            let named = list.relays.filter { ourNormalized.contains(RelayURL.normalized($0) ?? $0) }
            let landed = (last?.acceptedOn ?? []).filter { ourNormalized.contains(RelayURL.normalized($0) ?? $0) }
            var overlap = named
            for relay in landed where !overlap.contains(where: { RelayURL.normalized($0) == RelayURL.normalized(relay) }) { overlap.append(relay) }
            let facts = DeliveryAdvice.Facts(source: list.source == "inbox" ? .inbox : list.source == "read_relays" ? .readRelays : nil,
                                             relays: list.relays, blocked: list.relays.filter(blocked.contains),
                                             answering: relays.filter(\.answered).map(\.url), overlap: overlap, lastDelivery: last?.outcome)
            members.append(Member(pubkey: person, name: naming.name(person), source: list.source, foundOn: list.foundOn,
                                  fetchedAt: list.fetchedAt.flatMap { $0 > 0 ? $0 : nil }, relays: relays, overlap: overlap,
                                  lastDelivery: last?.outcome, lastDeliveryAt: last?.at, advice: DeliveryAdvice.words(facts)))
        }
        let inbox = try store.chosenInboxRelays()
        let published = try store.setting(.inboxPublished)
        // Published means the list as it is now went out (the engine announces `inbox.joined(" ")`), not
        // that some list once did: after an edit or a block it says "not published yet" until it has.
        let current = (inbox ?? ourRelays).joined(separator: " ")
        let ours = Ours(relays: ourRelays, inbox: inbox ?? ourRelays, inboxChosen: inbox != nil, inboxPublished: published == current && !current.isEmpty,
                        relayListPublished: try store.ownRelayList() != nil, indexers: await indexerChecks, blocked: blocked.sorted())
        return Report(ours: ours, members: members, sessionID: sessionID)
    }

    /// One relay: a connection, its NIP-11 document, whether it wants AUTH (asked with a query that
    /// matches nothing, so only the relay's manner is learnt).
    static func check(_ url: String, _ dialer: InboxDelivery) async -> RelayCheck {
        var check = RelayCheck(url: url)
        let answer = await dialer.query([Filter(kinds: [NIP59.giftWrapKind], limit: 0)], on: url, maxEvents: 1)
        check.answered = answer.connected && (answer.error == nil || answer.closed)
        if answer.closed { check.readRefused = answer.error } else { check.error = answer.error }
        check.authRequired = answer.challenged || answer.information?.authRequired == true
        check.paymentRequired = answer.information?.paymentRequired == true
        check.restrictedWrites = answer.information?.restrictedWrites == true
        check.maxMessageLength = answer.information?.maxMessageLength
        return check
    }
}
