import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a file or directory of ours can be trusted with our secrets and with what we run:
/// as ssh judges `~/.ssh`, it must be owned by us (or by root, as installed themes are) and writable by
/// no one else. A home owned by another user used to be adopted (only chmodded to 0700): that user could
/// chmod it back and plant `config/config.toml` with a `player` of their own, run as us.
public enum FileTrust {
    /// Why `path` cannot be trusted, in words; nil when it can, or does not exist. Symbolic links are
    /// followed (the file read is what counts).
    public static func distrust(_ path: String, allowRoot: Bool = true) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let me = geteuid()
        if info.st_uid != me && !(allowRoot && info.st_uid == 0) {
            return "\(path) belongs to another user (uid \(info.st_uid)); linkstr uses only files and directories of yours: "
                + "change its owner (chown) or choose another place"
        }
        if info.st_mode & 0o022 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return "\(path) can be written by other users (mode \(mode)); make it yours alone (chmod go-w \(path))"
        }
        return nil
    }
}
