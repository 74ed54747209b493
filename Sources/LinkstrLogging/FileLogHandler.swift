import Foundation
import Logging
import Synchronization

/// swift-log's handler for linkstr: one line per entry appended to `linkstr.log` (0600, in a 0700
/// directory), rotated to `linkstr.log.1` at 1 MiB.
///
/// What is logged is decided where it is logged, and never includes secrets or content: no keys, no
/// notes, no links, no names. Relay traffic is summarised (connections, counts, refusals by prefix).
public struct FileLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let file: LogFile

    public init(label: String, file: LogFile, level: Logger.Level) {
        self.label = label
        self.file = file
        logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        file.append("\(LogFile.timestamp()) \(event.level) \(label): \(event.message)\(fields)\n")
    }
}

/// The log file, shared by every logger of the process.
public final class LogFile: Sendable {
    public static let maxBytes = 1 << 20
    public let path: String
    private let handle = Mutex<FileHandle?>(nil)

    /// Opens (creating) `directory/linkstr.log`; nil when it cannot be written (logging is never a
    /// reason for a command to fail).
    public init?(directory: URL) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } catch {
            return nil
        }
        path = directory.appendingPathComponent("linkstr.log").path
        guard let opened = Self.open(path) else { return nil }
        handle.withLock { $0 = opened }
    }

    static func open(_ path: String) -> FileHandle? {
        let fd = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        fchmod(fd, 0o600)
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func append(_ line: String) {
        handle.withLock { h in
            guard let current = h else { return }
            current.write(Data(line.utf8))
            if current.offsetInFile > UInt64(Self.maxBytes) {
                try? current.close()
                // Rotation is best effort: a failure keeps writing to the same file.
                _ = rename(path, path + ".1")
                h = Self.open(path)
            }
        }
    }

    static func timestamp() -> String {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        var tm = tm()
        var seconds = t.tv_sec
        gmtime_r(&seconds, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                      t.tv_nsec / 1_000_000)
    }
}

/// linkstr's loggers. Without `bootstrap` they log nothing (never to stderr, which scripts read, and
/// not from tests); after it, to the log file at the chosen level. swift-log's global system is left
/// alone so that no logger can fall back to its default stderr handler.
public enum LinkstrLogging {
    private static let factory = Mutex<(@Sendable (String) -> any LogHandler)?>(nil)

    /// Logs to `linkstr.log` in `stateDirectory` at `level` (the first call wins).
    public static func bootstrap(stateDirectory: URL, level: Logger.Level) {
        guard factory.withLock({ $0 == nil }), let file = LogFile(directory: stateDirectory) else { return }
        factory.withLock { current in
            if current == nil { current = { label in FileLogHandler(label: label, file: file, level: level) } }
        }
    }

    /// A logger for `label` (create it after bootstrap: it keeps the handler it was made with).
    public static func logger(_ label: String) -> Logger {
        let make = factory.withLock { $0 }
        return Logger(label: label) { label in make?(label) ?? SwiftLogNoOpLogHandler() }
    }
}
