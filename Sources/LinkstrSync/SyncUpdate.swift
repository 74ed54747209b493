import LinkstrDomain
import LinkstrRelay

/// What the sync engine tells its owner (the CLI or the app runtime).
public enum SyncUpdate: Sendable {
    case ingested(touchedSessions: Set<String>, notifications: [InboundNotification])
    case contactsChanged
    /// Someone's profile name (kind 0) arrived or changed: reload `AccountStore.profileNames()`.
    case profilesChanged
    case relay(RelaySnapshot)
    /// A relay's words (NOTICE, a refused history page): for the log and `sync`, not the status line.
    case notice(relay: String, String)
    /// The store refused a read or write the engine needed: what, and the store's words.
    case storeFailed(StoreFailure)
    /// Incoming messages that had waited for room in the store (`storeFailed(.incoming)`) are stored now.
    case storedAfterWaiting(Int)
    /// Private preferences saved here could not go out (no relay took them); kept, tried again on reconnect.
    case preferencesUnsynced
    /// Every relay that connected has been backfilled (late relays get their own later).
    case backfillComplete
    /// The store was empty at start: what arrives until `backfillComplete` is the history being restored
    /// (said first, so a consumer knows every batch before that one is old news).
    case restoringHistory
    /// While "added you" is watched: who follows us now, after a follow list arrived live.
    case addedYouChanged([Pubkey])
    /// A relay's history is not (yet) read to its end: why, in words; nil once it is.
    case historyChanged(relay: String, note: String?)
    /// A post's best-effort delivery to its recipients' own inbox relays ended (after `send` returned).
    case inboxDelivery([InboxDelivery.Report])
    /// What became of each member's copy of these rumors is recorded (`AccountStore.deliveries`).
    case deliveriesRecorded([String])
    /// A newer list of ours (blocked relays) came from a relay: another client edited it.
    case ownListsChanged
    /// The send queue changed (an item queued, sent, failed, or being sent): what the front ends show.
    case sendQueue(SendQueueNews)
    /// A queued delete went, and its best-effort NIP-09 request was answered: what relays kept, a line
    /// each (only when some relay kept something).
    case deletionAnswered(action: QueuedAction, sessionID: String, postID: String?, lines: [String])
    /// Someone deleted their posts (a `root_delete` applied, not while history is restored): after the
    /// `ingested` of their batch (`sync --follow --json`'s `post_deleted` lines).
    case postsDeleted([DeletedPost])
}

/// A post its author deleted for everyone.
public struct DeletedPost: Equatable, Sendable {
    public let postID: String
    public let sessionID: String
    public let author: Pubkey
    public init(postID: String, sessionID: String, author: Pubkey) { self.postID = postID; self.sessionID = sessionID; self.author = author }
}

/// Counters of one engine's life (`sync --json` prints them).
public struct SyncStats: Sendable, Equatable {
    public var wrapsReceived = 0
    /// Skipped before decrypting: already processed (persisted) or already in flight.
    public var wrapsAlreadyProcessed = 0
    /// Unwrap attempts: every one costs an ECDH, one that opens also the seal's signature check.
    public var decryptions = 0
    public var invalidWraps = 0
    public var notLinkstr = 0
    public var rejectedPayloads = 0
    public var applied = 0
    public var duplicates = 0
    public var pending = 0
    public var ignored = 0
    public var backfillPages = 0
    /// Gift wraps delivered to recipients' own inbox relays (outside our pool), and those that were not.
    public var inboxDelivered = 0
    public var inboxUndelivered = 0
    /// Connections opened to relays outside our pool for delivery.
    public var extraConnections = 0
    /// Stage figures for the benchmark: the first and last wrap received (seconds on the continuous
    /// clock), and the time spent unwrapping (all cores at once) and storing.
    public var firstReceived: Double?
    public var lastReceived: Double?
    public var unwrapSeconds = 0.0
    /// The writer's own time on batches (not their wait behind an earlier one), its thread's CPU time in
    /// them (less than the busy time when it waited for a core), and how many transactions they were.
    public var storeSeconds = 0.0
    public var storeCPUSeconds = 0.0
    public var storeBatches = 0
    /// Batches that could not be stored (a full disk, an I/O error), and the last such error in words:
    /// their wraps are read again on the next sync, and a run with any is not complete.
    public var storeFailures = 0
    public var lastStoreError: String?
    /// NIP-77: relays whose gift-wrap history was reconciled, the rounds and hex bytes exchanged (both ways), the
    /// ids we lacked, and relays that fell back to paging.
    public var reconciledRelays = 0
    public var reconcileRounds = 0
    public var reconcileBytes = 0
    public var reconcileNeeded = 0
    public var reconcileFallbacks = 0
    /// The same for the private preferences' history (kind 30078), reconciled beside the gift wraps:
    /// relays, hex bytes both ways, ids we lacked, fallbacks to paging.
    public var preferencesReconciled = 0
    public var preferencesReconcileBytes = 0
    public var preferencesReconcileNeeded = 0
    public var preferencesReconcileFallbacks = 0
    /// The same for the profiles and relay lists of the people we know, counted per part
    /// (`authorsPerFilter` people) and relay.
    public var profilesReconciled = 0
    public var profilesReconcileBytes = 0
    public var profilesReconcileNeeded = 0
    public var profilesReconcileFallbacks = 0
    /// Why NIP-77 was last given up for paging, in words (nil when it never was).
    public var lastReconcileFallback: String?
    public init() {}
}
