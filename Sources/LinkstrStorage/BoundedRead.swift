import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading a file or standard input whole, up to a limit: `/dev/zero`, a 200 MB file given as a
/// passphrase or a closed standard input get an error in words instead of a process that never ends,
/// fills memory or traps (Foundation's `readDataToEndOfFile` traps on a closed descriptor).
public enum BoundedRead {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Everything on `descriptor` until its end, or a failure naming `what` once more than `limit`
    /// bytes arrive.
    public static func descriptor(_ descriptor: Int32, limit: Int, what: String) throws(Failure) -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EBADF { throw Failure("\(what) is closed.") }
                throw Failure("cannot read \(what): \(String(cString: strerror(errno))).")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw Failure("\(what) holds more than \(sizeWords(limit)); it is not what linkstr expects there.") }
        }
    }

    /// The file at `path`, at most `limit` bytes.
    public static func file(_ path: String, limit: Int, what: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("cannot read \(what) \(path): \(String(cString: strerror(errno))).") }
        defer { close(fd) }
        return try descriptor(fd, limit: limit, what: "\(what) \(path)")
    }

    /// Standard input, at most `limit` bytes.
    public static func standardInput(limit: Int, what: String = "standard input") throws(Failure) -> [UInt8] {
        try descriptor(STDIN_FILENO, limit: limit, what: what)
    }

    /// The first line of `bytes` without its line break (`\n` or `\r\n`).
    public static func firstLine(_ bytes: [UInt8]) -> [UInt8] {
        var line = bytes.firstIndex(of: 0x0A).map { Array(bytes[..<$0]) } ?? bytes
        if line.last == 0x0D { line.removeLast() }
        return line
    }

    static func sizeWords(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 ? "\(bytes / (1024 * 1024)) MiB" : bytes >= 1024 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }

    /// Descriptors 0, 1 and 2 opened on /dev/null when the process started without them (`<&-`), so
    /// that no file linkstr opens (the data lock, a key) takes their number and is read or written as
    /// standard input or output.
    public static func reserveStandardDescriptors() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
            let null = open("/dev/null", O_RDWR)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }
}
