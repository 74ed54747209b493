/// TOML's strings (four kinds), numbers and dates, as `TOMLParser` reads them.
extension TOMLParser {
    // MARK: - Strings

    /// The input is a Swift string and escapes name only Unicode scalars, so the bytes are UTF-8.
    func text(_ bytes: [UInt8], at start: Int) -> String { String(decoding: bytes, as: UTF8.self) }

    /// "basic" (with escapes) or 'literal', ending on the line where it began.
    mutating func singleLineString() throws(Failure) -> String {
        let start = i
        let quote = b[i]
        i += 1
        var out = [UInt8]()
        while true {
            guard let c = peek() else { throw fail("this string is not closed", at: start) }
            if c == quote { i += 1; return text(out, at: start) }
            if c == 0x0A || c == 0x0D { throw fail("this string is not closed on its line", at: start) }
            if (c < 0x20 && c != 0x09) || c == 0x7F { throw fail("a string cannot hold a control character; write it as an escape") }
            if c == 0x5C && quote == 0x22 { try escape(into: &out); continue }
            out.append(c)
            i += 1
        }
    }

    /// """basic""" or '''literal''' over several lines; a line end right after the opening is dropped,
    /// and in a basic one a backslash at a line's end joins it to the next non-blank text.
    mutating func multiLineString() throws(Failure) -> String {
        let start = i
        let quote = b[i]
        i += 3
        if peek() == 0x0A { newline() } else if peek() == 0x0D, peek(1) == 0x0A { i += 1; newline() }
        var out = [UInt8]()
        while true {
            guard let c = peek() else { throw fail("this multi-line string is not closed", at: start) }
            if c == quote {
                var run = 0
                while peek(run) == quote { run += 1 }
                if run >= 3 {
                    // Up to two quotes may stand right before the closing three.
                    guard run <= 5 else { throw fail("too many quotes at the end of a multi-line string") }
                    out.append(contentsOf: Array(repeating: quote, count: run - 3))
                    i += run
                    return text(out, at: start)
                }
                out.append(contentsOf: Array(repeating: quote, count: run))
                i += run
                continue
            }
            if c == 0x0A { out.append(c); newline(); continue }
            if c == 0x0D {
                guard peek(1) == 0x0A else { throw fail("a carriage return must be followed by a line feed") }
                out.append(contentsOf: [0x0D, 0x0A])
                i += 1
                newline()
                continue
            }
            if (c < 0x20 && c != 0x09) || c == 0x7F { throw fail("a string cannot hold a control character; write it as an escape") }
            if c == 0x5C && quote == 0x22 {
                if try joinLines() { continue }
                try escape(into: &out)
                continue
            }
            out.append(c)
            i += 1
        }
    }

    /// A backslash followed only by blanks up to the line end: skips them and all blank space after.
    mutating func joinLines() throws(Failure) -> Bool {
        var k = i + 1
        while k < b.count, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
        guard k < b.count, b[k] == 0x0A || (b[k] == 0x0D && k + 1 < b.count && b[k + 1] == 0x0A) else { return false }
        i = k
        while let c = peek() {
            switch c {
            case 0x20, 0x09: i += 1
            case 0x0A: newline()
            case 0x0D where peek(1) == 0x0A: i += 1
            default: return true
            }
        }
        return true
    }

    mutating func escape(into out: inout [UInt8]) throws(Failure) {
        let start = i
        i += 1
        guard let e = peek() else { throw fail("this string is not closed", at: start) }
        i += 1
        switch e {
        case 0x62: out.append(0x08)  // \b
        case 0x74: out.append(0x09)  // \t
        case 0x6E: out.append(0x0A)  // \n
        case 0x66: out.append(0x0C)  // \f
        case 0x72: out.append(0x0D)  // \r
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x75, 0x55:
            let count = e == 0x75 ? 4 : 8
            guard i + count <= b.count, let code = UInt32(String(decoding: b[i..<i + count], as: UTF8.self), radix: 16),
                  b[i..<i + count].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) })
            else { throw fail("\\\(Character(Unicode.Scalar(e))) needs \(count) hex digits", at: start) }
            guard let scalar = Unicode.Scalar(code) else { throw fail("\\\(Character(Unicode.Scalar(e))) names no Unicode character", at: start) }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i += count
        default:
            throw fail("\\\(describe(e).trimmingQuotes) is not an escape TOML knows", at: start)
        }
    }

    // MARK: - Numbers and dates

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    mutating func numberOrDate() throws(Failure) -> TOMLValue {
        let start = i
        func isTokenByte(_ c: UInt8) -> Bool { Self.isBare(c) || c == 0x2B || c == 0x2E || c == 0x3A }
        while let c = peek(), isTokenByte(c) { i += 1 }
        // A date and a time may be parted by one space: "1979-05-27 07:32:00".
        if i - start == 10, peek() == 0x20, let h = peek(1), Self.isDigit(h), let h2 = peek(2), Self.isDigit(h2), peek(3) == 0x3A {
            i += 1
            while let c = peek(), isTokenByte(c) { i += 1 }
        }
        let token = Array(b[start..<i])
        let word = String(decoding: token, as: UTF8.self)
        switch word {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        let looksLikeDate = token.count >= 5 && token[0..<4].allSatisfy(Self.isDigit) && token[4] == 0x2D
        let looksLikeTime = token.count >= 3 && token[0..<2].allSatisfy(Self.isDigit) && token[2] == 0x3A
        if looksLikeDate || looksLikeTime {
            guard TOMLDate.isValid(token) else { throw fail("\(word) is not a valid date or time", at: start) }
            return .datetime(word)
        }
        if token.count > 2, token[0] == 0x30, let radix = [0x78: 16, 0x6F: 8, 0x62: 2][token[1]] {
            let digits = Array(token[2...])
            guard Self.underscoresBetweenDigits(digits, radix: radix), let v = Int64(String(decoding: digits.filter { $0 != 0x5F }, as: UTF8.self), radix: radix)
            else { throw fail("\(word) is not a valid number", at: start) }
            return .integer(v)
        }
        if let v = Self.decimalInteger(token) { return .integer(v) }
        if Self.isFloat(token), let v = Double(String(decoding: token.filter { $0 != 0x5F }, as: UTF8.self)) { return .float(v) }
        if token.isEmpty { throw fail("expected a value, found \(describe(peek()))") }
        throw fail("\(word) is not a value: strings need quotes (\"\(word)\")", at: start)
    }

    /// Digits of `radix` with single underscores only between digits.
    static func underscoresBetweenDigits(_ d: [UInt8], radix: Int = 10) -> Bool {
        guard let first = d.first, let last = d.last, first != 0x5F, last != 0x5F else { return false }
        var previousUnderscore = false
        for c in d {
            if c == 0x5F {
                if previousUnderscore { return false }
                previousUnderscore = true
                continue
            }
            previousUnderscore = false
            guard let v = Int(String(Character(Unicode.Scalar(c))), radix: radix), v < radix else { return false }
        }
        return true
    }

    /// `[+-]? (0 | [1-9] (_? digit)*)`: no leading zeros.
    static func isDecimalDigits(_ d: ArraySlice<UInt8>) -> Bool {
        let digits = Array(d)
        guard underscoresBetweenDigits(digits) else { return false }
        return !(digits.count > 1 && digits[0] == 0x30)
    }

    static func decimalInteger(_ token: [UInt8]) -> Int64? {
        var body = token[...]
        if let s = body.first, s == 0x2B || s == 0x2D { body = body.dropFirst() }
        guard isDecimalDigits(body) else { return nil }
        return Int64(String(decoding: token.filter { $0 != 0x5F }, as: UTF8.self))
    }

    static func isFloat(_ token: [UInt8]) -> Bool {
        var body = token[...]
        if let s = body.first, s == 0x2B || s == 0x2D { body = body.dropFirst() }
        let exponentAt = body.firstIndex { $0 == 0x65 || $0 == 0x45 }
        let mantissa = exponentAt.map { body[..<$0] } ?? body
        let parts = mantissa.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, isDecimalDigits(parts[0]) else { return false }
        if parts.count == 2 && !underscoresBetweenDigits(Array(parts[1])) { return false }
        if let e = exponentAt {
            var exponent = body[(e + 1)...]
            if let s = exponent.first, s == 0x2B || s == 0x2D { exponent = exponent.dropFirst() }
            guard underscoresBetweenDigits(Array(exponent)) else { return false }
        } else if parts.count == 1 {
            return false
        }
        return true
    }
}

private extension String {
    var trimmingQuotes: String { count >= 3 && hasPrefix("'") && hasSuffix("'") ? String(dropFirst().dropLast()) : self }
}
