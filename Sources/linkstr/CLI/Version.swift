import Foundation

/// linkstr's version and the commit it was built from.
enum Version {
    static let number = "0.3.0"

    /// "0.3.0 (commit abc1234)": the commit from `share/linkstr/commit` next to an installed binary
    /// (written by scripts/install), else from the source tree's `.git` the binary was built in.
    static var full: String { "\(number) (commit \(commit ?? "unknown"))" }

    static var commit: String? {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = exe.deletingLastPathComponent().appendingPathComponent("share/linkstr/commit")
        if let text = try? String(contentsOf: installed, encoding: .utf8) { return clean(text) }
        let git = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".git")
        guard let head = try? String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8) else { return nil }
        let trimmed = head.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("ref: ") else { return clean(trimmed) }
        let ref = String(trimmed.dropFirst(5))
        if let loose = try? String(contentsOf: git.appendingPathComponent(ref), encoding: .utf8) { return clean(loose) }
        let packed = (try? String(contentsOf: git.appendingPathComponent("packed-refs"), encoding: .utf8)) ?? ""
        return packed.split(separator: "\n").first { $0.hasSuffix(" " + ref) }.map { clean(String($0.prefix(40))) } ?? nil
    }

    static func clean(_ text: String) -> String? {
        let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard hex.count >= 7, hex.allSatisfy(\.isHexDigit) else { return nil }
        return String(hex.prefix(12))
    }
}
