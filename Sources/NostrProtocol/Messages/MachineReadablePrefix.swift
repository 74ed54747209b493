/// The standard prefixes of OK and CLOSED messages (NIP-01), e.g. `auth-required: we only accept…`.
public enum MachineReadablePrefix: String, Sendable, CaseIterable {
    case duplicate
    case pow
    case blocked
    case rateLimited = "rate-limited"
    case invalid
    case restricted
    case mute
    case error
    case authRequired = "auth-required"
}

/// A relay's OK / CLOSED message split into its machine-readable prefix and the human text.
public struct RelayStatusMessage: Equatable, Sendable {
    public let raw: String
    public let prefix: MachineReadablePrefix?
    public let text: String

    public init(_ raw: String) {
        self.raw = raw
        if let colon = raw.firstIndex(of: ":"), let p = MachineReadablePrefix(rawValue: String(raw[..<colon])) {
            prefix = p
            text = String(raw[raw.index(after: colon)...]).trimmingWhitespace()
        } else {
            prefix = nil
            text = raw
        }
    }
}
