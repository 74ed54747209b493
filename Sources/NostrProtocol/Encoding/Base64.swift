/// RFC 4648 base64 with padding. The decoder is strict: no whitespace, no URL alphabet,
/// padding required, non-zero trailing bits rejected.
public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let table: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
        return t
    }()

    public static func encode<C: Collection>(_ input: C) -> String where C.Element == UInt8 {
        let bytes = Array(input)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(0x3D); out.append(0x3D)
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(0x3D)
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ string: String) -> [UInt8]? {
        var s = string
        return s.withUTF8 { decode(bytes: $0) }
    }

    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let n = input.count
        guard n % 4 == 0 else { return nil }
        if n == 0 { return [] }
        var padding = 0
        if input[n - 1] == 0x3D { padding += 1 }
        if input[n - 2] == 0x3D { padding += 1 }
        if padding == 1 && input[n - 2] == 0x3D { return nil }
        var out = [UInt8](repeating: 0, count: n / 4 * 3 - padding)
        let ok: Bool = table.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                var oi = 0
                var i = 0
                let fullQuads = padding > 0 ? n - 4 : n
                while i < fullQuads {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])], c = t[Int(input[i + 2])], d = t[Int(input[i + 3])]
                    if (a | b | c | d) & 0xC0 != 0 { return false }
                    let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    o[oi] = UInt8(v >> 16 & 0xFF); o[oi + 1] = UInt8(v >> 8 & 0xFF); o[oi + 2] = UInt8(v & 0xFF)
                    oi += 3; i += 4
                }
                if padding > 0 {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])]
                    if (a | b) & 0xC0 != 0 { return false }
                    if padding == 2 {
                        if b & 0x0F != 0 { return false }
                        o[oi] = a << 2 | b >> 4
                    } else {
                        let c = t[Int(input[i + 2])]
                        if c & 0xC0 != 0 || c & 0x03 != 0 { return false }
                        o[oi] = a << 2 | b >> 4
                        o[oi + 1] = (b & 0x0F) << 4 | c >> 2
                    }
                }
                return true
            }
        }
        return ok ? out : nil
    }
}
