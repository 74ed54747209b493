import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// An account's relay pool and sync engine, made one way for the terminal app and the CLI: the pool
/// answers NIP-42 challenges with the account's key, the engine syncs the account's store through it.
/// Nothing connects until `connect` gives the pool its relays; subscriptions start with `engine.start()`.
public struct AccountSync: Sendable {
    public let pool: RelayPool
    public let engine: SyncEngine

    public init(_ key: SecretKey, store: AccountStore, time: TimeSource = .live) {
        var configuration = RelayPool.Configuration()
        configuration.time = time
        pool = RelayPool(configuration: configuration, authSigner: SyncEngine.authSigner(for: key, time: time))
        engine = SyncEngine(identity: key, store: store, pool: pool, time: time)
    }

    /// Connects to the enabled relays of `relays` (and leaves the others).
    public func connect(_ relays: RelayList) async { await pool.setRelays(relays.poolEntries) }
}
