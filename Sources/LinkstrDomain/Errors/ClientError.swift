/// A failure as the front ends carry it: its kind (what a person can do about it) and the words of the
/// layer that failed, already made safe for one line. The app's reducer alone turns it into a sentence.
public struct ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        /// Relays did not answer in time (a publish, a query, a connection).
        case timeout
        /// Relays answered "no" (refused, too large for them).
        case rejectedByRelays
        /// What was asked for is not there (a session, an identity, a relay in the list).
        case notFound
        /// What was given is not acceptable (a key, a URL, a name, a passphrase, a file).
        case invalid
        /// No relay to talk to (none enabled, none connected, only read-only ones).
        case offline
        /// The local database or a file could not be read or written.
        case storage
        /// Anything else: a defect or a failure no rule expects.
        case unexpected
    }

    public let kind: Kind
    /// The failing layer's words (one line, control characters removed).
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = DisplayText.singleLine(detail)
    }

    public var description: String { detail }
}
