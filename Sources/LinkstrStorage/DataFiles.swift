import Foundation

/// What linkstr owns in its directories, by name. The wipe removes exactly these (then the directories
/// they leave empty), and a data directory is adopted only when it is new, empty or already holds some
/// of them: `--home .` in a project, or a script's `--home "$UNSET"`, must never make linkstr treat
/// someone else's files as its own.
public enum DataFiles {
    /// Where a file lives, which decides which names are linkstr's.
    enum Place { case home, identities, cache, config, themes, state }

    /// A name linkstr writes in `place` (files only; directories are handled by `ownedDirectories`).
    static func isOwnFile(_ name: String, in place: Place) -> Bool {
        switch place {
        case .home:
            if name == "lock" { return true }
            // The database, its journal files, and the temporary names a new one is built under.
            return name == "linkstr.sqlite3" || name.hasPrefix("linkstr.sqlite3-") || name.hasPrefix("linkstr.sqlite3.new-")
        case .identities:
            // Key files, the active marker, and temporary files (".<name>.partial-<uuid>", and the
            // ".<name>.<uuid>.tmp" of earlier versions).
            return name.hasSuffix(".ncryptsec") || name.hasSuffix(".unsaved") || name == "active"
                || (name.hasPrefix(".") && (name.hasSuffix(".tmp") || name.contains(".partial-")))
        case .cache:
            return false
        case .config:
            return name == "config.toml" || name == "keys.toml"
        case .themes:
            return name.hasSuffix(".toml")
        case .state:
            return name == "linkstr.log" || name.hasPrefix("linkstr.log.")
        }
    }

    /// A per-account cache directory: named by the account's 64-hex public key, all of it linkstr's.
    static func isAccountCache(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// True when `home` is a directory linkstr may use: missing, empty, or holding something of linkstr's
    /// (its database, lock, identities, log or config). Anything else is someone else's directory.
    public static func isAdoptable(_ paths: DataPaths) -> Bool {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: paths.home.path, isDirectory: &isDirectory) else { return true }
        guard isDirectory.boolValue else { return false }
        guard let names = try? fm.contentsOfDirectory(atPath: paths.home.path), !names.isEmpty else {
            // Empty, or unreadable: an unreadable directory fails later with its own clear error.
            return true
        }
        if names.contains(where: { isOwnFile($0, in: .home) || $0 == "identities" }) { return true }
        // A home laid out by `--home` keeps the log and config below it: linkstr's if they hold its files.
        for (sub, place) in [(paths.state, Place.state), (paths.config, .config)] where sub.path.hasPrefix(paths.home.path + "/") {
            if let inside = try? fm.contentsOfDirectory(atPath: sub.path), inside.contains(where: { isOwnFile($0, in: place) }) { return true }
        }
        return false
    }

    /// The words for a directory that `isAdoptable` refused.
    public static func refusal(_ paths: DataPaths) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: paths.home.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "\(paths.home.path) is a file, not a directory; choose a new or empty directory with --home."
        }
        return "\(paths.home.path) holds other files and no linkstr data; linkstr keeps its data in a directory of its own. "
            + "Choose a new or empty directory with --home."
    }
}
