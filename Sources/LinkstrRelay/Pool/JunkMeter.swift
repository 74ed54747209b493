/// How much of what one connection sends is junk (events that fail their checks: bad signatures, not
/// for us, undecryptable, unparseable), over a sliding window of two buckets. An
/// endless junk stream cost the app a full core and up to 986 MB; a relay whose traffic is mostly junk
/// beyond a rate is dropped instead, and reconnects only after a long backoff.
public struct JunkMeter: Sendable, Equatable {
    /// Length of one bucket, in seconds.
    public static let window = 10.0
    /// Junk events in a window before anything is decided: a few bad events never cost a connection.
    public static let minimumJunk = 300
    /// The share of junk (of everything checked) that drops the relay.
    public static let share = 0.9

    private var bucketStart: Double?
    private var current = (valid: 0, junk: 0)
    private var previous = (valid: 0, junk: 0)

    public init() {}

    public static func == (a: JunkMeter, b: JunkMeter) -> Bool {
        a.bucketStart == b.bucketStart && a.current == b.current && a.previous == b.previous
    }

    /// Counts what was checked at `now`; true when the connection should be dropped.
    public mutating func record(valid: Int, junk: Int, now: Double) -> Bool {
        let start = bucketStart ?? now
        if now - start >= Self.window {
            // One bucket on: the current becomes the previous; two or more: both are stale.
            previous = now - start >= 2 * Self.window ? (0, 0) : current
            current = (0, 0)
            bucketStart = now
        } else if bucketStart == nil {
            bucketStart = now
        }
        current.valid += valid
        current.junk += junk
        // The previous bucket counts in proportion to how much of it is still inside the window.
        let weight = max(0, 1 - (now - (bucketStart ?? now)) / Self.window)
        let junkSeen = Double(current.junk) + Double(previous.junk) * weight
        let validSeen = Double(current.valid) + Double(previous.valid) * weight
        return junkSeen >= Double(Self.minimumJunk) && junkSeen >= Self.share * (junkSeen + validSeen)
    }

    /// Junk counted in the window now (for the reason shown on the relay row).
    public var junkInWindow: Int { current.junk + previous.junk }
}
