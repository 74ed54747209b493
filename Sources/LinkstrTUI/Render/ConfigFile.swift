import Foundation
import LinkstrApp

/// `config.toml` in the config directory: `theme = "storm"`, `link_previews = false`, `session_requests = false`,
/// `tls_ca_file = "…"`. A missing file is fine; a malformed one, or a key with the wrong type, is an error
/// that names the file and the line or key.
public struct ConfigFile: Equatable, Sendable {
    public var theme: String?
    /// Whether the app fetches titles of shared pages (which tells those sites our address). Default: yes.
    public var linkPreviews = true
    /// Whether sessions from people who are not contacts wait as requests. Default: yes.
    public var sessionRequests = true
    /// A PEM file of CA certificates trusted besides the system's (self-hosted relays with their own CA).
    public var tlsCAFile: String?
    /// How news is announced: "both" (default), "bell", "desktop" or "off".
    public var notify: NotifyMode = .both
    /// The app takes the mouse (clicks, wheel) only when asked: otherwise the terminal keeps it for selecting text.
    public var mouse = false

    public init() {}

    /// Reads the file once; `~` is the home directory, a relative `tls_ca_file` is relative to the config directory.
    public static func load(in configDirectory: URL) throws -> ConfigFile {
        let url = configDirectory.appendingPathComponent("config.toml")
        var config = ConfigFile()
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return config }
            throw TOMLFile.Failure("\(url.path): cannot be read (\((error as NSError).localizedDescription))")
        }
        let toml = try TOMLFile.parse(text, source: url.path)
        config.theme = try toml.string("theme")
        config.linkPreviews = try toml.bool("link_previews") ?? true
        config.sessionRequests = try toml.bool("session_requests") ?? true
        config.mouse = try toml.bool("mouse") ?? false
        if let mode = try toml.string("notify") {
            guard let parsed = NotifyMode(rawValue: mode) else {
                throw TOMLFile.Failure("\(url.path): notify is \"both\", \"bell\", \"desktop\" or \"off\"")
            }
            config.notify = parsed
        }
        if let path = try toml.string("tls_ca_file"), !path.isEmpty {
            let expanded = (path as NSString).expandingTildeInPath
            config.tlsCAFile = expanded.hasPrefix("/") ? expanded : configDirectory.appendingPathComponent(expanded).path
        }
        return config
    }
}
