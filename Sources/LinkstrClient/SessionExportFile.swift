import Foundation
import LinkstrDomain
import LinkstrStorage

/// A session exported to a file, for `linkstr export --output` and the app's `:export-session`: never
/// inside the data directory (an export is plaintext), written whole or not at all (0600), an existing
/// file replaced only when asked to.
public enum SessionExportFile {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case noSession
        case exists(String)
        case insideDataDirectory(String)
        case cannotWrite(String)

        public var description: String {
            switch self {
            case .noSession: return "no such session."
            case .exists(let path): return "\(path) exists."
            case .insideDataDirectory(let home):
                return "an export is plaintext: it is never written inside the data directory (\(home)). Choose another place."
            case .cannotWrite(let why): return why
            }
        }
    }

    /// The path as it will be written: `~` expanded, made absolute and free of symbolic links.
    public static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: NSString(string: path).expandingTildeInPath).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Writes the export; answers how many posts it holds.
    @discardableResult
    public static func write(_ store: AccountStore, me: Pubkey, sessionID: String, to typedPath: String, format: ExportFormat,
                             since: Int64? = nil, replacing: Bool, dataDirectory: URL, now: Int64,
                             thumbnails: MediaCache? = nil) throws(Failure) -> ExportedSession {
        let path = resolved(typedPath)
        let home = dataDirectory.standardizedFileURL.resolvingSymlinksInPath().path
        if path == home || path.hasPrefix(home + "/") { throw .insideDataDirectory(home) }
        let exists = FileManager.default.fileExists(atPath: path)
        if exists, !replacing { throw .exists(path) }
        let exported: ExportedSession
        do {
            guard let read = try SessionExportReader.read(store, me: me, sessionID: sessionID, since: since, now: now, thumbnails: thumbnails) else {
                throw Failure.noSession
            }
            exported = read
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .cannotWrite("the session could not be read: \(error)")
        }
        let data = Data(SessionExport.write(exported, as: format).utf8)
        do {
            if exists { try PrivateFile.replace(data, at: path) } else { try PrivateFile.create(data, at: path) }
        } catch {
            throw .cannotWrite("could not write \(path): \(error); nothing was kept.")
        }
        return exported
    }

    /// The format a file's name asks for (`.html`, `.json`; anything else Markdown).
    public static func format(forPath path: String) -> ExportFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html", "htm": return .html
        case "json": return .json
        default: return .md
        }
    }
}
