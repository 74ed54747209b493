/// A NIP-01 event id: the SHA-256 of the canonical serialization.
public struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let raw: Bytes32
    public init(raw: Bytes32) { self.raw = raw }
    /// Exactly 64 hex characters.
    public init?(hex: String) {
        guard let raw = Bytes32(hex: hex) else { return nil }
        self.raw = raw
    }
    public var hex: String { raw.hex }
    public var description: String { hex }
    public static func < (a: EventID, b: EventID) -> Bool { a.raw < b.raw }
}
