import LinkstrDomain

/// What relays said to a best-effort step. Such a step never fails the user's action; its refusals are
/// reported, by relay, in words ("wss://relay.example: kind 5 refused: …").
public struct BestEffortReport: Equatable, Sendable {
    /// Relays that did not accept, with their words (or "no answer in time.").
    public let refusedBy: [String: String]
    /// Why nothing could be sent at all (no writable relay connected), else nil.
    public let unsent: String?

    public init(refusedBy: [String: String], unsent: String?) {
        self.refusedBy = refusedBy
        self.unsent = unsent
    }

    /// For a deletion request (kind 5) after the content is already deleted for everyone: one line per
    /// relay that kept `what` ("a copy of its sealed envelope"), which reads as the detail it is, not as
    /// a failure.
    public func deletionLines(kept what: String) -> [String] {
        if let unsent { return ["relays keep \(what) for now: the deletion request could not be sent (\(DisplayText.singleLine(unsent)))"] }
        return refusedBy.keys.sorted().map { "\($0) kept \(what) (it refused the deletion request: \(DisplayText.singleLine(refusedBy[$0]!)))" }
    }

    /// One line per relay that refused, `label` naming the step ("kind 5").
    public func lines(_ label: String) -> [String] {
        if let unsent { return ["\(label) not sent: \(unsent)"] }
        return refusedBy.keys.sorted().map { "\($0): \(label) refused: \(DisplayText.singleLine(refusedBy[$0]!))" }
    }
}
