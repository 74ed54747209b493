import NostrProtocol

/// A secret on screen (the nsec), held in a buffer that is wiped when the last reference goes: hiding
/// it drops the state's reference, so no copy stays in memory. It never prints,
/// and it is drawn a character at a time (ASCII), never made into a String.
public final class RevealedSecret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let bytes: SecretBytes

    public init(_ bytes: SecretBytes) { self.bytes = bytes }

    public var count: Int { bytes.count }

    /// Each character in turn (the text is ASCII, as bech32 is).
    public func forEachCharacter(_ body: (Int, Character) -> Void) {
        bytes.withUnsafeBytes { raw in
            for (i, b) in raw.enumerated() { body(i, Character(Unicode.Scalar(b < 0x80 ? b : 0x3F))) }
        }
    }

    /// The bytes, for a copy the user asked for (the caller wipes what it makes of them).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }

    /// Constant-time, by content.
    public static func == (a: RevealedSecret, b: RevealedSecret) -> Bool { a === b || a.bytes.constantTimeEquals(b.bytes) }

    public var description: String { "RevealedSecret(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
