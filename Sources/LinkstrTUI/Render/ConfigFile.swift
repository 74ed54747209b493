import Foundation

/// `config.toml` in the config directory: `theme = "storm"`, `link_previews = false`, `session_requests = false`,
/// `tls_ca_file = "…"`. A missing file is
/// fine, a malformed one is an error that names the line.
public enum ConfigFile {
    public static func theme(in configDirectory: URL) throws -> String? {
        guard case .string(let name)? = try top(configDirectory)["theme"] else { return nil }
        return name
    }

    /// Whether the app fetches titles of shared pages (which tells those sites our address). Default: yes.
    public static func linkPreviews(in configDirectory: URL) throws -> Bool {
        guard case .bool(let on)? = try top(configDirectory)["link_previews"] else { return true }
        return on
    }

    /// `session_requests`: whether sessions from people who are not contacts wait as requests. Default: yes.
    public static func sessionRequests(in configDirectory: URL) throws -> Bool {
        guard case .bool(let on)? = try top(configDirectory)["session_requests"] else { return true }
        return on
    }

    /// `tls_ca_file`: a PEM file of CA certificates trusted besides the system's (self-hosted relays with
    /// their own CA). `~` is the home directory; a relative path is relative to the config directory.
    public static func tlsCAFile(in configDirectory: URL) throws -> String? {
        guard case .string(let path)? = try top(configDirectory)["tls_ca_file"], !path.isEmpty else { return nil }
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : configDirectory.appendingPathComponent(expanded).path
    }

    private static func top(_ configDirectory: URL) throws -> [String: MiniTOML.Value] {
        let url = configDirectory.appendingPathComponent("config.toml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        return try MiniTOML.parse(text, source: url.path)[""] ?? [:]
    }
}
