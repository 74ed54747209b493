/// Reconnect delays: 1, 2, 4, 8, 16 s, then 16 s, each with ±20 % jitter so that many clients do not
/// hammer a relay that comes back in lockstep.
public struct Backoff: Sendable, Equatable {
    public var steps: [Double]
    public var jitter: Double

    public init(steps: [Double] = [1, 2, 4, 8, 16], jitter: Double = 0.2) {
        self.steps = steps
        self.jitter = jitter
    }

    /// `unit` is a random number in 0..<1.
    public func delay(attempt: Int, unit: Double) -> Double {
        let base = steps[min(max(attempt, 0), steps.count - 1)]
        return base * (1 - jitter + 2 * jitter * unit)
    }
}
