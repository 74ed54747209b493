import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization

/// One open account, owned in one place: its key, store, relay pool and sync engine, link previews, post
/// search, relay list and background tasks (the shape of gomuks' `HiClient` and rust-nostr's `Client`).
/// A front end holds one; `close()` stops and drops all of it, so nothing of one account is left
/// running or in memory when the next one opens.
public final class AccountSession: Sendable {
    public let key: SecretKey
    /// The store, pool and engine are the account's own: front ends read through `reads` and act
    /// through the use cases and the methods of `AccountSession+Door`, so no rule is gone round.
    let store: AccountStore
    let sync: AccountSync
    public let previews: LinkPreviewCache
    /// Links' thumbnails, sealed in the account's media cache (nil for a store in memory).
    public let thumbnails: Thumbnails?
    /// Media saved for offline, into the same cache (nil for a store in memory).
    public let saver: MediaSaver?
    public let search: PostSearch
    public let tasks = AccountTasks()
    /// The listed sessions in memory: news pushes the rows it touched (`SessionTable`).
    public let sessions: SessionTable
    /// The account's clock, shared by its pool, engine, previews and sync runs.
    public let time: TimeSource
    private let relayList: Mutex<RelayList>
    private let closed = Mutex(false)
    /// The pool was given the relay list (`applyRelays`): a use case that needs the network finds it
    /// connected, and `finish` has work to wait for.
    private let connected = Mutex(false)

    public var me: Pubkey { key.publicKey.hex }
    var pool: RelayPool { sync.pool }
    var engine: SyncEngine { sync.engine }

    /// Opens `key`'s account in `local`: its store, its relays (`overrides`: `--relay`, for this run),
    /// a pool and engine that connect only when `sync.connect` gives them the relays.
    /// `mediaCacheBytes`: the media cache's limit (`media_cache_mb`). `holdsDataLock`: this process
    /// holds the data directory's lock (the app), so unfinished files of the media cache are its own
    /// leftovers and go.
    public init(_ key: SecretKey, in local: LocalStore, relayOverrides: [String], previewFetcher: LinkPreviewFetcher = .configured(),
                imageFetcher: ImageFetcher = .configured(), mediaCacheBytes: Int64 = Thumbnails.defaultCacheBytes, indexers: [String] = [],
                holdsDataLock: Bool = false, queueHoldAfterDays: Int = SendQueuePolicy.defaultHoldAfterDays, time: TimeSource = .live) throws {
        self.key = key
        self.time = time
        let now = time.wallSeconds()
        store = try local.account(key, now: now)
        relayList = Mutex(try RelayList(store: store, overrides: relayOverrides, now: now))
        sync = AccountSync(key, store: store, time: time, indexers: indexers, queueHoldAfterDays: queueHoldAfterDays)
        // A relay we blocked is not contacted for a page or a picture either.
        let refuses = BlockedHosts(store: store).refuses
        var previewFetcher = previewFetcher, imageFetcher = imageFetcher
        previewFetcher.refusesHost = refuses
        imageFetcher.refusesHost = refuses
        previews = LinkPreviewCache(store: store, fetcher: previewFetcher, clock: time.wallSeconds)
        let media = local.mediaCache(for: store, limitBytes: mediaCacheBytes, removingLeftovers: holdsDataLock)
        thumbnails = media.map { [store] in Thumbnails(store: store, media: $0, fetcher: imageFetcher, clock: time.wallSeconds) }
        saver = media.map { MediaSaver(media: $0, fetcher: imageFetcher) }
        search = PostSearch(store: store)
        sessions = SessionTable(store: store, me: key.publicKey.hex)
    }

    /// The relay list as it stands.
    public var relays: RelayList { relayList.withLock { $0 } }

    /// Edits the relay list (saved by `RelayList` itself); the pool takes it with `applyRelays`.
    public func editRelays<T>(_ edit: (inout RelayList) throws -> T) rethrows -> T {
        try relayList.withLock { try edit(&$0) }
    }

    /// The pool takes the relay list as it stands now.
    public func applyRelays() async {
        connected.withLock { $0 = true }
        await sync.connect(relays)
    }

    /// The engine, its pool given the relay list first if nothing did yet (a CLI command's first use
    /// case that needs the network connects it; the app connects at its start).
    func connectedEngine() async -> SyncEngine {
        if !connected.withLock({ $0 }) { await applyRelays() }
        return sync.engine
    }

    /// The account's use cases.
    public func actions(requests: SessionRequestPolicy) -> AccountActions {
        AccountActions(store: store, me: me, requests: requests, engine: { [self] in await connectedEngine() })
    }

    /// What a command leaves going out is given its chance before the account closes: preference records
    /// saved by it, and a post's deliveries to its recipients' inbox relays (each within its deadline).
    /// Nothing when the network was never used. Then `close()`.
    public func finish() async {
        if connected.withLock({ $0 }), !isClosed {
            await engine.publishPendingPreferences()
            await engine.finishDeliveries()
        }
        await close()
    }

    public var isClosed: Bool { closed.withLock { $0 } }

    /// Cancels the account's tasks (their late answers are dropped), stops the engine (closing its
    /// sockets, storing what it buffered) and drops the search index. Idempotent.
    public func close() async {
        guard closed.withLock({ c in defer { c = true }; return !c }) else { return }
        tasks.cancelAll()
        // Saves under way end here: their yt-dlp is killed and what they wrote goes.
        saver?.close()
        search.close()
        await sync.engine.stop()
        // The AEAD contexts kept per thread hold the last key they were given (this account's data key):
        // freed with the account, so nothing of its keys stays in memory once it is closed.
        CryptoCaches.forgetKeys()
    }
}
