/// TOML 1.0's dates and times (RFC 3339 with a space allowed for the T): a local date, a local time,
/// a local date-time or one with an offset. Checked, then kept as text.
enum TOMLDate {
    static func isValid(_ t: [UInt8]) -> Bool {
        var k = 0
        func number(_ count: Int) -> Int? {
            guard k + count <= t.count, t[k..<k + count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            defer { k += count }
            return t[k..<k + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        func take(_ c: UInt8) -> Bool {
            guard k < t.count, t[k] == c else { return false }
            k += 1
            return true
        }
        func time() -> Bool {
            guard let h = number(2), take(0x3A), let m = number(2), take(0x3A), let s = number(2), h < 24, m < 60, s <= 60 else { return false }
            if take(0x2E) {
                let digits = k
                while k < t.count, t[k] >= 0x30 && t[k] <= 0x39 { k += 1 }
                if k == digits { return false }
            }
            return true
        }
        if t.count >= 3, t[2] == 0x3A { return time() && k == t.count }
        guard let y = number(4), take(0x2D), let mo = number(2), take(0x2D), let d = number(2), (1...12).contains(mo) else { return false }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]
        guard (1...days).contains(d) else { return false }
        if k == t.count { return true }
        guard take(0x54) || take(0x74) || take(0x20), time() else { return false }
        if k == t.count { return true }
        if take(0x5A) || take(0x7A) { return k == t.count }
        guard take(0x2B) || take(0x2D), let oh = number(2), take(0x3A), let om = number(2), oh < 24, om < 60 else { return false }
        return k == t.count
    }
}
