/// Exactly 32 bytes stored inline (no heap allocation), used for ids, keys and hashes.
/// Ordering is lexicographic over the bytes, which equals ordering of the lowercase hex.
public struct Bytes32: Hashable, Sendable, Comparable, CustomStringConvertible {
    // Raw memory, not numbers: byte i of the value is byte i of this struct.
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public static let zero = Bytes32()

    @inlinable public init() {}

    /// nil unless `bytes` has exactly 32 elements.
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard bytes.count == 32 else { return nil }
        Swift.withUnsafeMutableBytes(of: &storage) { raw in
            var i = 0
            for b in bytes { raw[i] = b; i += 1 }
        }
    }

    public init(unsafeFrom pointer: UnsafeRawPointer) {
        Swift.withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: 32)) }
    }

    /// Parses exactly 64 hex characters (either case).
    public init?(hex: String) {
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes)
    }

    public var bytes: [UInt8] { Swift.withUnsafeBytes(of: storage) { Array($0) } }
    public var hex: String { Swift.withUnsafeBytes(of: storage) { Hex.encode($0) } }
    public var description: String { hex }

    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: storage, body)
    }

    @inlinable
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeMutableBytes(of: &storage, body)
    }

    public static func == (a: Bytes32, b: Bytes32) -> Bool {
        a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1 && a.storage.2 == b.storage.2 && a.storage.3 == b.storage.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0); hasher.combine(storage.1); hasher.combine(storage.2); hasher.combine(storage.3)
    }

    public static func < (a: Bytes32, b: Bytes32) -> Bool {
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for i in 0..<32 where pa[i] != pb[i] { return pa[i] < pb[i] }
                return false
            }
        }
    }
}
