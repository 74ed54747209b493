import COpenSSL
import Synchronization

/// Where randomness comes from. Injected so that protocol code stays deterministic under test.
public protocol RandomSource: Sendable {
    func fill(_ buffer: UnsafeMutableRawBufferPointer)
}

extension RandomSource {
    public func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { fill($0) }
        return out
    }

    public func bytes32() -> Bytes32 {
        var b = Bytes32()
        b.withUnsafeMutableBytes { fill($0) }
        return b
    }

    /// Uniform in 0...upperBound (inclusive), without modulo bias.
    public func uniform(upTo upperBound: UInt64) -> UInt64 {
        if upperBound == UInt64.max { return next64() }
        let range = upperBound + 1
        let limit = UInt64.max - UInt64.max % range
        while true {
            let v = next64()
            if v < limit { return v % range }
        }
    }

    public func next64() -> UInt64 {
        var v: UInt64 = 0
        withUnsafeMutableBytes(of: &v) { fill($0) }
        return v
    }
}

/// The operating system's CSPRNG through OpenSSL's DRBG.
public struct SystemRandom: RandomSource {
    public init() {}
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        // RAND_bytes only fails when the DRBG cannot be seeded; continuing without entropy would be worse.
        precondition(RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1,
                     "the system random generator failed")
    }
}

/// A deterministic generator (SplitMix64) for reproducible tests and benchmarks. Never for keys users keep.
public final class SeededRandom: RandomSource, Sendable {
    private let seed: Mutex<UInt64>
    public init(seed: UInt64) { self.seed = Mutex(seed) }

    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        seed.withLock { state in
            var i = 0
            while i < buffer.count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for k in 0..<8 where i < buffer.count {
                    buffer[i] = UInt8(truncatingIfNeeded: z >> (8 * UInt64(k)))
                    i += 1
                }
            }
        }
    }
}
