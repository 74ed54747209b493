import Foundation
import LinkstrDomain
import LinkstrStorage

/// The text of a file in the config directory (`config.toml`, `keys.toml`, a theme): nil when there is
/// none, read up to `InputLimits.configFile`, and an error naming the file and the reason otherwise.
public enum ConfigText {
    public static func read(_ url: URL) throws(TOMLFile.Failure) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        // What it holds is run (`player`, hooks) or shown: only a file of ours (or root's) that no one else can write.
        if let why = FileTrust.distrust(url.path) { throw TOMLFile.Failure(why + ".") }
        let bytes: [UInt8]
        do throws(BoundedRead.Failure) { bytes = try BoundedRead.file(url.path, limit: InputLimits.configFile, what: "the file") } catch {
            throw TOMLFile.Failure(error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw TOMLFile.Failure("\(url.path): is not UTF-8 text") }
        return text
    }
}
