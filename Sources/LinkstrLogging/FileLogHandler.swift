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
///
/// Written with `write(2)` on the descriptor, never `FileHandle.write`, which traps on any error: a
/// full disk (ENOSPC), a quota or an I/O error drops the line and logging goes on (or stays quiet),
/// so a log line can never crash or block a command.
public final class LogFile: Sendable {
    public static let maxBytes = 1 << 20
    public let path: String
    private struct Open { var fd: Int32; var size: Int }
    private let state = Mutex<Open?>(nil)

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
        state.withLock { $0 = opened }
    }

    deinit { state.withLock { if let open = $0 { close(open.fd) } } }

    private static func open(_ path: String) -> Open? {
        let fd = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        fchmod(fd, 0o600)
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        return Open(fd: fd, size: size)
    }

    /// How many lines could not be written (a full disk, an I/O error).
    public var dropped: Int { droppedLines.withLock { $0 } }
    private let droppedLines = Mutex(0)

    func append(_ line: String) {
        var bytes = Array(line.utf8)
        let written = state.withLock { current -> Bool in
            guard var open = current else { return false }
            // O_APPEND writes of a line are whole or fail; a short write (disk filling up) is not retried.
            let n = bytes.withUnsafeMutableBytes { write(open.fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            open.size += n
            if open.size > Self.maxBytes {
                close(open.fd)
                // Rotation is best effort: a failure keeps writing to the same file.
                _ = rename(path, path + ".1")
                current = Self.open(path)
            } else {
                current = open
            }
            return n == bytes.count
        }
        if !written { droppedLines.withLock { $0 += 1 } }
        bytes.removeAll()
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
