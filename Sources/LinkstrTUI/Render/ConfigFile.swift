import Foundation

/// `config.toml` in the config directory. Only `theme = "storm"` is read today; a missing file is fine,
/// a malformed one is an error that names the line.
public enum ConfigFile {
    public static func theme(in configDirectory: URL) throws -> String? {
        let url = configDirectory.appendingPathComponent("config.toml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let toml = try MiniTOML.parse(text, source: url.path)
        guard case .string(let name)? = toml[""]?["theme"] else { return nil }
        return name
    }
}
