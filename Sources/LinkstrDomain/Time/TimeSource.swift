import Foundation

/// The one clock every service runs on: wall time for what is stamped or shown, monotonic time for
/// durations and deadlines, and waiting. Services take it injected, so a test's clock can make a
/// 15-second deadline pass at once; only `live` touches the system's clocks.
public struct TimeSource: Sendable {
    /// Seconds since 1970 (event `created_at`, "last seen", cache ages).
    public var wallSeconds: @Sendable () -> Int64
    /// Time since an arbitrary fixed origin that never goes back (deadlines, rates).
    public var monotonic: @Sendable () -> Duration
    /// Waits `duration`; returns early (without throwing) when the waiting task is cancelled.
    public var sleep: @Sendable (Duration) async -> Void

    public init(wallSeconds: @escaping @Sendable () -> Int64, monotonic: @escaping @Sendable () -> Duration,
                sleep: @escaping @Sendable (Duration) async -> Void) {
        self.wallSeconds = wallSeconds
        self.monotonic = monotonic
        self.sleep = sleep
    }

    /// The system's clocks.
    public static let live: TimeSource = {
        let origin = ContinuousClock.now
        return TimeSource(wallSeconds: { Int64(Date().timeIntervalSince1970) },
                          monotonic: { ContinuousClock.now - origin },
                          sleep: { try? await Task.sleep(for: $0) })
    }()

    /// `monotonic()` in seconds.
    public func monotonicSeconds() -> Double {
        let t = monotonic().components
        return Double(t.seconds) + Double(t.attoseconds) / 1e18
    }

    /// Waits until `monotonic()` reaches `deadline` (at once if it has).
    public func sleep(until deadline: Duration) async {
        let left = deadline - monotonic()
        if left > .zero { await sleep(left) }
    }
}
