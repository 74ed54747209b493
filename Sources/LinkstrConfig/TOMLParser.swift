// Why our own: toml++ (inside TOMLKit) aborts the process on inputs a typo makes (`[[`, `a = [}`,
// `[#`): over 200 assertions guard its parser, and in a release build they become undefined behaviour.
// This reader answers every input, valid or not, with a value or one error naming line and column; it
// is checked against toml-lang's toml-test corpus and a fuzz test.

/// Reads a TOML 1.0 document into a table of `TOMLValue`s, or fails with the first error's place.
struct TOMLParser {
    struct Failure: Error, Equatable {
        let line: Int, column: Int, message: String
    }

    /// A table while the file is read: how it came to be decides what may still be added to it.
    final class Node {
        enum Origin { case implicit, header, dotted, inline }
        var origin: Origin
        var entries: [String: Entry] = [:]
        init(_ origin: Origin) { self.origin = origin }
    }

    enum Entry {
        case value(TOMLValue)
        case table(Node)
        case tables([Node])  // [[array of tables]]

        var frozen: TOMLValue {
            switch self {
            case .value(let v): v
            case .table(let n): .table(n.entries.mapValues(\.frozen))
            case .tables(let ns): .array(ns.map { .table($0.entries.mapValues(\.frozen)) })
            }
        }
    }

    static let maximumDepth = 100

    let b: [UInt8]
    var i = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    static func parse(_ text: String) throws(Failure) -> [String: TOMLValue] {
        var parser = TOMLParser(b: Array(text.utf8))
        if parser.b.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3; parser.lineStart = 3 }  // a byte order mark
        let root = try parser.document()
        return root.entries.mapValues(\.frozen)
    }

    private init(b: [UInt8]) { self.b = b }

    // MARK: - Places and errors

    func fail(_ message: String, at index: Int? = nil) -> Failure {
        let k = min(index ?? i, b.count)
        // Columns count characters, not bytes (UTF-8 continuation bytes are not counted).
        var column = 1
        var j = lineStart
        while j < k { if b[j] & 0xC0 != 0x80 { column += 1 }; j += 1 }
        return Failure(line: line, column: column, message: message)
    }

    func peek(_ offset: Int = 0) -> UInt8? { i + offset < b.count ? b[i + offset] : nil }

    func describe(_ c: UInt8?) -> String {
        guard let c else { return "the end of the file" }
        switch c {
        case 0x0A, 0x0D: return "a line end"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(c)))'"
        default: return c < 0x20 || c == 0x7F ? "a control character" : "a non-ASCII character"
        }
    }

    mutating func newline() { i += 1; line += 1; lineStart = i }

    mutating func skipBlanks() { while let c = peek(), c == 0x20 || c == 0x09 { i += 1 } }

    /// A comment runs to the line end and may hold no control character but a tab.
    mutating func skipComment() throws(Failure) {
        guard peek() == 0x23 else { return }
        i += 1
        while let c = peek(), c != 0x0A {
            if c == 0x0D, peek(1) == 0x0A { return }
            if (c < 0x20 && c != 0x09) || c == 0x7F { throw fail("a comment cannot hold a control character") }
            i += 1
        }
    }

    /// A line end (\n or \r\n) or the end of the file.
    mutating func endOfLine(after what: String) throws(Failure) {
        skipBlanks()
        try skipComment()
        guard let c = peek() else { return }
        if c == 0x0A { newline(); return }
        if c == 0x0D, peek(1) == 0x0A { i += 1; newline(); return }
        throw fail("expected a line end after \(what), found \(describe(c))")
    }

    // MARK: - Document and tables

    mutating func document() throws(Failure) -> Node {
        let root = Node(.header)
        var current = root
        while true {
            try skipBlankLines()
            guard let c = peek() else { break }
            switch c {
            case 0x5B:
                let start = i
                if peek(1) == 0x5B {
                    i += 2
                    let key = try self.key()
                    guard peek() == 0x5D, peek(1) == 0x5D else { throw fail("expected ]] to close the header, found \(describe(peek()))") }
                    i += 2
                    current = try appendTable(root, key, at: start)
                    try endOfLine(after: "[[\(key.joined(separator: "."))]]")
                } else {
                    i += 1
                    let key = try self.key()
                    guard peek() == 0x5D else { throw fail("expected ] to close the header, found \(describe(peek()))") }
                    i += 1
                    current = try defineTable(root, key, at: start)
                    try endOfLine(after: "[\(key.joined(separator: "."))]")
                }
            default:
                try keyValue(into: current)
                try endOfLine(after: "a value")
            }
        }
        return root
    }

    /// Walks a dotted path's leading keys from `node`, creating tables that are not there yet.
    func walk(_ node: Node, _ keys: ArraySlice<String>, creating origin: Node.Origin, at start: Int) throws(Failure) -> Node {
        var node = node
        for k in keys {
            switch node.entries[k] {
            case nil:
                let next = Node(origin)
                node.entries[k] = .table(next)
                node = next
            case .table(let next):
                if next.origin == .inline { throw fail("\(k) is an inline table and cannot be extended", at: start) }
                if origin == .dotted && next.origin == .header { throw fail("\(k) is a table defined by a header and cannot be extended with dotted keys", at: start) }
                node = next
            case .tables(let list):
                if origin == .dotted { throw fail("\(k) is an array of tables and cannot be extended with dotted keys", at: start) }
                node = list[list.count - 1]
            case .value:
                throw fail("\(k) already holds a value", at: start)
            }
        }
        return node
    }

    func defineTable(_ root: Node, _ key: [String], at start: Int) throws(Failure) -> Node {
        let parent = try walk(root, key.dropLast(), creating: .implicit, at: start)
        let last = key[key.count - 1]
        let name = key.joined(separator: ".")
        switch parent.entries[last] {
        case nil:
            let node = Node(.header)
            parent.entries[last] = .table(node)
            return node
        case .table(let node) where node.origin == .implicit:
            node.origin = .header
            return node
        default:
            throw fail("[\(name)] is defined twice", at: start)
        }
    }

    func appendTable(_ root: Node, _ key: [String], at start: Int) throws(Failure) -> Node {
        let parent = try walk(root, key.dropLast(), creating: .implicit, at: start)
        let last = key[key.count - 1]
        let node = Node(.header)
        switch parent.entries[last] {
        case nil: parent.entries[last] = .tables([node])
        case .tables(let list): parent.entries[last] = .tables(list + [node])
        default: throw fail("[[\(key.joined(separator: "."))]] names something that is not an array of tables", at: start)
        }
        return node
    }

    /// `key = value`, the key possibly dotted, into `table`.
    mutating func keyValue(into table: Node) throws(Failure) {
        let start = i
        let key = try self.key()
        guard peek() == 0x3D else { throw fail("expected = after the key \(key.joined(separator: ".")), found \(describe(peek()))") }
        i += 1
        skipBlanks()
        let value = try self.value()
        let parent = try walk(table, key.dropLast(), creating: .dotted, at: start)
        let last = key[key.count - 1]
        guard parent.entries[last] == nil else { throw fail("\(key.joined(separator: ".")) is defined twice", at: start) }
        parent.entries[last] = value
    }

    // MARK: - Keys

    static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
    }

    /// A dotted key: simple keys (bare or quoted) joined by dots, blanks allowed around each.
    mutating func key() throws(Failure) -> [String] {
        var parts = [String]()
        while true {
            skipBlanks()
            guard let c = peek() else { throw fail("expected a key, found the end of the file") }
            if c == 0x22 || c == 0x27 {
                if peek(1) == c && peek(2) == c { throw fail("a key cannot be a multi-line string") }
                parts.append(try singleLineString())
            } else if Self.isBare(c) {
                let s = i
                while let d = peek(), Self.isBare(d) { i += 1 }
                parts.append(String(decoding: b[s..<i], as: UTF8.self))
            } else {
                throw fail("expected a key (letters, digits, - and _, or a quoted name), found \(describe(c))")
            }
            skipBlanks()
            guard peek() == 0x2E else { return parts }
            i += 1
        }
    }

    // MARK: - Values

    mutating func value() throws(Failure) -> Entry {
        guard let c = peek() else { throw fail("expected a value, found the end of the file") }
        switch c {
        case 0x22, 0x27:
            if peek(1) == c && peek(2) == c { return .value(.string(try multiLineString())) }
            return .value(.string(try singleLineString()))
        case 0x5B: return .value(try array())
        case 0x7B: return .table(try inlineTable())
        case 0x74 where matches("true"): i += 4; return .value(.bool(true))
        case 0x66 where matches("false"): i += 5; return .value(.bool(false))
        default:
            guard c == 0x2B || c == 0x2D || c == 0x2E || Self.isBare(c) else { throw fail("expected a value, found \(describe(c))") }
            return .value(try numberOrDate())
        }
    }

    func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<i + w.count]) == w else { return false }
        if let next = peek(w.count), Self.isBare(next) { return false }
        return true
    }

    mutating func nest() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("values are nested more than \(Self.maximumDepth) deep") }
    }

    /// Blanks, line ends and comments: between statements, and inside an array.
    mutating func skipBlankLines() throws(Failure) {
        while let c = peek() {
            switch c {
            case 0x20, 0x09: i += 1
            case 0x0A: newline()
            case 0x0D:
                guard peek(1) == 0x0A else { throw fail("a carriage return must be followed by a line feed") }
                i += 1
            case 0x23: try skipComment()
            default: return
            }
        }
    }

    mutating func array() throws(Failure) -> TOMLValue {
        try nest()
        defer { depth -= 1 }
        i += 1
        var items = [TOMLValue]()
        while true {
            try skipBlankLines()
            if peek() == 0x5D { i += 1; return .array(items) }
            items.append(try value().frozen)
            try skipBlankLines()
            switch peek() {
            case 0x2C: i += 1
            case 0x5D: i += 1; return .array(items)
            default: throw fail("expected , or ] in the array, found \(describe(peek()))")
            }
        }
    }

    /// `{ a = 1, b.c = 2 }` on one line, no trailing comma (TOML 1.0).
    mutating func inlineTable() throws(Failure) -> Node {
        try nest()
        defer { depth -= 1 }
        i += 1
        let node = Node(.inline)
        // The table's own dotted keys may build sub-tables; they are closed once the brace is.
        node.origin = .implicit
        skipBlanks()
        if peek() == 0x7D { i += 1; node.origin = .inline; return node }
        while true {
            try keyValue(into: node)
            skipBlanks()
            switch peek() {
            case 0x2C:
                i += 1
                skipBlanks()
                if peek() == 0x7D { throw fail("an inline table cannot end with a comma") }
            case 0x7D:
                i += 1
                close(node)
                return node
            default: throw fail("expected , or } in the inline table, found \(describe(peek()))")
            }
        }
    }

    func close(_ node: Node) {
        node.origin = .inline
        for case .table(let child) in node.entries.values { close(child) }
    }
}
