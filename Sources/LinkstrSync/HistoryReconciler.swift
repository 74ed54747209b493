import NostrProtocol

/// One relay's gift-wrap history by NIP-77 (negentropy), as a pure state machine: the local set (the
/// wraps we processed, with their `created_at`) against the relay's for our filter; the ids we lack
/// are fetched with REQs by id once it is over, newest first, a few batches at a time. No clock, no
/// socket: the engine sends what it is told and reports each answer, refusal, timeout and fetch end.
///
/// A relay that refuses (NEG-ERR, a NOTICE, no answer in time), answers with what is not a negentropy
/// message, or needs more rounds than the ids found earn (`roundCap`) makes the chain fall back to paging
/// (`HistoryPager`); the engine remembers that for the relay. Work is bounded whatever the relay says:
/// each round costs at most its message and the local set; rounds and the time spent on them are capped
/// absolutely (`maxRoundsEver`, `workBudget`: a relay inventing ids each round buys no more); ids to
/// fetch are capped (`maxNeeded`); an id offered twice is fetched once; what a fetch brings goes through
/// the same checks as a page. Ids offered and then not delivered (EOSE without them) do not end the
/// history: the relay is paged instead, so "complete" never rests on a relay's word alone.
public struct HistoryReconciler: Sendable {
    public enum FallBack: Sendable, Equatable {
        /// NEG-ERR, or a NOTICE while the first answer was awaited: the relay does not do it (for us).
        case refused(String)
        case timedOut
        /// Not a negentropy message, or one that broke the protocol.
        case malformed(String)
        case tooManyRounds
        case tooManyIDs
        /// The rounds took more of our time than a sync may (`workBudget`).
        case tooMuchWork
        /// Ids it offered as ours to fetch that its fetches did not bring (`missing` of `offered`).
        case undelivered(missing: Int, offered: Int)
        /// A fetch by id was refused (CLOSED) or not answered in time: what it asked for may exist, so
        /// the relay is paged this time (its NIP-77 itself did not fail: not remembered).
        case fetchFailed(String)

        /// Whether the relay should not be asked again soon (a disconnect is not among these, nor a refusal
        /// for now: NIP-77's `closed:` is a relay ending a sync it held too long, `rate-limited:` and
        /// `auth-required:` pass).
        public var remembered: Bool {
            switch self {
            case .refused(let reason): return !["auth-required", "closed:", "rate-limited"].contains { reason.hasPrefix($0) }
            case .fetchFailed: return false
            // Mostly missing: the relay offers what it does not have. A few: deleted meanwhile, perhaps.
            case .undelivered(let missing, let offered): return missing * 2 > offered
            default: return true
            }
        }

        public var words: String {
            switch self {
            case .refused(let r): return "refused (\(r.prefix(80)))"
            case .timedOut: return "no answer in time"
            case .malformed(let why): return "a broken answer (\(why))"
            case .tooManyRounds: return "no agreement within the rounds its ids allow"
            case .tooManyIDs: return "more than \(HistoryReconciler.maxNeeded) ids offered"
            case .tooMuchWork: return "more than \(HistoryReconciler.workBudget.components.seconds) s of work on its rounds"
            case .undelivered(let missing, let offered): return "\(missing) of the \(offered) ids it offered never came"
            case .fetchFailed(let why): return "a fetch by id failed (\(why.prefix(80)))"
            }
        }
    }

    public enum Action: Sendable, Equatable {
        /// NEG-OPEN with our filter and this first message (hex); start the answer's deadline.
        case open(String)
        /// NEG-MSG; restart the deadline.
        case send(String)
        /// NEG-CLOSE: the reconciliation is over (the fetches may still run).
        case close
        /// REQ for these ids (hex) under fetch number `batch`, with the page deadline.
        case fetch(batch: Int, ids: [String])
        /// Everything the relay has that we lacked was asked for and answered.
        case finished
        /// Close what is open and page this relay's history instead.
        case fallBack(FallBack)
    }

    /// Rounds past which a relay is taken to be lying about its set: an honest one needs about log16
    /// of the set's size, plus rounds for the ids it sends (at the smallest frame a relay may use, 4 096
    /// bytes, as few as 40 ids a round once fingerprints take their share), so every 25 ids found on
    /// either side earn a round more: a liar buys rounds only with ids it offers (each costs it a
    /// fetch, and they are capped) or with ids of ours (at most our set).
    public static let maxRounds = 64
    static func roundCap(ids: Int) -> Int { min(maxRoundsEver, maxRounds + ids / 25) }
    /// Rounds whatever the ids: 40 000 ids at the smallest frames; beyond that paging is as cheap.
    public static let maxRoundsEver = 1_000
    /// Time spent on a chain's rounds (reconciling its messages against the local set), whatever the
    /// relay says; past it the history is paged.
    public static let workBudget: Duration = .seconds(3)
    public static let maxNeeded = 500_000
    /// Fetch REQs in flight at once on the relay.
    public static let fetchesInFlight = 2

    public private(set) var rounds = 0
    public private(set) var bytesSent = 0
    public private(set) var bytesReceived = 0
    /// Distinct ids the relay offered that we lacked.
    public private(set) var neededCount = 0
    public private(set) var outcome: Outcome?
    /// Time spent on the rounds so far (`spent`).
    public private(set) var work: Duration = .zero
    /// Ids fetched that their fetch ended without (EOSE).
    public private(set) var undeliveredCount = 0

    /// `interrupted`: the connection went; the engine starts again on the next one.
    public enum Outcome: Sendable, Equatable { case finished, fellBack(FallBack), interrupted }

    /// The local set and its sums (72 bytes an item: 7 MB for 100 000 wraps), let go once the rounds are
    /// over: the reconciler stays in the engine's state until the next connection.
    private var negentropy: Negentropy?
    private let batchSize: Int
    private var negotiating = false
    /// Ids to fetch, newest last (taken from the end).
    private var queue: [Negentropy.Needed] = []
    private var offered = Set<Bytes32>()
    /// Ids of ours the relay lacks (not uploaded: they earn rounds only).
    private var haveCount = 0
    /// Those ids themselves, when asked for (`keepingHave`): what we hold that the relay no longer does
    /// (every other id of ours it holds too). At most the local set.
    public private(set) var haveIDs = Set<Bytes32>()
    private let keepingHave: Bool
    /// Each open fetch and the ids it asked for that have not come yet.
    private var fetching: [Int: Set<Bytes32>] = [:]
    public private(set) var nextBatch = 0
    private let now: Int64?

    /// `frameSizeLimit`: our messages' cap in bytes (before hex), under the relay's message limit.
    /// `now`: with an empty local set, the first message asks by age (`ageCuts`), so that a first sync
    /// still fetches the newest first.
    /// `firstBatch`: fetch numbers start here, past those of an earlier sync on the same relay (whose
    /// late answers must not end this one's fetches).
    /// `keepingHave`: remember the ids of ours the relay lacks (`haveIDs`).
    public init(local: NegentropyStorage, batchSize: Int, frameSizeLimit: Int = 60_000, now: Int64? = nil, firstBatch: Int = 0,
                keepingHave: Bool = false) {
        negentropy = Negentropy(storage: local, frameSizeLimit: frameSizeLimit)
        self.batchSize = max(1, batchSize)
        self.now = now
        self.keepingHave = keepingHave
        nextBatch = firstBatch
    }

    /// Ages doubling from an hour to about 7.5 years back from `now`, oldest first (gift wraps are dated
    /// up to two days early, so finer cuts would not order them better).
    static func ageCuts(now: Int64) -> [UInt64] {
        (0...16).reversed().compactMap { k in
            let t = now - 3_600 * (Int64(1) << k)
            return t > 0 ? UInt64(t) : nil
        }
    }

    /// Whether the local set is still held (only while negotiating).
    public var holdsLocalSet: Bool { negentropy != nil }

    public var isRunning: Bool { outcome == nil && (negotiating || !fetching.isEmpty || !queue.isEmpty) }
    public var isNegotiating: Bool { negotiating }

    public mutating func start() -> [Action] {
        // Once only: a reconciler that ran has let its local set go.
        guard let negentropy, rounds == 0 else { return [] }
        negotiating = true
        rounds = 1
        let first = Hex.encode(negentropy.initiate(emptyRangesEndingAt: now.map(Self.ageCuts) ?? []))
        bytesSent += first.utf8.count
        return [.open(first)]
    }

    /// The relay's NEG-MSG.
    public mutating func answered(_ hex: String) -> [Action] {
        guard negotiating, outcome == nil else { return [] }
        bytesReceived += hex.utf8.count
        guard work <= Self.workBudget else { return fallBack(.tooMuchWork) }
        guard hex.utf8.count % 2 == 0, let bytes = Hex.decode(hex), Hex.encode(bytes) == hex else { return fallBack(.malformed("not lowercase hex")) }
        let step: Negentropy.Step
        guard let negentropy else { return [] }
        do { step = try negentropy.reconcile(bytes) } catch { return fallBack(.malformed(error.description)) }
        for needed in step.need where offered.insert(needed.id).inserted { queue.append(needed) }
        haveCount += step.have.count
        if keepingHave { haveIDs.formUnion(step.have) }
        neededCount = offered.count
        guard offered.count <= Self.maxNeeded else { return fallBack(.tooManyIDs) }
        var actions = [Action]()
        if let next = step.next {
            rounds += 1
            guard rounds <= Self.roundCap(ids: offered.count + haveCount) else { return fallBack(.tooManyRounds) }
            let text = Hex.encode(next)
            bytesSent += text.utf8.count
            actions.append(.send(text))
        } else {
            negotiating = false
            self.negentropy = nil
            // Newest last, so that each fetch takes the newest ids still wanted (sorted once, at the end).
            queue.sort { $0.before != $1.before ? $0.before < $1.before : $0.id < $1.id }
            actions.append(.close)
        }
        return actions + fetchMore()
    }

    /// NEG-ERR, or a NOTICE from the relay while we wait for its first answer.
    public mutating func refused(_ reason: String) -> [Action] {
        guard negotiating, outcome == nil else { return [] }
        return fallBack(.refused(reason))
    }

    /// The answer's deadline passed.
    public mutating func timedOut() -> [Action] {
        guard negotiating, outcome == nil else { return [] }
        return fallBack(.timedOut)
    }

    /// The time the engine spent on the last answer (the reconciler has no clock).
    public mutating func spent(_ duration: Duration) { work += duration }

    /// An event of fetch `batch` came (the pool passed only what the fetch's filter matches).
    public mutating func delivered(batch: Int, _ id: Bytes32) {
        fetching[batch]?.remove(id)
    }

    /// A fetch ended with EOSE: what it did not bring is counted; if anything is missing once every
    /// fetch ended, the history is paged (a relay that offers ids it does not serve is not believed).
    public mutating func fetchEnded(batch: Int) -> [Action] {
        guard let missing = fetching.removeValue(forKey: batch), outcome == nil else { return [] }
        undeliveredCount += missing.count
        return fetchMore()
    }

    /// A fetch was refused (CLOSED) or its deadline passed: the history is paged instead, so nothing
    /// it asked for is taken as absent.
    public mutating func fetchFailed(batch: Int, _ why: String) -> [Action] {
        guard fetching[batch] != nil, outcome == nil else { return [] }
        return fallBack(.fetchFailed(why))
    }

    /// The connection went: nothing more comes on it (the engine starts a new sync on reconnect).
    public mutating func disconnected() {
        guard outcome == nil else { return }
        negotiating = false
        negentropy = nil
        queue = []
        fetching = [:]
        outcome = .interrupted
    }

    private mutating func fetchMore() -> [Action] {
        var actions = [Action]()
        // Fetches start once the ids are all known: a relay answers oldest ranges first, and the newest
        // history is what a user looks at first (as the pages do). The rounds cost a round trip each.
        while !negotiating, fetching.count < Self.fetchesInFlight, !queue.isEmpty {
            let ids = queue.suffix(batchSize).map(\.id)
            queue.removeLast(ids.count)
            fetching[nextBatch] = Set(ids)
            actions.append(.fetch(batch: nextBatch, ids: ids.map(\.hex)))
            nextBatch += 1
        }
        if !negotiating, fetching.isEmpty, queue.isEmpty {
            if undeliveredCount > 0 { return actions + fallBack(.undelivered(missing: undeliveredCount, offered: offered.count)) }
            outcome = .finished
            actions.append(.finished)
        }
        return actions
    }

    private mutating func fallBack(_ why: FallBack) -> [Action] {
        negotiating = false
        negentropy = nil
        queue = []
        fetching = [:]
        outcome = .fellBack(why)
        return [.close, .fallBack(why)]
    }
}
