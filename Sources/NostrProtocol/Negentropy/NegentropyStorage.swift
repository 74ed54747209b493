/// One side's items, sorted, with running sums of the ids so that any range's fingerprint costs O(1)
/// (a relay that keeps asking about ranges costs a few additions each time, never a rescan).
public struct NegentropyStorage: Sendable {
    public let items: [NegentropyItem]
    /// `sums[i]` is the sum mod 2^256 of the first `i` ids, read as little-endian integers.
    private let sums: [UInt256]

    /// Sorts `items` and drops repeated ones.
    public init<S: Sequence>(_ items: S) where S.Element == NegentropyItem {
        var sorted = Array(items).sorted()
        if sorted.count > 1 {
            var kept = 1
            for i in 1..<sorted.count where sorted[i] != sorted[kept - 1] {
                sorted[kept] = sorted[i]
                kept += 1
            }
            sorted.removeLast(sorted.count - kept)
        }
        self.items = sorted
        var sums = [UInt256](repeating: UInt256(), count: sorted.count + 1)
        for (i, item) in sorted.enumerated() { sums[i + 1] = sums[i].adding(UInt256(item.id)) }
        self.sums = sums
    }

    public var count: Int { items.count }

    /// The first index in `lower..<upper` whose item is not below `bound` (or `upper`).
    func lowerBound(_ lower: Int, _ upper: Int, _ bound: NegentropyBound) -> Int {
        var lo = lower, hi = upper
        while lo < hi {
            let mid = (lo + hi) / 2
            if bound.isAbove(items[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first 16 bytes of SHA-256 over the ids' sum (32 bytes, little-endian) and the count (varint).
    public func fingerprint(_ lower: Int, _ upper: Int) -> [UInt8] {
        var w = NegentropyWriter(capacity: 42)
        sums[upper].subtracting(sums[lower]).appendLittleEndian(to: &w)
        w.varint(UInt64(upper - lower))
        return Array(SHA256.hash(w.bytes).bytes.prefix(16))
    }
}

/// A 256-bit unsigned integer in four little-endian limbs, for the fingerprint's sum.
struct UInt256: Sendable {
    var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}

    init(_ id: Bytes32) {
        id.withUnsafeBytes { raw in
            limbs = (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                     UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                     UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                     UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
        }
    }

    func adding(_ o: UInt256) -> UInt256 {
        var r = UInt256()
        var c: UInt64 = 0
        (r.limbs.0, c) = Self.add(limbs.0, o.limbs.0, 0)
        (r.limbs.1, c) = Self.add(limbs.1, o.limbs.1, c)
        (r.limbs.2, c) = Self.add(limbs.2, o.limbs.2, c)
        (r.limbs.3, _) = Self.add(limbs.3, o.limbs.3, c)
        return r
    }

    /// a − b mod 2^256 is a + (2^256 − b), and 2^256 − b is b's bits inverted, plus one.
    func subtracting(_ o: UInt256) -> UInt256 {
        var inverted = UInt256()
        inverted.limbs = (~o.limbs.0, ~o.limbs.1, ~o.limbs.2, ~o.limbs.3)
        var one = UInt256()
        one.limbs.0 = 1
        return adding(inverted.adding(one))
    }

    func appendLittleEndian(to w: inout NegentropyWriter) {
        for limb in [limbs.0, limbs.1, limbs.2, limbs.3] {
            for shift in stride(from: 0, to: 64, by: 8) { w.byte(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
    }

    private static func add(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, (o1 ? 1 : 0) + (o2 ? 1 : 0))
    }
}
