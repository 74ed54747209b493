import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

/// The drain's state: one pass at a time, a kick during a pass asks for another, one timer for the
/// next item whose wait ends.
struct SendQueueState {
    var pass: Task<Void, Never>?
    var again = false
    var wake: Task<Void, Never>?
    var sending: Int64?
    var holdAfterDays = SendQueuePolicy.defaultHoldAfterDays
    /// Accepted since the last news, and failed for good (their reasons).
    var sentThatWaited = 0
    var newlyFailed = [String]()
    var sentItems = [SendQueueNews.SentItem]()
    /// Over this engine's life (`sync --json`).
    var sent = 0
    var failed = 0
    /// The last news given: a pass that changed nothing says nothing.
    var lastNews: SendQueueNews?
    /// What each item is (sealed in the store: read once per item, for the news).
    var actions = [Int64: QueuedAction]()
}

/// The sealed send queue: the user's action is applied here and queued in one transaction
/// (`enqueue`), and returns at once; a pass publishes what is due, oldest first and in order per session
/// (`SendQueuePolicy.due`), with the events built at queueing (a retry sends the same ids). Accepted: the
/// item leaves the queue, inbox delivery starts as for a direct send, follow-ups (a NIP-09 request) go
/// best effort. Refused for good (`invalid:`…): failed, with the reason. Anything else: tried again after
/// the backoff. Passes start at a kick (a send, a relay connecting, a timer, `drainSendQueue`).
extension SyncEngine {
    /// `config.toml`'s `queue_hold_after_days` (0: never hold).
    public func setQueueHold(days: Int) { sendQueue.holdAfterDays = max(0, days) }

    /// Applies the action here and queues its events; the answer comes at once. `followUps`: best-effort
    /// events signed now and sent once the action was accepted. `drain`: start a pass now (the CLI's
    /// `--queue` leaves the item to the next command that connects).
    public func enqueue(_ rumors: [OutboundRumor], action: QueuedAction, sessionID: String, postID: String? = nil,
                        followUps: [UnsignedEventTemplate] = [], drain: Bool = true) throws -> (sent: [SentRumor], item: Int64) {
        let now = clock()
        let batch = try OutboxBatch.seal(rumors, identity: identity, now: now, random: random, cache: keyCache)
        let wraps = batch.wraps.map { w in ProcessedWrap(id: w.id.hex, createdAt: isAddressedToUs(w) ? w.createdAt : nil) }
        let send = QueuedSend(action: action, sessionID: sessionID, postID: postID ?? batch.startedPosts.first, events: batch.wraps,
                              rumors: batch.sent.map { QueuedSend.Rumor(rumorID: $0.rumorID, wrapIDs: $0.wrapIDs) },
                              startedPosts: batch.startedPosts,
                              followUps: followUps.map { $0.event(author: identity.publicKey).signed(with: identity, random: random) })
        let item = try store.enqueueSend(send, messages: batch.localMessages, wraps: wraps, now: now)
        sendQueue.actions[item] = action
        log.info("queued", metadata: ["item": "\(item)", "wraps": "\(batch.wraps.count)"])
        // Said at once (the marks, the counts); the pass may wait for a relay a while.
        announceSendQueue()
        if drain {
            scheduleProfileRefresh()
            kickSendQueue()
        }
        return (batch.sent, item)
    }

    /// Queues an edit of our follow list (`contactAdd` with its alias, or `contactRemove`): it is made
    /// when it goes, on the newest list a relay holds (`editContacts`), never on a list built offline.
    public func enqueueContactEdit(_ action: QueuedAction, pubkey: Pubkey, alias: String?, drain: Bool = true) throws -> Int64 {
        precondition(action == .contactAdd || action == .contactRemove, "a contact edit")
        let send = QueuedSend(action: action, sessionID: SendQueuePolicy.contactsChain(pubkey), postID: nil, events: [], rumors: [], startedPosts: [],
                              contact: QueuedSend.ContactEdit(pubkey: pubkey, alias: alias))
        let item = try store.enqueueSend(send, messages: [], wraps: [], now: clock())
        sendQueue.actions[item] = action
        announceSendQueue()
        if drain { kickSendQueue() }
        return item
    }

    /// Starts a pass (or asks the running one for another).
    public func kickSendQueue() {
        if sendQueue.pass != nil { sendQueue.again = true; return }
        sendQueue.pass = tasks.start { [weak self] in await self?.runPasses() }
    }

    /// Runs passes until one ends with nothing more due now; returns when the queue is drained as far as
    /// the relays allow (the CLI's `sync` and a direct send wait for it).
    public func drainSendQueue() async {
        kickSendQueue()
        await sendQueue.pass?.value
    }

    private func runPasses() async {
        repeat {
            sendQueue.again = false
            await pass()
        } while sendQueue.again && !Task.isCancelled
        sendQueue.pass = nil
        announceSendQueue()
    }

    private func pass() async {
        guard let items = read("the send queue", { try store.sendQueue() }) else { return }
        if !items.isEmpty { announceSendQueue() }
        let now = clock(), hold = sendQueue.holdAfterDays
        scheduleWake(SendQueuePolicy.nextWake(items, now: now, holdAfterDays: hold), now: now)
        let chains = SendQueuePolicy.chains(items, now: now, holdAfterDays: hold)
        guard !chains.isEmpty, !Task.isCancelled else { return }
        if let error = await pool.untilWritable() {
            log.info("send queue waits", metadata: ["chains": "\(chains.count)", "why": "\(error)"])
            return
        }
        let long = items.count > 50
        for chain in chains {
            var rest = chain[...]
            while let first = rest.first, !Task.isCancelled {
                // Several in one batch (pipelined, in order on each connection); one that is refused
                // makes its batch go item by item, so the refusal is the right item's.
                let batch = Array(rest.prefix(Self.queueBatch))
                if batch.count > 1, await publishQueued(batch, announce: !long) {
                    rest = rest.dropFirst(batch.count)
                    continue
                }
                switch await publishQueued(first, announce: !long) {
                case .went: rest = rest.dropFirst()
                case .refusedForNow: rest = []  // the rest of this session waits behind it
                case .networkAway: return
                }
            }
        }
        // Items that failed for now were given a later try: the timer follows them. (A send during the
        // pass asked for another pass itself: `kickSendQueue`.)
        if let left = read("the send queue", { try store.sendQueue() }) {
            scheduleWake(SendQueuePolicy.nextWake(left, now: clock(), holdAfterDays: hold), now: clock())
        }
    }

    /// Items published together at most (pipelined on each connection, in order).
    static let queueBatch = 25

    /// A batch of one session's items in one publish: true when every event was accepted (each item is
    /// then sent); false changes nothing (the caller goes item by item).
    private func publishQueued(_ items: [SendQueuePolicy.Item], announce: Bool) async -> Bool {
        var sends = [(SendQueuePolicy.Item, QueuedSend)]()
        for item in items {
            guard let found = read("a queued send", { try store.queuedSend(item.id) }), let send = found else { return false }
            sends.append((item, send))
        }
        // A follow-list edit is made when it goes, alone.
        guard !sends.contains(where: { $0.1.contact != nil }) else { return false }
        let events = sends.flatMap(\.1.events)
        outbox.published(events)
        sendQueue.sending = items.first?.id
        if announce { announceSendQueue() }
        defer { sendQueue.sending = nil }
        guard case .success(let receipt) = await pool.publish(events, Self.publishTimeout, false) else { return false }
        for (item, send) in sends { delivered(item, send, receipt) }
        return true
    }

    enum QueuedOutcome { case went, refusedForNow, networkAway }

    /// One item: `went` when the relays answered it (accepted, or refused for good: failed, with the
    /// reason); `refusedForNow` when every relay refused it for a reason that may pass (its session waits
    /// behind it); `networkAway` when the network stopped it (the pass ends; a relay connecting kicks the
    /// next).
    private func publishQueued(_ item: SendQueuePolicy.Item, announce: Bool) async -> QueuedOutcome {
        guard let found = read("a queued send", { try store.queuedSend(item.id) }), let send = found else { return .went }
        sendQueue.sending = item.id
        outbox.published(send.events)
        if announce { announceSendQueue() }
        defer { sendQueue.sending = nil }
        if let edit = send.contact {
            switch await publishContactEdit(send.action, edit) {
            case .success:
                delivered(item, send, nil)
                updateSink.yield(.contactsChanged)
                return .went
            case .failure(.publish(let error)): return attemptFailed(item, error)
            case .failure(.listUnavailable):
                // No relay said which list is newest: the network, not the edit; tried again later.
                let next = clock() + SendQueuePolicy.delay(afterAttempts: item.attempts + 1)
                write("a send's attempt") { try store.queuedSendAttemptFailed(item.id, reason: FollowListRule.unavailable, failed: false, nextAt: next) }
                return .networkAway
            }
        }
        switch await pool.publish(send.events, Self.publishTimeout, false) {
        case .success(let receipt):
            delivered(item, send, receipt)
            return .went
        case .failure(let error): return attemptFailed(item, error)
        }
    }

    /// An attempt that did not go, classified: failed for good, refused for now, or the network.
    private func attemptFailed(_ item: SendQueuePolicy.Item, _ error: PublishError) -> QueuedOutcome {
        let words = error.description
        let permanent: Bool
        switch error {
        case .rejected(let why): permanent = SendQueuePolicy.isPermanent(why)
        case .tooLarge: permanent = true
        default: permanent = false
        }
        let next = clock() + SendQueuePolicy.delay(afterAttempts: item.attempts + 1)
        write("a send's attempt") { try store.queuedSendAttemptFailed(item.id, reason: words, failed: permanent, nextAt: next) }
        log.info("queued item not sent", metadata: ["item": "\(item.id)", "permanent": "\(permanent)"])
        if permanent {
            sendQueue.failed += 1
            sendQueue.newlyFailed.append(words)
            return .went
        }
        if case .rejected = error { return .refusedForNow }
        return .networkAway
    }

    enum ContactEditFailure: Error { case publish(PublishError), listUnavailable }

    /// The queued follow-list edit, made now on the newest list (and the alias with it, or cleared).
    private func publishContactEdit(_ action: QueuedAction, _ edit: QueuedSend.ContactEdit) async -> Result<Void, ContactEditFailure> {
        let pubkey = edit.pubkey
        do {
            try await editContacts { keys in
                action == .contactAdd ? (keys.contains(pubkey) ? keys : keys + [pubkey]) : keys.filter { $0 != pubkey }
            }
        } catch let error as PublishError {
            return .failure(.publish(error))
        } catch {
            return .failure(.listUnavailable)
        }
        let alias: String? = action == .contactAdd ? edit.alias : nil
        if action == .contactRemove || alias != nil {
            write("the contact's alias") { try savePreference(.alias(pubkey: pubkey, name: alias)) }
        }
        return .success(())
    }

    /// Accepted: the item leaves the queue; inbox delivery and the follow-ups start as for a direct send.
    private func delivered(_ item: SendQueuePolicy.Item, _ send: QueuedSend, _ receipt: PublishReceipt?) {
        write("the sent item") { try store.queuedSendDelivered(item.id) }
        sendQueue.actions[item.id] = nil
        sendQueue.sent += 1
        sendQueue.sentThatWaited += 1
        sendQueue.sentItems.append(SendQueueNews.SentItem(item: item.id, action: send.action, sessionID: item.isSession ? send.sessionID : nil,
                                                          postID: send.postID, at: clock()))
        log.debug("queued item sent", metadata: ["item": "\(item.id)", "attempts": "\(item.attempts + 1)"])
        if let receipt { startInboxDelivery(Self.batch(of: send, me: me), receipt: receipt) }
        guard !send.followUps.isEmpty else { return }
        // Best effort: never undoes the action; what relays kept is said once they answered.
        let pool = self.pool, events = send.followUps, sink = updateSink
        tasks.start {
            let report: BestEffortReport
            switch await pool.publish(events, .seconds(8), true) {
            case .failure(let error): report = BestEffortReport(refusedBy: [:], unsent: error.description)
            case .success(let receipt): report = BestEffortReport(refusedBy: receipt.refusedBy, unsent: nil)
            }
            let kept = send.action == .sessionDelete ? "copies of its posts' sealed envelopes" : "a copy of its sealed envelope"
            let lines = report.deletionLines(kept: kept)
            if !lines.isEmpty { sink.yield(.deletionAnswered(action: send.action, sessionID: send.sessionID, postID: send.postID, lines: lines)) }
        }
    }

    /// The batch a direct send would have had, for inbox delivery: each wrap to the member it names.
    static func batch(of send: QueuedSend, me: Pubkey) -> OutboxBatch {
        var byRecipient = [Pubkey: [NostrEvent]]()
        for event in send.events where event.kind == NIP59.giftWrapKind {
            if let p = event.tagValues("p").first, p != me { byRecipient[p, default: []].append(event) }
        }
        return OutboxBatch(wraps: send.events, sent: send.rumors.map { SentRumor(rumorID: $0.rumorID, wrapIDs: $0.wrapIDs) },
                           localMessages: [], startedPosts: send.startedPosts, wrapsByRecipient: byRecipient)
    }

    private func scheduleWake(_ at: Int64?, now: Int64) {
        sendQueue.wake?.cancel()
        sendQueue.wake = nil
        guard let at else { return }
        let sleep = self.sleep
        sendQueue.wake = tasks.start { [weak self] in
            await sleep(.seconds(max(1, at - now)))
            guard !Task.isCancelled else { return }
            await self?.kickSendQueue()
        }
    }

    /// The queue as it stands, to the front ends.
    func announceSendQueue() {
        guard let items = read("the send queue", { try store.sendQueue() }) else { return }
        let reasons = items.contains { $0.state == .failed } ? (read("the send failures", { try store.failedSendReasons() }) ?? [:]) : [:]
        for item in items where item.postID != nil && sendQueue.actions[item.id] == nil {
            if let send = read("a queued send", { try store.queuedSend(item.id) }) ?? nil { sendQueue.actions[item.id] = send.action }
        }
        let news = SendQueueNews.make(items, reasons: reasons, actions: sendQueue.actions, sending: sendQueue.sending, now: clock(),
                                      holdAfterDays: sendQueue.holdAfterDays, sent: sendQueue.sentThatWaited, newlyFailed: sendQueue.newlyFailed,
                                      sentItems: sendQueue.sentItems)
        sendQueue.sentThatWaited = 0
        sendQueue.newlyFailed = []
        sendQueue.sentItems = []
        guard news != sendQueue.lastNews || news.sent > 0 else { return }
        sendQueue.lastNews = news
        updateSink.yield(.sendQueue(news))
    }

    /// Takes an item out (never published), unless it is on the wire this moment.
    public func cancelQueued(_ id: Int64) throws -> QueuedSend {
        if sendQueue.sending == id { throw SendQueueError.inFlight(id) }
        let send = try store.cancelQueuedSend(id)
        sendQueue.actions[id] = nil
        announceSendQueue()
        return send
    }

    /// Tries one item (or all) again now; how many.
    public func retryQueued(_ id: Int64?) throws -> Int {
        let n = try store.retryQueuedSends(id)
        kickSendQueue()
        return n
    }

    /// What this engine's passes did: sent, failed for good.
    public var sendQueueTotals: (sent: Int, failed: Int) { (sendQueue.sent, sendQueue.failed) }

    func stopSendQueue() {
        sendQueue.pass?.cancel()
        sendQueue.wake?.cancel()
        sendQueue.wake = nil
    }
}
