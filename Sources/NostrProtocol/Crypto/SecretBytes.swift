import COpenSSL

/// Heap storage for secret material that is wiped when the last reference goes away.
/// Swift copies values freely, so secrets live behind this one reference instead.
public final class SecretBytes: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    public let count: Int

    public init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    }

    /// Copies `bytes` in; the caller should wipe its own copy (see `wipe(_:)`).
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count)
        let copied = bytes.withContiguousStorageIfAvailable { src -> Bool in
            if let p = src.baseAddress { base.copyMemory(from: p, byteCount: src.count) }
            return true
        }
        if copied == nil {
            var i = 0
            for b in bytes { base.storeBytes(of: b, toByteOffset: i, as: UInt8.self); i += 1 }
        }
    }

    deinit {
        OPENSSL_cleanse(base, max(count, 1))
        base.deallocate()
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A plain copy, for APIs that need an array. The caller wipes it (`wipe(_:)`).
    public func copyBytes() -> [UInt8] { withUnsafeBytes { Array($0) } }

    /// Constant-time equality.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        withUnsafeBytes { a in other.withUnsafeBytes { b in ConstantTime.equals(a, b) } }
    }

    /// Overwrites a temporary array that held secret material.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { if let p = $0.baseAddress { OPENSSL_cleanse(p, $0.count) } }
    }
}
