/// A strict RFC 8259 parser for input from relays and peers, which is hostile until validated.
/// It never traps: depth, size and number length are bounded, UTF-8 is validated, lone
/// surrogates and duplicate keys are rejected, and every failure is a typed `JSONError`.
public struct JSONParser {
    public struct Limits: Sendable {
        public var maxBytes: Int
        public var maxDepth: Int
        public var maxNumberLength: Int
        public init(maxBytes: Int = 32 << 20, maxDepth: Int = 128, maxNumberLength: Int = 400) {
            self.maxBytes = maxBytes; self.maxDepth = maxDepth; self.maxNumberLength = maxNumberLength
        }
        public static let `default` = Limits()
    }

    public static func parse(_ text: String, limits: Limits = .default) throws(JSONError) -> JSONValue {
        var copy = text
        let result = copy.withUTF8 { buf in Result { () throws(JSONError) in try parse(bytes: buf, limits: limits) } }
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8], limits: Limits = .default) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buf in Result { () throws(JSONError) in try parse(bytes: buf, limits: limits) } }
        return try result.get()
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>, limits: Limits = .default) throws(JSONError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw JSONError(.tooLarge, at: 0) }
        var parser = JSONParser(input: bytes, limits: limits)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw JSONError(.trailingCharacters, at: parser.position) }
        return value
    }

    private let input: UnsafeBufferPointer<UInt8>
    private let limits: Limits
    private var position = 0

    private init(input: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.input = input
        self.limits = limits
    }

    @inline(__always) private var atEnd: Bool { position >= input.count }
    @inline(__always) private func peek() -> UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        guard let c = peek() else { throw JSONError(.unexpectedEnd, at: position) }
        switch c {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw JSONError(.unexpectedCharacter, at: position)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= input.count else { throw JSONError(.unexpectedEnd, at: position) }
        let p = literal.utf8Start
        for i in 0..<count where input[position + i] != p[i] { throw JSONError(.unexpectedCharacter, at: position + i) }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw JSONError(.tooDeep, at: position) }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen: Set<String>? = nil
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return .object(JSONObject(members)) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw JSONError(atEnd ? .unexpectedEnd : .expectedKey, at: position) }
            let keyStart = position
            let key = try parseString()
            // Small objects: linear scan; large ones switch to a set so hostile inputs stay linear.
            if members.count < 16 {
                for m in members where m.key == key { throw JSONError(.duplicateKey, at: keyStart) }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                guard seen!.insert(key).inserted else { throw JSONError(.duplicateKey, at: keyStart) }
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw JSONError(atEnd ? .unexpectedEnd : .expectedColon, at: position) }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            guard let c = peek() else { throw JSONError(.unexpectedEnd, at: position) }
            position += 1
            if c == UInt8(ascii: "}") { return .object(JSONObject(members)) }
            guard c == UInt8(ascii: ",") else { throw JSONError(.expectedCommaOrEnd, at: position - 1) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw JSONError(.tooDeep, at: position) }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard let c = peek() else { throw JSONError(.unexpectedEnd, at: position) }
            position += 1
            if c == UInt8(ascii: "]") { return .array(items) }
            guard c == UInt8(ascii: ",") else { throw JSONError(.expectedCommaOrEnd, at: position - 1) }
        }
    }

    private mutating func parseString() throws(JSONError) -> String {
        let start = position
        position += 1
        // Fast path: no escapes. Scan to the closing quote and validate UTF-8 once.
        let i = JSONScan.nextSpecial(input, from: position)
        guard i < input.count else { throw JSONError(.unexpectedEnd, at: start) }
        switch input[i] {
        case UInt8(ascii: "\""):
            let slice = UnsafeBufferPointer(rebasing: input[position..<i])
            // ASCII (ids, keys, base64: most of what relays send) needs no validation, and
            // `String(validating:)` is generic: it looked up type metadata on every call.
            let s: String
            if JSONScan.isASCII(input, from: position, to: i) { s = String(decoding: slice, as: UTF8.self) } else {
                guard let valid = String(validating: slice, as: UTF8.self) else { throw JSONError(.invalidUTF8, at: position) }
                s = valid
            }
            position = i + 1
            return s
        case UInt8(ascii: "\\"): break
        default: throw JSONError(.controlCharacterInString, at: i)
        }
        // Slow path with escapes.
        var out = [UInt8]()
        out.reserveCapacity(i - position + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<i]))
        position = i
        while true {
            guard position < input.count else { throw JSONError(.unexpectedEnd, at: start) }
            let c = input[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw JSONError(.invalidUTF8, at: start) }
                return s
            }
            if c < 0x20 { throw JSONError(.controlCharacterInString, at: position) }
            if c != UInt8(ascii: "\\") { out.append(c); position += 1; continue }
            position += 1
            guard let e = peek() else { throw JSONError(.unexpectedEnd, at: position) }
            position += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    guard position + 6 <= input.count, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u") else {
                        throw JSONError(.loneSurrogate, at: position)
                    }
                    position += 2
                    let low = try readHex4()
                    guard low >= 0xDC00 && low <= 0xDFFF else { throw JSONError(.loneSurrogate, at: position) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw JSONError(.loneSurrogate, at: position)
                }
                guard let u = Unicode.Scalar(scalar) else { throw JSONError(.invalidEscape, at: position) }
                out.append(contentsOf: UTF8.encode(u)!)
            default:
                throw JSONError(.invalidEscape, at: position - 1)
            }
        }
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= input.count else { throw JSONError(.unexpectedEnd, at: position) }
        var v: UInt32 = 0
        for k in 0..<4 {
            guard let n = Hex.nibble(input[position + k]) else { throw JSONError(.invalidEscape, at: position + k) }
            v = v << 4 | UInt32(n)
        }
        position += 4
        return v
    }

    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = position
        var isInteger = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), first >= 0x30 && first <= 0x39 else { throw JSONError(.invalidNumber, at: position) }
        if first == 0x30 {
            position += 1
            if let n = peek(), n >= 0x30 && n <= 0x39 { throw JSONError(.invalidNumber, at: position) }
        } else {
            while let d = peek(), d >= 0x30 && d <= 0x39 { position += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let d = peek(), d >= 0x30 && d <= 0x39 else { throw JSONError(.invalidNumber, at: position) }
            while let d = peek(), d >= 0x30 && d <= 0x39 { position += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { position += 1 }
            guard let d = peek(), d >= 0x30 && d <= 0x39 else { throw JSONError(.invalidNumber, at: position) }
            while let d = peek(), d >= 0x30 && d <= 0x39 { position += 1 }
        }
        guard position - start <= limits.maxNumberLength else { throw JSONError(.numberTooLong, at: start) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw JSONError(.numberOutOfRange, at: start) }
        return .double(d)
    }
}

public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case tooLarge = "input too large"
        case tooDeep = "nested too deeply"
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case trailingCharacters = "characters after the end of the document"
        case expectedKey = "expected a string key"
        case expectedColon = "expected ':'"
        case expectedCommaOrEnd = "expected ',' or a closing bracket"
        case duplicateKey = "duplicate object key"
        case controlCharacterInString = "raw control character in a string"
        case invalidEscape = "invalid escape sequence"
        case loneSurrogate = "unpaired UTF-16 surrogate escape"
        case invalidUTF8 = "invalid UTF-8"
        case invalidNumber = "malformed number"
        case numberTooLong = "number literal too long"
        case numberOutOfRange = "number out of range"
    }

    public let kind: Kind
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) { self.kind = kind; self.offset = offset }
    public var description: String { "invalid JSON: \(kind.rawValue) at byte \(offset)" }
}
