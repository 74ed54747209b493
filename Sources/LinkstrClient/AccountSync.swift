import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// An account's relay pool and sync engine, made one way for the terminal app and the CLI: the pool
/// answers NIP-42 challenges with the account's key, the engine syncs the account's store through it.
/// Nothing connects until `connect` gives the pool its relays; subscriptions start with `engine.start()`.
private let relayLog = LinkstrLogging.logger("relays")

public struct AccountSync: Sendable {
    public let pool: RelayPool
    public let engine: SyncEngine
    let store: AccountStore

    /// `indexers`: where people's relay lists are looked up beyond our relays (`indexer_relays`).
    public init(_ key: SecretKey, store: AccountStore, time: TimeSource = .live, indexers: [String] = [],
                queueHoldAfterDays: Int = SendQueuePolicy.defaultHoldAfterDays) {
        var configuration = RelayPool.Configuration()
        configuration.time = time
        pool = RelayPool(configuration: configuration, authSigner: SyncEngine.authSigner(for: key, time: time))
        engine = SyncEngine(identity: key, store: store, pool: pool, time: time, indexers: indexers, queueHoldAfterDays: queueHoldAfterDays)
        self.store = store
    }

    /// Connects to the enabled relays of `relays` and our chosen inbox relays (and leaves the others);
    /// a relay we blocked is never dialled, even one still in the list (another client blocked it).
    public func connect(_ relays: RelayList) async {
        var blocked = Set<String>(), inbox = [String]()
        do {
            blocked = try store.blockedRelays()
            inbox = try store.chosenInboxRelays() ?? []
        } catch {
            relayLog.error("the blocked and inbox relays could not be read: \(error)")
        }
        var entries = relays.poolEntries
        // `--relay` means exactly these relays: our inbox relays are dialled only with our own list.
        if !relays.overridden {
            for relay in inbox where !entries.contains(where: { $0.url == relay }) { entries.append((relay, true)) }
        }
        await engine.setRelaysOverridden(relays.overridden)
        await pool.setRelays(entries.filter { !blocked.contains($0.url) })
    }
}
