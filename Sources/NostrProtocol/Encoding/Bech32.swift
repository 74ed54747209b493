/// BIP-173 bech32 (not bech32m), with NIP-19's 5000-character limit instead of BIP-173's 90.
public enum Bech32 {
    public static let maxLength = 5000
    private static let charset: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let reverse: [Int8] = {
        var t = [Int8](repeating: -1, count: 128)
        for (i, c) in charset.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3B6A_57B2, 0x2650_8E6D, 0x1EA1_19FA, 0x3D42_33DD, 0x2A14_62B3]
        var chk: UInt32 = 1
        for v in values {
            let top = chk >> 25
            chk = (chk & 0x1FF_FFFF) << 5 ^ UInt32(v)
            for i in 0..<5 where (top >> UInt32(i)) & 1 == 1 { chk ^= generator[i] }
        }
        return chk
    }

    private static func expandHRP(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    public static func encode(hrp: String, data: [UInt8]) -> String {
        let hrpBytes = Array(hrp.lowercased().utf8)
        let words = convertBits(data, from: 8, to: 5, pad: true)!
        let check = polymod(expandHRP(hrpBytes) + words + [0, 0, 0, 0, 0, 0]) ^ 1
        var out = hrpBytes + [0x31]
        for w in words { out.append(charset[Int(w)]) }
        for i in 0..<6 { out.append(charset[Int((check >> UInt32(5 * (5 - i))) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `encode` for secrets: the text is built in a `SecretBytes`, and every buffer that held the data on
    /// the way (as 5-bit words too) is preallocated and wiped, so no copy outlives the one returned.
    public static func encodeSecret(hrp: String, data: UnsafeRawBufferPointer) -> SecretBytes {
        let hrpBytes = Array(hrp.lowercased().utf8)
        let wordCount = (data.count * 8 + 4) / 5
        var words = [UInt8](repeating: 0, count: wordCount)
        var accumulator: UInt32 = 0, bits = 0, j = 0
        for byte in data {
            accumulator = ((accumulator << 8) | UInt32(byte)) & 0x1FFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                words[j] = UInt8((accumulator >> UInt32(bits)) & 31)
                j += 1
            }
        }
        if bits > 0 { words[j] = UInt8((accumulator << UInt32(5 - bits)) & 31) }
        accumulator = 0
        var values = [UInt8]()
        values.reserveCapacity(hrpBytes.count * 2 + 1 + wordCount + 6)
        values += expandHRP(hrpBytes)
        values += words
        values += [0, 0, 0, 0, 0, 0]
        let check = polymod(values) ^ 1
        SecretBytes.wipe(&values)
        let out = SecretBytes(count: hrpBytes.count + 1 + wordCount + 6)
        out.withUnsafeMutableBytes { o in
            var k = 0
            for c in hrpBytes + [0x31] { o[k] = c; k += 1 }
            for w in words { o[k] = charset[Int(w)]; k += 1 }
            for i in 0..<6 { o[k] = charset[Int((check >> UInt32(5 * (5 - i))) & 31)]; k += 1 }
        }
        SecretBytes.wipe(&words)
        return out
    }

    /// Returns the lowercase human-readable part and the 8-bit data.
    public static func decode(_ string: String) throws(Bech32Error) -> (hrp: String, data: [UInt8]) {
        let bytes = Array(string.utf8)
        guard bytes.count <= maxLength else { throw .tooLong }
        var hasLower = false, hasUpper = false
        for c in bytes {
            guard c >= 33 && c <= 126 else { throw .invalidCharacter }
            if c >= 0x61 && c <= 0x7A { hasLower = true }
            if c >= 0x41 && c <= 0x5A { hasUpper = true }
        }
        guard !(hasLower && hasUpper) else { throw .mixedCase }
        let lower = bytes.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 + 32 : $0 }
        guard let sep = lower.lastIndex(of: 0x31) else { throw .missingSeparator }
        guard sep >= 1 else { throw .missingPrefix }
        guard lower.count - sep - 1 >= 6 else { throw .tooShort }
        let hrp = Array(lower[0..<sep])
        var words = [UInt8]()
        words.reserveCapacity(lower.count - sep - 1)
        for c in lower[(sep + 1)...] {
            let v = reverse[Int(c)]
            guard v >= 0 else { throw .invalidCharacter }
            words.append(UInt8(v))
        }
        guard polymod(expandHRP(hrp) + words) == 1 else { throw .badChecksum }
        guard let data = convertBits(Array(words.dropLast(6)), from: 5, to: 8, pad: false) else { throw .invalidPadding }
        return (String(decoding: hrp, as: UTF8.self), data)
    }

    static func convertBits(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var acc = 0, bits = 0
        var out = [UInt8]()
        out.reserveCapacity(data.count * from / to + 1)
        let maxValue = (1 << to) - 1
        for value in data {
            guard Int(value) >> from == 0 else { return nil }
            acc = (acc << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((acc >> bits) & maxValue))
            }
            acc &= (1 << bits) - 1
        }
        if pad {
            if bits > 0 { out.append(UInt8((acc << (to - bits)) & maxValue)) }
        } else if bits >= from || ((acc << (to - bits)) & maxValue) != 0 {
            return nil
        }
        return out
    }
}

public enum Bech32Error: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong, invalidCharacter, mixedCase, missingSeparator, missingPrefix, tooShort, badChecksum, invalidPadding

    public var description: String {
        switch self {
        case .tooLong: return "is too long for a bech32 string (over 5000 characters)."
        case .invalidCharacter: return "contains a character that bech32 does not use."
        case .mixedCase: return "mixes upper and lower case."
        case .missingSeparator: return "has no '1' separator after its prefix."
        case .missingPrefix: return "has no prefix before the '1'."
        case .tooShort: return "is too short to carry a checksum."
        case .badChecksum: return "has a bad checksum: a character was mistyped or lost."
        case .invalidPadding: return "has invalid padding bits."
        }
    }
}
