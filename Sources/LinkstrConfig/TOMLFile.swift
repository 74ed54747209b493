/// A TOML document read with `TOMLParser`: the whole TOML 1.0 grammar, and errors that name the file,
/// line and column. Values are read by key with their expected type, so a wrong type is an error that
/// names the key, never a silent default.
public struct TOMLFile {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    let table: [String: TOMLValue]
    let source: String
    /// The dotted path of this table in the file ("" at the top), for messages.
    let path: String

    public static func parse(_ text: String, source: String) throws(Failure) -> TOMLFile {
        do {
            return TOMLFile(table: try TOMLParser.parse(text), source: source, path: "")
        } catch {
            throw Failure("\(source):\(error.line):\(error.column): \(error.message)")
        }
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func string(_ key: String) throws(Failure) -> String? {
        guard let value = table[key] else { return nil }
        guard let s = value.string else { throw Failure("\(source): \(name(key)) must be a \"quoted string\"") }
        return s
    }

    public func has(_ key: String) -> Bool { table[key] != nil }

    /// The keys of this table, sorted.
    public var keys: [String] { table.keys.sorted() }

    public func bool(_ key: String) throws(Failure) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let b = value.bool else { throw Failure("\(source): \(name(key)) must be true or false") }
        return b
    }

    public func int(_ key: String) throws(Failure) -> Int? {
        guard let value = table[key] else { return nil }
        guard let n = value.integer, let int = Int(exactly: n) else { throw Failure("\(source): \(name(key)) must be a whole number") }
        return int
    }

    public func strings(_ key: String) throws(Failure) -> [String]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array else { throw Failure("\(source): \(name(key)) must be an array of strings") }
        var out = [String]()
        for item in array {
            guard let s = item.string else { throw Failure("\(source): \(name(key)) must be an array of strings") }
            out.append(s)
        }
        return out
    }

    /// A sub-table (`[name]`); an empty one when the file has none.
    public func table(_ key: String) throws(Failure) -> TOMLFile {
        guard let value = table[key] else { return TOMLFile(table: [:], source: source, path: name(key)) }
        guard let t = value.table else { throw Failure("\(source): \(name(key)) must be a table") }
        return TOMLFile(table: t, source: source, path: name(key))
    }
}
