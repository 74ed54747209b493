/// Lowercase hex, as NIP-01 requires on the wire.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex of either case. Returns nil for odd length or a non-hex character.
    public static func decode(_ string: String) -> [UInt8]? { decode(bytes: string.utf8) }

    public static func decode<C: Collection>(bytes: C) -> [UInt8]? where C.Element == UInt8 {
        if let fast = bytes.withContiguousStorageIfAvailable({ decode(contiguous: $0) }) { return fast }
        return Array(bytes).withUnsafeBufferPointer { decode(contiguous: $0) }
    }

    /// Written into the result's storage directly: a loop that grew the array a byte at a time was 1–2 %
    /// of a cold sync's CPU (an event's id, key and signature are 256 hex digits).
    static func decode(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard bytes.count % 2 == 0 else { return nil }
        var valid = true
        let out = [UInt8](unsafeUninitializedCapacity: bytes.count / 2) { buffer, count in
            var i = 0
            while i < buffer.count {
                guard let h = nibble(bytes[2 * i]), let l = nibble(bytes[2 * i + 1]) else { valid = false; break }
                buffer[i] = h << 4 | l
                i += 1
            }
            count = i
        }
        return valid ? out : nil
    }

    /// True when `string` is exactly `byteCount` bytes of lowercase hex (the NIP-01 form).
    public static func isLowercaseHex(_ string: String, byteCount: Int) -> Bool {
        guard string.utf8.count == byteCount * 2 else { return false }
        for c in string.utf8 where !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) { return false }
        return true
    }

    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c &- 0x30
        case 0x61...0x66: return c &- 0x61 &+ 10
        case 0x41...0x46: return c &- 0x41 &+ 10
        default: return nil
        }
    }
}
