/// Finds the next byte a JSON string treats specially (`"`, `\` or a control character below 0x20),
/// eight bytes at a time. Event contents are kilobytes of base64 with none of them: the parser and
/// the id serialisation both skip such runs in one step instead of testing every byte.
enum JSONScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first special byte in `bytes` at or after `start`, or `bytes.count`.
    @inline(__always)
    static func nextSpecial(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let n = bytes.count
        if let base = bytes.baseAddress {
            while i + 8 <= n {
                let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                // A byte is zero in x when (x - 1) borrows into its high bit while x's own high bit is
                // clear. The lowest flagged byte is always a true match (a false one needs a borrow
                // from a true one below it), so its position is exact.
                let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
                let flagged = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- ones &* 0x20) & ~w) & highs
                if flagged != 0 { return i + flagged.trailingZeroBitCount >> 3 }
                i += 8
            }
        }
        while i < n {
            let c = bytes[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { return i }
            i += 1
        }
        return n
    }

    /// Whether `bytes[start..<end]` is all ASCII (then it is valid UTF-8 as it stands).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = start, seen: UInt64 = 0
        if let base = bytes.baseAddress {
            while i + 8 <= end {
                seen |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                i += 8
            }
        }
        while i < end {
            seen |= UInt64(bytes[i])
            i += 1
        }
        return seen & highs == 0
    }
}
