import Foundation

/// A relay's health as the Settings pane shows it.
public enum RelayStatus: String, Sendable, Equatable {
    case connecting
    case connected
    /// Connected, but it refused our writes (`restricted:` / `auth-required:` we could not satisfy).
    case readOnly = "read-only"
    case failed
    case disabled

    /// Connected, whether or not it takes our writes: what it holds can be read.
    public var isReadable: Bool { self == .connected || self == .readOnly }
}

public struct RelayStats: Sendable, Equatable {
    public var eventsSent = 0
    public var eventsReceived = 0
    public var invalidMessages = 0
    public var connects = 0
    /// NIP-42 AUTH events signed and sent, and connections dropped for an AUTH loop.
    public var authsSent = 0
    public var authLoops = 0
    /// Events that failed their checks, and connections dropped for sending mostly those.
    public var junkEvents = 0
    public var junkDrops = 0
    /// The last ping round trip.
    public var latencyMilliseconds: Double?
    public var lastConnectedAt: Date?
    public init() {}
}

/// One relay as seen from outside the pool.
public struct RelaySnapshot: Sendable, Equatable {
    public let url: String
    public let enabled: Bool
    public let status: RelayStatus
    /// In plain words; nil when healthy.
    public let lastError: String?
    public let stats: RelayStats
    public let information: RelayInformation?
    public let authenticated: Bool
}

extension Array where Element == RelaySnapshot {
    /// The Settings header: relays that are connected or read-only.
    public var connectedOrReadOnly: Int { filter(\.status.isReadable).count }
}
