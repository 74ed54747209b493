/// Negentropy protocol v1 (NIP-77's appendix): the items both sides hold, the bounds between ranges,
/// and the byte format of a message (varints, delta-coded timestamps, id prefixes). Pure; every
/// decode of what a relay sent is bounded and throws `NegentropyError` instead of trapping.

/// One record: a timestamp (`created_at`) and a 32-byte event id, ordered by timestamp, then id.
public struct NegentropyItem: Comparable, Hashable, Sendable {
    public let timestamp: UInt64
    public let id: Bytes32

    public init(timestamp: UInt64, id: Bytes32) {
        self.timestamp = timestamp
        self.id = id
    }

    public static func < (a: NegentropyItem, b: NegentropyItem) -> Bool {
        a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id
    }
}

/// The upper (exclusive) end of a range: a timestamp and an id prefix, the rest of the id zero bytes.
public struct NegentropyBound: Equatable, Sendable {
    /// The reserved "infinity" timestamp: the bound past every item.
    public static let infinityTimestamp = UInt64.max
    public static let infinity = NegentropyBound(timestamp: infinityTimestamp)

    public let timestamp: UInt64
    /// The id, zero-padded past `prefixLength`.
    public let id: Bytes32
    public let prefixLength: Int

    public init(timestamp: UInt64, id: Bytes32 = .zero, prefixLength: Int = 0) {
        self.timestamp = timestamp
        self.id = id
        self.prefixLength = prefixLength
    }

    /// The shortest bound that separates `previous` from `next` (the first item of the next range).
    static func between(_ previous: NegentropyItem, _ next: NegentropyItem) -> NegentropyBound {
        guard previous.timestamp == next.timestamp else { return NegentropyBound(timestamp: next.timestamp) }
        let a = previous.id.bytes, b = next.id.bytes
        var shared = 0
        while shared < 32, a[shared] == b[shared] { shared += 1 }
        let length = min(shared + 1, 32)
        var prefix = Array(b[0..<length])
        prefix += Array(repeating: 0, count: 32 - length)
        return NegentropyBound(timestamp: next.timestamp, id: Bytes32(prefix)!, prefixLength: length)
    }

    /// Whether `item` sorts before this bound (is inside a range that ends here).
    func isAbove(_ item: NegentropyItem) -> Bool {
        item.timestamp != timestamp ? item.timestamp < timestamp : item.id < id
    }
}

/// What a range carries: nothing (skip), a fingerprint of the sender's items, or their ids.
public enum NegentropyMode: UInt64, Sendable {
    case skip = 0
    case fingerprint = 1
    case idList = 2
}

public enum NegentropyError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated
    case varintTooLong
    case badVersion(UInt8)
    case unsupportedVersion(UInt8)
    case badMode(UInt64)
    case prefixTooLong(UInt64)
    case tooManyIDs(UInt64)

    public var description: String {
        switch self {
        case .truncated: return "negentropy message ends in the middle of a value"
        case .varintTooLong: return "negentropy varint is longer than 64 bits"
        case .badVersion(let v): return "not a negentropy message (version byte 0x\(String(v, radix: 16)))"
        case .unsupportedVersion(let v): return "the relay speaks negentropy version 0x\(String(v, radix: 16)), not v1"
        case .badMode(let m): return "negentropy range has an unknown mode \(m)"
        case .prefixTooLong(let n): return "negentropy bound has an id prefix of \(n) bytes"
        case .tooManyIDs(let n): return "negentropy id list claims \(n) ids"
        }
    }
}

/// Protocol version 1 as a byte.
public let negentropyProtocolVersion: UInt8 = 0x61

/// Writes one message. Timestamps are delta-coded from the previous bound of the same message.
struct NegentropyWriter {
    private(set) var bytes: [UInt8] = []
    private var lastTimestamp: UInt64 = 0

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func varint(_ value: UInt64) {
        var digits = [UInt8(value & 0x7F)]
        var v = value >> 7
        while v > 0 {
            digits.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes += digits.reversed()
    }

    mutating func bound(_ b: NegentropyBound) {
        if b.timestamp == NegentropyBound.infinityTimestamp {
            lastTimestamp = NegentropyBound.infinityTimestamp
            varint(0)
        } else {
            varint(b.timestamp - lastTimestamp + 1)
            lastTimestamp = b.timestamp
        }
        varint(UInt64(b.prefixLength))
        b.id.withUnsafeBytes { bytes += $0.prefix(b.prefixLength) }
    }

    mutating func id(_ id: Bytes32) { id.withUnsafeBytes { bytes += $0 } }

    mutating func append(_ other: NegentropyWriter) { bytes += other.bytes }

    /// A fresh part of the same message continues its timestamp deltas.
    func part() -> NegentropyWriter {
        var w = NegentropyWriter(capacity: 64)
        w.lastTimestamp = lastTimestamp
        return w
    }

    mutating func adopt(_ part: NegentropyWriter) {
        bytes += part.bytes
        lastTimestamp = part.lastTimestamp
    }
}

/// Reads one message, checking every length against what is left.
struct NegentropyReader {
    private let bytes: [UInt8]
    private var at = 0
    private var lastTimestamp: UInt64 = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { at >= bytes.count }
    var remaining: Int { bytes.count - at }

    mutating func byte() throws(NegentropyError) -> UInt8 {
        guard at < bytes.count else { throw .truncated }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func varint() throws(NegentropyError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<10 {
            let b = try byte()
            guard value >> 57 == 0 else { throw .varintTooLong }
            value = value << 7 | UInt64(b & 0x7F)
            if b & 0x80 == 0 { return value }
        }
        throw .varintTooLong
    }

    mutating func take(_ n: Int) throws(NegentropyError) -> ArraySlice<UInt8> {
        guard n >= 0, n <= remaining else { throw .truncated }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    mutating func id() throws(NegentropyError) -> Bytes32 { Bytes32(try take(32))! }

    mutating func bound() throws(NegentropyError) -> NegentropyBound {
        let coded = try varint()
        var timestamp = coded == 0 ? NegentropyBound.infinityTimestamp : coded - 1
        if lastTimestamp == NegentropyBound.infinityTimestamp || timestamp == NegentropyBound.infinityTimestamp {
            timestamp = NegentropyBound.infinityTimestamp
        } else {
            let (sum, overflow) = timestamp.addingReportingOverflow(lastTimestamp)
            timestamp = overflow ? NegentropyBound.infinityTimestamp : sum
        }
        lastTimestamp = timestamp
        let length = try varint()
        guard length <= 32 else { throw .prefixTooLong(length) }
        var id = Array(try take(Int(length)))
        id += Array(repeating: 0, count: 32 - id.count)
        return NegentropyBound(timestamp: timestamp, id: Bytes32(id)!, prefixLength: Int(length))
    }
}
