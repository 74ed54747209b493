/// The web-URL rule's answer for the links people share, without Foundation: ingest checks
/// every root's URL, and `URLComponents` plus Unicode property lookups were a quarter of the store's
/// time in a cold sync. Only a plain shape is decided here, `http(s)://host[/…][?…][#…]` in printable
/// ASCII that RFC 3986 allows as is; anything else (a port, user info, an IP-v6 literal, `%` or `--`
/// in the host, a second `#`, any other byte) is left to the full rule. It only ever says "valid", so the
/// full rule alone can reject; a differential test holds the two equal.
extension WebURL {
    /// True when `s` is certainly a valid web URL by the full rule; nil when that rule must decide.
    static func plainASCIIVerdict(_ s: String) -> Bool? {
        var s = s
        return s.withUTF8 { plainASCIIVerdict($0) }
    }

    private static func plainASCIIVerdict(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        // "http://" or "https://", any case.
        var i: Int
        if b.count > 8, lower(b[0]) == 0x68, lower(b[1]) == 0x74, lower(b[2]) == 0x74, lower(b[3]) == 0x70 {
            i = lower(b[4]) == 0x73 ? 5 : 4
        } else {
            return nil
        }
        guard b[i] == 0x3A, b[i + 1] == 0x2F, b[i + 2] == 0x2F else { return nil }
        i += 3
        // The host, up to the path, query or fragment: labels of letters, digits and inner '-'.
        let hostStart = i
        var labelStart = i, labels = 0
        while i < b.count, b[i] != 0x2F, b[i] != 0x3F, b[i] != 0x23 {
            let c = b[i]
            if c == 0x2E {
                guard i > labelStart, b[labelStart] != 0x2D, b[i - 1] != 0x2D else { return nil }
                labels += 1
                labelStart = i + 1
            } else if c == 0x2D {
                // "--" (as in IDNA's "xn--"): Foundation checks such labels' punycode; it decides them.
                if b[i - 1] == 0x2D { return nil }
            } else if !isAlphaNumeric(c) {
                return nil
            }
            i += 1
        }
        guard i > labelStart, b[labelStart] != 0x2D, b[i - 1] != 0x2D else { return nil }
        labels += 1
        if labels < 2 && !isLocalhost(b, hostStart, i) { return nil }
        // The rest: unreserved, sub-delimiters, ':', '@', '/', '?', '%' before two hex digits, one '#'.
        var fragment = false
        while i < b.count {
            let c = b[i]
            if c == 0x23 {
                if fragment { return nil }
                fragment = true
            } else if c == 0x25 {
                guard i + 2 < b.count, isHex(b[i + 1]), isHex(b[i + 2]) else { return nil }
                i += 2
            } else if !isPlainPathByte(c) {
                return nil
            }
            i += 1
        }
        return true
    }

    @inline(__always) private static func lower(_ c: UInt8) -> UInt8 { c | 0x20 }
    @inline(__always) private static func isAlphaNumeric(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
    }
    @inline(__always) private static func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }
    /// RFC 3986 `pchar` plus '/' and '?': unreserved ("-._~"), sub-delims ("!$&'()*+,;="), ':' and '@'.
    @inline(__always) private static func isPlainPathByte(_ c: UInt8) -> Bool {
        if isAlphaNumeric(c) { return true }
        switch c {
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x3A, 0x40, 0x2F, 0x3F: return true
        default: return false
        }
    }
    private static func isLocalhost(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let word: [UInt8] = Array("localhost".utf8)
        guard end - start == word.count else { return false }
        return (0..<word.count).allSatisfy { lower(b[start + $0]) == word[$0] }
    }
}
