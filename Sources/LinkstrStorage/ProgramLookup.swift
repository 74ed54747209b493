import Foundation

/// A program named on a command line: a path as it is, else the first match on `PATH` (as a shell finds
/// it). One lookup for every program linkstr starts (mpv, yt-dlp, a passphrase command).
public enum ProgramLookup {
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }
}
