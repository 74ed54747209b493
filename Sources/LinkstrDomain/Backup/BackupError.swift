/// Why a backup was refused, worded for people. A refused backup changes nothing.
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not this format at all.
    case notABackup(String)
    /// Written by a newer app.
    case newerVersion
    /// Over a wire 2026 §8 limit.
    case tooLarge(String)
    /// A field or record breaks a wire 2026 §8 rule.
    case invalid(String)
    /// It disagrees with what is stored here (another creator, another post under the same id…).
    case conflict(String)
    /// Our encrypted form: wrong passphrase or damaged file.
    case cannotOpen(String)

    public var description: String {
        switch self {
        case .notABackup(let m): return m
        case .newerVersion: return "update linkstr to restore this backup."
        case .tooLarge(let m): return "backup too large: \(m)"
        case .invalid(let m): return "invalid backup: \(m)"
        case .conflict(let m): return "backup conflicts with this device's data: \(m) nothing was restored."
        case .cannotOpen(let m): return m
        }
    }

    /// An id from the file, safe to print: one line, no control characters, at most 64 characters.
    static func quote(_ id: String) -> String {
        let line = DisplayText.singleLine(id)
        return line.count > 64 ? String(line.prefix(63)) + "…" : line
    }

    /// "sessions[3].creator", for messages.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for k in keys {
            if let i = k.intValue { out += "[\(i)]" } else { out += out.isEmpty ? k.stringValue : "." + k.stringValue }
        }
        return out.isEmpty ? "the top level" : out
    }
}
