import Foundation
import LinkstrConfig

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
        for (i, url) in candidates.enumerated() {
            // The config directory's own theme: refused with its reason (another user's, or writable by
            // others); the installed ones are tried in turn.
            if i == 0, configDirectory != nil, let text = try ConfigText.read(url) { return try parse(text, source: url.path) }
            if case .some(let text?) = try? ConfigText.read(url) { return try parse(text, source: url.path) }
        }
        if let builtIn = builtIn[variant] { return try parse(builtIn, source: "built-in \(variant)") }
        throw ThemeError("no theme named \(variant) (choose one of \(names.joined(separator: ", ")))")
    }

    public static func parse(_ text: String, source: String) throws -> Theme {
        let toml: TOMLFile, palette: TOMLFile, roles: TOMLFile, bg: TOMLFile
        do {
            toml = try TOMLFile.parse(text, source: source)
            (palette, roles, bg) = (try toml.table("palette"), try toml.table("roles"), try toml.table("background"))
        } catch { throw ThemeError("\(error)") }
        func color(_ value: String?, _ what: String) throws -> RGB {
            guard let s = value else { throw ThemeError("\(source): \(what) is missing") }
            if let rgb = RGB(hex: s) { return rgb }
            guard let hex = try? palette.string(s), let rgb = RGB(hex: hex) else { throw ThemeError("\(source): \(what) names unknown colour \(s)") }
            return rgb
        }
        func value(_ table: TOMLFile, _ key: String) throws -> String? {
            do { return try table.string(key) } catch { throw ThemeError(error.description) }
        }
        let keys: [(Role, String)] = [(.text, "text"), (.dim, "dim"), (.title, "title"), (.accent, "accent"), (.selection, "selection"),
            (.unread, "unread"), (.success, "success"), (.warning, "warning"), (.error, "error"), (.link, "link"), (.note, "note"),
            (.label, "label"), (.border, "border"), (.secret, "secret"), (.dotConnecting, "dot_connecting"), (.dotConnected, "dot_connected"),
            (.dotReadOnly, "dot_read_only"), (.dotFailed, "dot_failed"), (.dotDisabled, "dot_disabled")]
        var fg = [Role: RGB]()
        for (role, key) in keys { fg[role] = try color(try value(roles, key), "roles.\(key)") }
        fg[.tabActive] = fg[.title]; fg[.tabInactive] = fg[.dim]; fg[.statusBar] = fg[.text]; fg[.qr] = fg[.text]
        guard let avatars = try? roles.strings("avatars"), avatars.count == 8 else { throw ThemeError("\(source): roles.avatars needs 8 colours") }
        for (i, a) in avatars.enumerated() { fg[Role.avatar(i)] = try color(a, "roles.avatars[\(i)]") }
        guard let name = try value(toml, "name") else { throw ThemeError("\(source): name is missing") }
        return Theme(name: name, foreground: fg, background: try color(try value(bg, "base"), "background.base"),
                     selectionBackground: try color(try value(bg, "selection"), "background.selection"),
                     barBackground: try color(try value(bg, "bar"), "background.bar"))
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
