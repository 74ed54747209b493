import Foundation

/// A file operation's error in words: Foundation's errors often read "The operation could not be
/// completed. (NSCocoaErrorDomain error 256.)"; the system's reason under them ("Permission denied",
/// "No space left on device") is what a person can act on.
public enum FileErrorWords {
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch ns.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "No such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "Permission denied"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileReadInapplicableStringEncodingError: return "not UTF-8 text"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        default: return "\(ns.localizedFailureReason ?? ns.localizedDescription)"
        }
    }
}
