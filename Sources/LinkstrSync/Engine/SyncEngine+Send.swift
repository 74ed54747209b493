import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

/// Sending: the user's actions sealed and published as one batch, applied locally once accepted; plain
/// and best-effort publishes (delivery to the members' own relays: `+Delivery`; our lists: `+OwnLists`).
extension SyncEngine {
    /// How long a publish waits for the relays' OKs.
    public static let publishTimeout: Duration = .seconds(8)

    public struct SentRumor: Sendable, Equatable {
        public let rumorID: String
        public let wrapIDs: [String]
    }

    /// One user action: wraps every rumor to each of its recipients (ourselves included), publishes all
    /// of them as one batch, and only after every wrap was accepted applies them locally. Returns then:
    /// delivery to the recipients' own inbox relays goes on beside it (`inboxDelivery` on `updates`).
    public func send(_ rumors: [OutboundRumor]) async throws -> [SentRumor] {
        if let error = await pool.untilWritable() { throw error }
        // What waited goes first: a post never reaches a relay before the queued action it follows.
        if read("the send queue", { try store.sendQueue() })?.contains(where: { $0.state == .queued }) == true { await drainSendQueue() }
        let now = clock()
        let batch = try OutboxBatch.seal(rumors, identity: identity, now: now, random: random, cache: keyCache)
        outbox.published(batch.wraps)
        let receipt: PublishReceipt
        switch await pool.publish(batch.wraps, Self.publishTimeout, false) {
        case .failure(let error): throw error
        case .success(let r): receipt = r
        }
        log.info("sent", metadata: ["rumors": "\(rumors.count)", "wraps": "\(batch.wraps.count)"])
        // Our self-copies will come back from the relays: mark them processed so they are never opened.
        // The caller's use case answers for it: no `ingested` update here, so one action has one answer.
        // Only the self-copies are in a relay's answer to our filter (NIP-77's local set).
        let wraps = batch.wraps.map { w in
            ProcessedWrap(id: w.id.hex, createdAt: isAddressedToUs(w) ? w.createdAt : nil)
        }
        _ = try store.ingest(batch.localMessages, wraps: wraps, now: now)
        try store.markSent(batch.startedPosts)
        scheduleProfileRefresh()  // a new session or member list may name people we have not asked about
        startInboxDelivery(batch, receipt: receipt)
        return batch.sent
    }

    /// Signs and publishes a plain event (kind 0, 3, 5, 62, 10050) with send gating. `everyRelay`, for our
    /// replaceable lists (kinds 10002, 10050, 10006): sent to every writable relay and waited for from each
    /// (bounded), so a command that ends right after does not drop the copies for the slower relays (they
    /// would keep the older list: "published" is remembered once any relay took it); accepted by one relay
    /// is enough, refused by all throws.
    public func publish(_ template: UnsignedEventTemplate, everyRelay: Bool = false) async throws -> NostrEvent {
        if let error = await pool.untilWritable() { throw error }
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event], Self.publishTimeout, everyRelay) {
        case .failure(let error): throw error
        case .success(let receipt):
            // Waiting for every relay succeeds with what each said: none may have taken it.
            if everyRelay, receipt.acceptedBy[event.id]?.isEmpty != false {
                throw PublishError.rejected(receipt.refusedBy.sorted { $0.key < $1.key }.first.map { "\($0.key): \($0.value)" } ?? "no relay took it")
            }
            return event
        }
    }

    /// A best-effort step (a NIP-09 deletion request): signed and sent to every connected writable relay,
    /// waiting for each answer (bounded), never throwing. Returns what each relay that did not accept said.
    public func publishBestEffort(_ template: UnsignedEventTemplate, timeout: Duration = .seconds(8)) async -> BestEffortReport {
        let event = template.event(author: identity.publicKey).signed(with: identity, random: random)
        switch await pool.publish([event], timeout, true) {
        case .failure(let error): return BestEffortReport(refusedBy: [:], unsent: error.description)
        case .success(let receipt): return BestEffortReport(refusedBy: receipt.refusedBy, unsent: nil)
        }
    }
}
