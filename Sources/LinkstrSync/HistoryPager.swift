import LinkstrDomain

/// One relay's history chain (wire 2026 §6) as a pure state machine: the engine feeds it what the
/// relay sent and how each page ended; it answers with the page to request next, the page to close,
/// or how the chain settled. No clock, no socket: the page deadline is the engine's timer, reported
/// here as `.timedOut`.
///
/// The rules, as the iOS app pages:
/// - first page: no `until`, limit 500; every later page's `until` is **inclusive** (NIP-01);
/// - a page is accounted by its distinct event ids; an event outside the filter (`created_at` after
///   `until` or negative) or more than 4 000 events make the response invalid;
/// - no events ⇒ finished. Oldest == `until` (the whole page on one second): a full page asks the same
///   second again with the limit doubled (at most 4 000), a short one moves on to `oldest − 1`.
///   Otherwise the next `until` is the oldest second, limit 500 (here: growing, below). Short pages do
///   not end the chain; only an empty one does;
/// - a disconnect, the 15 s deadline (here: 15 s without an event) or an invalid response leave the history incomplete: the cursor
///   does not advance, and the chain starts again from scratch on reconnect (`start`).
///
/// Beyond iOS: a page refused with `CLOSED` (`rate-limited:` is common on public relays, but any
/// reason: `error:`, `restricted:`, `blocked:`, `invalid:` or none) is asked again, the same page,
/// after 1, 2 and 4 seconds (`closedRetryDelays`); only when the last try is refused too does the
/// chain settle as incomplete, so a refusal is never taken for the end of history. (`auth-required:`
/// never reaches here: the pool answers the challenge and sends the REQ again.)
///
/// Beyond iOS: a second holding more events than the relay will send (more than 4 000, or more than
/// a relay that clamps `limit` silently returns: rust-nostr's relay sends at most 500) cannot be read
/// with NIP-01. iOS stops there; here the chain goes on to the older seconds and settles as incomplete
/// (`.crowdedSecond`) at its end, so the rest of the history is still read and the user is told. A
/// silent clamp below the page limit is learned from the answers (a short page followed by older
/// events), so a boundary second as full as the clamp counts as crowded: a second holding exactly that
/// many cannot be told from a fuller one, and is reported as possibly incomplete rather than trusted.
///
/// Beyond iOS: pages grow. After a full page the next asks twice as many, up to 4 000 (or what the relay
/// says it allows, or the clamp learned): a relay answers every page with a query over everything it
/// holds for the filter (nostr-relay reads all of a key's tagged events to serve one page), so 20 000
/// wraps cost it 11 pages instead of 44. The first page stays at 500 so the first screen comes as soon.
///
/// Also beyond iOS: some relays (nostr-relay) read `until` as exclusive. A page asked `until: U` after a
/// page whose oldest second was U must bring events of second U from an inclusive relay; when none
/// come, the relay is exclusive, the same page is asked again with `U + 1`, and every later `until`
/// is sent one higher. The chain means the same on both kinds of relay.
public struct HistoryPager: Sendable, Equatable {
    /// The page sizes of a chain: gift wraps and preferences (wire 2026 §6: 500, doubling to 4 000 on a crowded
    /// second) or the follow lists naming us (wire 2026 §7.2: 200, doubling to 1 600).
    public struct Limits: Sendable, Equatable {
        public let first: Int
        /// The largest page: regular pages grow to it, a crowded second's page doubles to it.
        public let max: Int
        public init(first: Int, max: Int) {
            self.first = first
            self.max = max
        }
        public static let history = Limits(first: 500, max: 4_000)
        public static let followLists = Limits(first: 200, max: 1_600)
    }
    /// How long to wait before asking a refused page again; one refusal more than there are waits
    /// settles the chain as incomplete.
    public static let closedRetryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]
    public static let firstLimit = Limits.history.first
    public static let maxLimit = Limits.history.max

    public struct Page: Sendable, Equatable {
        public let number: Int
        /// The inclusive bound this page means (nil: the newest events).
        public let until: Int64?
        public let limit: Int
        /// What goes on the wire: `until`, plus one on a relay that reads it as exclusive.
        public let wireUntil: Int64?
    }

    public enum PageEnd: Sendable, Equatable { case eose, closed(String), timedOut, disconnected }

    public enum Incomplete: Sendable, Equatable {
        case closed(String), timedOut, disconnected, invalidResponse
        /// More than 4 000 events in one second: NIP-01 cannot page inside a second.
        case crowdedSecond
    }

    public enum Outcome: Sendable, Equatable { case finished, incomplete(Incomplete) }

    public enum Action: Sendable, Equatable {
        /// Subscribe with this page's filter and start its deadline.
        case request(Page)
        /// The same, after `after`: the relay refused the page (`because`, its CLOSED reason). The page
        /// is running (the history is not settled) while it waits.
        case requestLater(Page, after: Duration, because: String)
        /// Unsubscribe the page and stop its deadline.
        case close(Page)
        case settled(Outcome)
    }

    public private(set) var page: Page?
    public private(set) var outcome: Outcome?
    /// Learned from the relay's answers; kept across restarts.
    public private(set) var untilIsExclusive = false
    private let firstLimit: Int
    private let maxLimit: Int
    /// What regular pages grow to: `maxLimit`, or less when the relay says so (NIP-11).
    private let growthLimit: Int
    /// The limit of the next regular page: `firstLimit`, doubled after every full page.
    private var regularLimit: Int
    private var pageCount = 0
    private var ids = Set<String>()
    private var oldest: Int64?
    private var invalid = false
    /// The second the previous page ended on, which an inclusive relay must send again.
    private var boundaryOfPrevious: Int64?
    private var sawBoundary = false
    /// A crowded second was left partly unread.
    private var skippedCrowdedSecond = false
    /// Events the previous page brought when it ended full on its boundary second (0 otherwise).
    private var fullBoundaryCount = 0
    /// How many events the relay really sends per request, learned when a short page was followed by
    /// older events (it clamped `limit` without saying so); kept across restarts.
    public private(set) var learnedClamp: Int?
    /// Events the running chain's pages brought, repeats included (a page's deadline runs from the last).
    public private(set) var eventsReceived = 0
    /// The previous page: its count when it was short, and its oldest second.
    private var previousShort: Int?
    private var previousOldest: Int64?
    /// The previous page was short, all on its boundary second, and the chain moved on past that second:
    /// an honest relay would have filled the page with older events.
    private var previousShortOnItsBoundary = false
    /// Refusals of the running page in a row (reset by a page that ends with EOSE).
    private var closedInARow = 0

    /// `relayLimit`: what the relay says it allows per request (NIP-11): the first page and the growth
    /// stay within it.
    public init(relayLimit: Int? = nil, limits: Limits = .history) {
        firstLimit = max(1, min(limits.first, relayLimit ?? limits.first))
        maxLimit = limits.max
        growthLimit = max(firstLimit, min(limits.max, relayLimit ?? limits.max))
        regularLimit = firstLimit
    }

    public var isRunning: Bool { page != nil }

    /// (Re)starts the chain from the newest events, closing a page still open.
    public mutating func start() -> [Action] {
        var actions = [Action]()
        if let page { actions.append(.close(page)) }
        outcome = nil
        boundaryOfPrevious = nil
        previousShort = nil
        previousOldest = nil
        skippedCrowdedSecond = false
        fullBoundaryCount = 0
        previousShortOnItsBoundary = false
        closedInARow = 0
        regularLimit = firstLimit
        actions.append(request(until: nil, limit: firstLimit))
        return actions
    }

    /// One event the relay sent on the running page (`number`); events of an older page are ignored.
    /// `matchesFilter`: kind 1059 addressed to us (the engine checks the tags).
    public mutating func received(id: String, createdAt: Int64, matchesFilter: Bool, page number: Int) {
        guard let page, page.number == number else { return }
        eventsReceived &+= 1
        if untilIsExclusive, let wire = page.wireUntil, createdAt == wire {
            // The relay reads `until` as inclusive after all (the boundary events were gone when it
            // was judged): back to inclusive; this event is a second already read.
            untilIsExclusive = false
            return
        }
        if !matchesFilter || createdAt < 0 || page.until.map({ createdAt > $0 }) == true { invalid = true }
        guard ids.insert(id).inserted else { return }
        if ids.count > maxLimit { invalid = true }
        oldest = min(oldest ?? createdAt, createdAt)
        if createdAt == boundaryOfPrevious { sawBoundary = true }
    }

    /// The running page (`number`) ended.
    public mutating func ended(_ end: PageEnd, page number: Int) -> [Action] {
        guard let page, page.number == number else { return [] }
        var actions: [Action] = [.close(page)]
        self.page = nil
        switch end {
        case .closed(let reason):
            guard closedInARow < Self.closedRetryDelays.count else { return actions + settle(.incomplete(.closed(reason))) }
            let wait = Self.closedRetryDelays[closedInARow]
            closedInARow += 1
            // The same page again: its bounds, and the boundary second it must bring.
            guard case .request(let again) = request(until: page.until, limit: page.limit, boundary: boundaryOfPrevious) else { return actions }
            return actions + [.requestLater(again, after: wait, because: reason)]
        case .timedOut: return actions + settle(.incomplete(.timedOut))
        case .disconnected: return actions + settle(.incomplete(.disconnected))
        case .eose: closedInARow = 0
        }
        if invalid { return actions + settle(.incomplete(.invalidResponse)) }
        // Events of the previous page's last second should be here again: none means the relay reads
        // `until` as exclusive. Ask this page again, one second higher on the wire.
        if let boundary = boundaryOfPrevious, !sawBoundary, !untilIsExclusive, page.until == boundary {
            untilIsExclusive = true
            actions.append(request(until: page.until, limit: page.limit, boundary: boundary))
            return actions
        }
        guard let oldest, !ids.isEmpty else { return actions + settle(endOfChain) }
        let count = ids.count
        // Older events after a short page: that page was cut by the relay, not by the end of history. When
        // it was all one second (a grown page cut below its limit by a silent clamp looks short), the rest
        // of that second was not read (with pages of a fixed size this showed as a full page).
        if let short = previousShort, let before = previousOldest, oldest < before {
            learnedClamp = max(learnedClamp ?? 0, short)
            if previousShortOnItsBoundary { skippedCrowdedSecond = true }
        }
        previousShortOnItsBoundary = false
        previousShort = count < page.limit ? count : nil
        previousOldest = oldest
        let full = count >= min(page.limit, learnedClamp ?? .max)
        let previousFull = fullBoundaryCount
        fullBoundaryCount = 0
        if oldest == page.until {
            if full && page.limit < maxLimit {
                fullBoundaryCount = count
                actions.append(request(until: oldest, limit: min(page.limit * 2, maxLimit), boundary: oldest))
                return actions
            }
            // Full at 4 000, or a doubled limit that brought no more than before (the relay clamps):
            // the rest of this second cannot be read. Move on and say so at the end.
            if full || (previousFull > 0 && count <= previousFull) { skippedCrowdedSecond = true }
            previousShortOnItsBoundary = count < page.limit
            guard oldest > 0 else { return actions + settle(endOfChain) }
            actions.append(request(until: oldest - 1, limit: regularLimit))
        } else {
            // A learned clamp caps the growth (asking more brings no more), never below the first limit.
            if full && page.limit >= regularLimit { regularLimit = min(regularLimit * 2, growthLimit, max(firstLimit, learnedClamp ?? .max)) }
            actions.append(request(until: oldest, limit: regularLimit, boundary: oldest))
        }
        return actions
    }

    /// `boundary`: a second known to hold events that this page must bring again.
    private mutating func request(until: Int64?, limit: Int, boundary: Int64? = nil) -> Action {
        let wire = until.map { untilIsExclusive ? $0 + 1 : $0 }
        let next = Page(number: pageCount, until: until, limit: limit, wireUntil: wire)
        pageCount += 1
        boundaryOfPrevious = boundary
        sawBoundary = false
        ids.removeAll(keepingCapacity: true)
        oldest = nil
        invalid = false
        page = next
        return .request(next)
    }

    private var endOfChain: Outcome { skippedCrowdedSecond ? .incomplete(.crowdedSecond) : .finished }

    private mutating func settle(_ result: Outcome) -> [Action] {
        outcome = result
        return [.settled(result)]
    }
}

extension HistoryPager.Outcome {
    /// How a relay's history ended, in words (the relay row, `sync --json`'s `history`, errors).
    public var words: String {
        switch self {
        case .finished: return "finished"
        case .incomplete(let why):
            switch why {
            case .closed(let reason): return "incomplete: refused by the relay (\(DisplayText.singleLine(reason).prefix(120)))"
            case .timedOut: return "incomplete: a page got no answer in time"
            case .disconnected: return "incomplete: disconnected"
            case .invalidResponse: return "incomplete: the relay sent events outside the request"
            case .crowdedSecond: return "incomplete: more events in one second than the relay will send"
            }
        }
    }
}
