import Foundation

/// Colours as RGB, from a theme file. The terminal backend maps them to true colour, 256 or 16 colours.
public struct RGB: Equatable, Hashable, Sendable {
    public var r, g, b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) { self.r = r; self.g = g; self.b = b }
    public init?(hex: String) {
        let h = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard h.count == 6, let v = UInt32(h, radix: 16) else { return nil }
        r = UInt8(v >> 16 & 0xFF); g = UInt8(v >> 8 & 0xFF); b = UInt8(v & 0xFF)
    }
}

public struct Theme: Equatable, Sendable {
    public var name: String
    public var foreground: [Role: RGB]
    public var background: RGB
    public var selectionBackground: RGB
    public var barBackground: RGB

    public static let names = ["night", "storm", "moon", "day"]

    /// `themes/tokyo-night-<variant>.toml`: searched in the config directory, next to the executable and in the source tree.
    public static func load(_ variant: String, configDirectory: URL?) throws -> Theme {
        let file = "tokyo-night-\(variant).toml"
        var candidates = [URL]()
        if let configDirectory { candidates.append(configDirectory.appendingPathComponent("themes/\(file)")) }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates += [exe.appendingPathComponent("themes/\(file)"), exe.deletingLastPathComponent().appendingPathComponent("share/linkstr/themes/\(file)")]
        // Installed themes: $XDG_DATA_HOME (~/.local/share), then each of $XDG_DATA_DIRS.
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (NSHomeDirectory() + "/.local/share")
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share").split(separator: ":")
        for base in [dataHome] + dataDirs.map(String.init) where base.hasPrefix("/") {
            candidates.append(URL(fileURLWithPath: base).appendingPathComponent("linkstr/themes/\(file)"))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("themes/\(file)"))
        for url in candidates {
            if let text = try? String(contentsOf: url, encoding: .utf8) { return try parse(text, source: url.path) }
        }
        if let builtIn = builtIn[variant] { return try parse(builtIn, source: "built-in \(variant)") }
        throw ThemeError("no theme named \(variant) (choose one of \(names.joined(separator: ", ")))")
    }

    public static func parse(_ text: String, source: String) throws -> Theme {
        let toml = try MiniTOML.parse(text, source: source)
        let palette = toml["palette"] ?? [:]
        func color(_ value: MiniTOML.Value?, _ what: String) throws -> RGB {
            guard case .string(let s)? = value else { throw ThemeError("\(source): \(what) is missing") }
            if let rgb = RGB(hex: s) { return rgb }
            guard case .string(let hex)? = palette[s], let rgb = RGB(hex: hex) else { throw ThemeError("\(source): \(what) names unknown colour \(s)") }
            return rgb
        }
        let roles = toml["roles"] ?? [:]
        let keys: [(Role, String)] = [(.text, "text"), (.dim, "dim"), (.title, "title"), (.accent, "accent"), (.selection, "selection"),
            (.unread, "unread"), (.success, "success"), (.warning, "warning"), (.error, "error"), (.link, "link"), (.note, "note"),
            (.label, "label"), (.border, "border"), (.secret, "secret"), (.dotConnecting, "dot_connecting"), (.dotConnected, "dot_connected"),
            (.dotReadOnly, "dot_read_only"), (.dotFailed, "dot_failed"), (.dotDisabled, "dot_disabled")]
        var fg = [Role: RGB]()
        for (role, key) in keys { fg[role] = try color(roles[key], "roles.\(key)") }
        fg[.tabActive] = fg[.title]; fg[.tabInactive] = fg[.dim]; fg[.statusBar] = fg[.text]; fg[.qr] = fg[.text]
        guard case .array(let avatars)? = roles["avatars"], avatars.count == 8 else { throw ThemeError("\(source): roles.avatars needs 8 colours") }
        for (i, a) in avatars.enumerated() { fg[Role.avatar(i)] = try color(.string(a), "roles.avatars[\(i)]") }
        let bg = toml["background"] ?? [:]
        guard case .string(let name)? = toml[""]?["name"] else { throw ThemeError("\(source): name is missing") }
        return Theme(name: name, foreground: fg, background: try color(bg["base"], "background.base"),
                     selectionBackground: try color(bg["selection"], "background.selection"), barBackground: try color(bg["bar"], "background.bar"))
    }

    /// Used when no theme file can be found (an installed binary without its share directory).
    static let builtIn: [String: String] = ["night": """
        name = "Tokyo Night Night"
        [palette]
        bg = "#1a1b26"
        [roles]
        text = "#c0caf5"
        dim = "#565f89"
        title = "#7aa2f7"
        accent = "#bb9af7"
        selection = "#c0caf5"
        unread = "#ff9e64"
        success = "#9ece6a"
        warning = "#e0af68"
        error = "#f7768e"
        link = "#7dcfff"
        note = "#e0af68"
        label = "#1abc9c"
        border = "#414868"
        secret = "#f7768e"
        dot_connecting = "#e0af68"
        dot_connected = "#9ece6a"
        dot_read_only = "#7aa2f7"
        dot_failed = "#f7768e"
        dot_disabled = "#565f89"
        avatars = ["#7aa2f7", "#7dcfff", "#bb9af7", "#9ece6a", "#e0af68", "#ff9e64", "#f7768e", "#1abc9c"]
        [background]
        base = "#1a1b26"
        selection = "#292e42"
        bar = "#16161e"
        """]
}

public struct ThemeError: Error, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}

/// The part of TOML theme files use: `[table]` headers, `key = "string"` or `key = ["a", "b"]`, comments.
/// Anything else is an error with its line number, never a guess.
public enum MiniTOML {
    public enum Value: Equatable, Sendable { case string(String), array([String]), bool(Bool) }

    public static func parse(_ text: String, source: String) throws -> [String: [String: Value]] {
        var tables: [String: [String: Value]] = ["": [:]]
        var current = ""
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw ThemeError("\(source):\(n + 1): unclosed table header") }
                current = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                tables[current, default: [:]] = tables[current] ?? [:]
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { throw ThemeError("\(source):\(n + 1): expected key = value") }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw ThemeError("\(source):\(n + 1): bad key")
            }
            if value.hasPrefix("[") {
                guard value.hasSuffix("]") else { throw ThemeError("\(source):\(n + 1): unclosed array") }
                let items = try value.dropFirst().dropLast().split(separator: ",").map { item -> String in
                    try string(item.trimmingCharacters(in: .whitespaces), source, n + 1)
                }
                tables[current]![key] = .array(items)
            } else if value == "true" || value == "false" {
                tables[current]![key] = .bool(value == "true")
            } else {
                tables[current]![key] = .string(try string(value, source, n + 1))
            }
        }
        return tables
    }

    private static func string(_ v: String, _ source: String, _ line: Int) throws -> String {
        guard v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\""), !v.dropFirst().dropLast().contains("\"") else {
            throw ThemeError("\(source):\(line): expected a \"quoted string\"")
        }
        return String(v.dropFirst().dropLast())
    }

    private static func stripComment(_ line: String) -> String {
        var inString = false
        for (i, c) in line.enumerated() {
            if c == "\"" { inString.toggle() }
            if c == "#" && !inString { return String(line.prefix(i)) }
        }
        return line
    }
}
