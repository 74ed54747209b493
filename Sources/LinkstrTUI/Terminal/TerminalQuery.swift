import CNcursesw
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the terminal says about pictures, asked once before curses starts: kitty's graphics
/// query (a 1×1 image it answers OK to, never shows), the cell size in pixels (`CSI 16 t`) and the primary
/// device attributes (DA1: attribute 4 is sixel). Every terminal answers DA1, so its answer ends the wait;
/// one that answers nothing costs the timeout.
public enum TerminalQuery {
    public struct Answer: Equatable, Sendable {
        public var kitty = false
        public var sixel = false
        public var cell: (width: Int, height: Int)?
        /// The DA1 answer arrived (everything before it has too).
        public var complete = false
        public init() {}
        public static func == (a: Answer, b: Answer) -> Bool {
            a.kitty == b.kitty && a.sixel == b.sixel && a.complete == b.complete && a.cell?.width == b.cell?.width && a.cell?.height == b.cell?.height
        }
    }

    static let question = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[16t" + "\u{1B}[c"

    /// Reads the answers from what the terminal sent back (other bytes, such as keys typed meanwhile, are skipped).
    public static func parse(_ bytes: [UInt8]) -> Answer {
        var answer = Answer()
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("\u{1B}_Gi=31;OK") { answer.kitty = true }
        if let r = text.range(of: "\u{1B}\\[6;([0-9]{1,4});([0-9]{1,4})t", options: .regularExpression) {
            let numbers = text[r].dropFirst(4).dropLast().split(separator: ";").compactMap { Int($0) }
            if numbers.count == 2, numbers.allSatisfy({ (1...512).contains($0) }) { answer.cell = (numbers[1], numbers[0]) }
        }
        if let r = text.range(of: "\u{1B}\\[\\?[0-9;]*c", options: .regularExpression) {
            answer.complete = true
            answer.sixel = text[r].dropFirst(3).dropLast().split(separator: ";").contains("4")
        }
        return answer
    }

    /// Asks the terminal on standard input/output and waits up to `timeout` seconds for DA1's answer.
    /// Nil when standard input is not a terminal.
    public static func ask(timeout: Double = 0.2) -> Answer? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        _ = question.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.count < 4096 {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { break }
            var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, left) > 0 else { break }
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            guard n > 0 else { break }
            received += buffer[0..<n]
            if parse(received).complete { break }
        }
        return parse(received)
    }

    /// A cell's size from the kernel's idea of the window (some terminals fill in its pixels), or nil.
    public static func cellFromWindowSize() -> (width: Int, height: Int)? {
        var rows: Int32 = 0, cols: Int32 = 0, xpixel: Int32 = 0, ypixel: Int32 = 0
        guard sw_tty_pixels(STDOUT_FILENO, &rows, &cols, &xpixel, &ypixel) == 0, rows > 0, cols > 0, xpixel > 0, ypixel > 0 else { return nil }
        let cell = (Int(xpixel / cols), Int(ypixel / rows))
        return cell.0 > 0 && cell.1 > 0 ? cell : nil
    }
}
