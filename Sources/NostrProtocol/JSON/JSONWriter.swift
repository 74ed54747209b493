/// Compact JSON output. Strings are escaped exactly as NIP-01's canonical form asks
/// (\n \" \\ \r \t \b \f; other control characters as \u00xx, as JSON.stringify does);
/// `/` and non-ASCII are written verbatim.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Also escape what a terminal could act on (DEL, C1 controls, bidi and other format characters, line
    /// and paragraph separators) as `\uXXXX`. Lossless for JSON readers; never used for event ids, whose
    /// canonical form NIP-01 fixes.
    public var escapesTerminalControls = false

    public init(capacity: Int = 256, escapesTerminalControls: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.escapesTerminalControls = escapesTerminalControls
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .integer(let i): write(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 9.0e15 { write(Int64(d)) } else { raw(d.description) }
        case .string(let s): write(s)
        case .array(let items):
            bytes.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                write(item)
            }
            bytes.append(0x5D)
        case .object(let object):
            bytes.append(0x7B)
            for (i, m) in object.members.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                write(m.key)
                bytes.append(0x3A)
                write(m.value)
            }
            bytes.append(0x7D)
        }
    }

    public mutating func write(_ i: Int64) { raw(String(i)) }
    public mutating func write(_ i: Int) { raw(String(i)) }

    public mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }
    public mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    public mutating func write(_ s: String) {
        if escapesTerminalControls { return writeTerminalSafe(s) }
        bytes.append(0x22)
        var copy = s
        copy.withUTF8 { utf8 in
            var runStart = 0
            while true {
                let i = JSONScan.nextSpecial(utf8, from: runStart)
                guard i < utf8.count else { break }
                let c = utf8[i]
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                switch c {
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(0x5C); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(0x5C); bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0x0F)]])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        }
        bytes.append(0x22)
    }

    public mutating func write(_ strings: [String]) {
        bytes.append(0x5B)
        for (i, s) in strings.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            write(s)
        }
        bytes.append(0x5D)
    }

    public static func encode(_ value: JSONValue) -> String {
        var w = JSONWriter()
        w.write(value)
        return w.string
    }

    /// JSON for terminals and scripts: remote text cannot carry a live control or bidi character.
    public static func encodeTerminalSafe(_ value: JSONValue) -> String {
        var w = JSONWriter(escapesTerminalControls: true)
        w.write(value)
        return w.string
    }

    private mutating func writeTerminalSafe(_ s: String) {
        bytes.append(0x22)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        func escape16(_ unit: UInt16) {
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), hex[Int(unit >> 12)], hex[Int(unit >> 8 & 0xF)], hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]])
        }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0x20..<0x7F: bytes.append(UInt8(scalar.value))
            default:
                if Self.isTerminalControl(scalar) {
                    for unit in String(scalar).utf16 { escape16(unit) }
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        bytes.append(0x22)
    }

    /// C0/C1 controls, DEL, format characters (bidi overrides and isolates, zero-width ones) and line/paragraph separators.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
