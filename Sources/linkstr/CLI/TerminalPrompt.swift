import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Asks a question on the controlling terminal without echoing the answer (passphrases).
enum TerminalPrompt {
    static func secret(_ question: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = question.withCString { write(fd, $0, strlen($0)) }
        tcsetattr(fd, TCSAFLUSH, &silent)
        defer {
            tcsetattr(fd, TCSAFLUSH, &original)
            _ = "\n".withCString { write(fd, $0, 1) }
        }
        var bytes = [UInt8]()
        var c: UInt8 = 0
        while read(fd, &c, 1) == 1, c != 10, c != 13 {
            if bytes.count < 4096 { bytes.append(c) }
        }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A question answered in the open (a yes or a no), on the controlling terminal.
    static func line(_ question: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = question.withCString { write(fd, $0, strlen($0)) }
        var bytes = [UInt8]()
        var c: UInt8 = 0
        while read(fd, &c, 1) == 1, c != 10, c != 13 {
            if bytes.count < 256 { bytes.append(c) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
