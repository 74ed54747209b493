import LinkstrRelay
import NostrProtocol

/// What the sync engine needs of a relay pool, as a struct of closures: `live(pool)` for a `RelayPool`,
/// and in tests a fake that records requests and is fed `PoolEvent`s, with no socket (the
/// `WeatherClient` shape of the Composable Architecture, and rust-nostr's `WebSocketTransport`).
public struct PoolClient: Sendable {
    /// Everything the relays say, in order (one consumer).
    public var events: @Sendable () -> AsyncStream<PoolEvent>
    /// A REQ under `id` (replacing one of the same id) on `relays`, or on every relay when nil.
    public var subscribe: @Sendable (_ id: String, _ filters: [Filter], _ relays: Set<String>?) async -> Void
    public var unsubscribe: @Sendable (_ id: String, _ relays: Set<String>?) async -> Void
    /// Sends the events to every writable relay (see `RelayPool.publish`).
    public var publish: @Sendable (_ events: [NostrEvent], _ timeout: Duration, _ everyRelay: Bool) async -> Result<PublishReceipt, PublishError>
    /// Returns once a writable relay is connected (nil), or why none will be (the send gate).
    public var untilWritable: @Sendable () async -> PublishError?
    public var snapshots: @Sendable () async -> [RelaySnapshot]
    /// `wanted`, clamped to the relay's advertised `max_limit`.
    public var effectiveLimit: @Sendable (_ wanted: Int, _ relay: String) async -> Int
    /// How many events from a relay passed or failed their checks (its junk meter).
    public var eventsChecked: @Sendable (_ relay: String, _ valid: Int, _ junk: Int) async -> Void
    public var isDroppedForJunk: @Sendable (_ relay: String) -> Bool
    /// Closes every relay; `events` ends.
    public var stop: @Sendable () async -> Void
    /// NIP-77 on one relay (`RelayPool+Negentropy`): open (false when not connected), continue, close,
    /// and whether its NIP-11 lists 77 (nil: it lists no NIPs).
    public var negentropy: NegentropyClient

    public init(events: @escaping @Sendable () -> AsyncStream<PoolEvent>,
                subscribe: @escaping @Sendable (String, [Filter], Set<String>?) async -> Void,
                unsubscribe: @escaping @Sendable (String, Set<String>?) async -> Void,
                publish: @escaping @Sendable ([NostrEvent], Duration, Bool) async -> Result<PublishReceipt, PublishError>,
                untilWritable: @escaping @Sendable () async -> PublishError?,
                snapshots: @escaping @Sendable () async -> [RelaySnapshot],
                effectiveLimit: @escaping @Sendable (Int, String) async -> Int = { wanted, _ in wanted },
                eventsChecked: @escaping @Sendable (String, Int, Int) async -> Void = { _, _, _ in },
                isDroppedForJunk: @escaping @Sendable (String) -> Bool = { _ in false },
                negentropy: NegentropyClient = .unsupported,
                stop: @escaping @Sendable () async -> Void) {
        self.events = events
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.publish = publish
        self.untilWritable = untilWritable
        self.snapshots = snapshots
        self.effectiveLimit = effectiveLimit
        self.eventsChecked = eventsChecked
        self.isDroppedForJunk = isDroppedForJunk
        self.negentropy = negentropy
        self.stop = stop
    }

    /// The pool the apps run.
    public static func live(_ pool: RelayPool) -> PoolClient {
        PoolClient(events: { pool.events },
                   subscribe: { await pool.subscribe($0, filters: $1, relays: $2) },
                   unsubscribe: { await pool.unsubscribe($0, relays: $1) },
                   publish: { await pool.publish($0, timeout: $1, everyRelay: $2) },
                   untilWritable: { await pool.waitForWritableRelay() },
                   snapshots: { await pool.snapshots() },
                   effectiveLimit: { await pool.effectiveLimit($0, relay: $1) },
                   eventsChecked: { await pool.eventsChecked(relay: $0, valid: $1, junk: $2) },
                   isDroppedForJunk: { pool.isDroppedForJunk($0) },
                   negentropy: NegentropyClient(open: { await pool.openNegentropy($0, filter: $1, message: $2, relay: $3) },
                                                send: { await pool.sendNegentropy($0, message: $1, relay: $2) },
                                                close: { await pool.closeNegentropy($0, relay: $1) },
                                                advertised: { await pool.advertisesNegentropy(relay: $0) }),
                   stop: { await pool.stop() })
    }

    /// The connected relays that can be read (connected or read-only).
    func readableRelays() async -> Set<String> {
        Set(await snapshots().filter { $0.status.isReadable }.map(\.url))
    }
}

/// The NIP-77 part of `PoolClient`.
public struct NegentropyClient: Sendable {
    public var open: @Sendable (_ id: String, _ filter: Filter, _ message: String, _ relay: String) async -> Bool
    public var send: @Sendable (_ id: String, _ message: String, _ relay: String) async -> Bool
    public var close: @Sendable (_ id: String, _ relay: String) async -> Void
    public var advertised: @Sendable (_ relay: String) async -> Bool?

    public init(open: @escaping @Sendable (String, Filter, String, String) async -> Bool,
                send: @escaping @Sendable (String, String, String) async -> Bool,
                close: @escaping @Sendable (String, String) async -> Void,
                advertised: @escaping @Sendable (String) async -> Bool?) {
        self.open = open
        self.send = send
        self.close = close
        self.advertised = advertised
    }

    /// A pool without NIP-77 (test fakes): every history is paged.
    public static let unsupported = NegentropyClient(open: { _, _, _, _ in false }, send: { _, _, _ in false }, close: { _, _ in },
                                                     advertised: { _ in false })
}
