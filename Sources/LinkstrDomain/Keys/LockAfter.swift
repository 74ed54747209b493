/// `lock_after` in config.toml: how long the app may go without a key before it locks ("15m" by default;
/// "30s", "5m", "2h"; "off" never). Parsed here, once, for the app and its tests.
public enum LockAfter {
    public static let defaultSeconds: Int64 = 15 * 60
    /// Shorter than this would lock while someone reads a post.
    public static let shortest: Int64 = 1
    public static let longest: Int64 = 7 * 24 * 3600

    /// Seconds, nil for "off"; nil and `valid` false for text that is neither.
    public static func parse(_ text: String) -> (seconds: Int64?, valid: Bool) {
        let t = text.trimmingWhitespace().lowercased()
        if t == "off" { return (nil, true) }
        guard let unit = t.last, let number = Int64(t.dropLast()), number > 0 else { return (nil, false) }
        let scale: Int64
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        default: return (nil, false)
        }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow, (shortest...longest).contains(seconds) else { return (nil, false) }
        return (seconds, true)
    }
}
