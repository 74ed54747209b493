import CNcursesw
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a crash may leave behind, taken away: no core file (it would hold the secret key and the feed
/// in plaintext), and on a fatal signal (a crash, or someone's `kill -SEGV`) the terminal restored and
/// the process gone at once, which releases the data directory's lock with its descriptor.
///
/// Without this the Swift runtime's backtracer took the signal: it painted a backtrace over the app's
/// screen and, on a terminal, waited for a key, holding the lock meanwhile. The handler does only what
/// is async-signal-safe: `write`, `tcsetattr` and `_exit`, on bytes prepared beforehand, and the return
/// addresses of the crashed thread (`backtrace_symbols_fd`: module and offset, never memory contents),
/// so that a crash in the field or in CI can be placed.
public enum FatalSignals {
    static let handled: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    /// No core dumps: a core limit of 0, and not dumpable (which also keeps other processes of the same
    /// user from attaching to read memory).
    public static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        _ = sw_set_not_dumpable()
    }

    /// Installs the handler for every fatal signal (once, at start), on a stack of its own so that a
    /// stack overflow is handled too.
    public static func install() {
        if alternateStack == nil {
            let size = 256 * 1024
            alternateStack = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            var stack = stack_t(ss_sp: alternateStack, ss_flags: 0, ss_size: size)
            sigaltstack(&stack, nil)
        }
        sw_crash_report_prime()
        if message == nil { message = prepared("linkstr: stopped by a fatal signal; the terminal was restored and the data directory released.\n") }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&action.sa_mask)
        for s in handled { sigaction(s, &action, nil) }
    }

    /// The terminal to put back on a fatal signal: its modes now (before curses changes them) and the
    /// escapes that end what the app turned on (mouse, bracketed paste, focus events, the alternate
    /// screen, a hidden cursor).
    public static func arm(terminal fd: Int32) {
        var modes = termios()
        guard tcgetattr(fd, &modes) == 0 else { return }
        savedModes = modes
        if restoreEscapes == nil { restoreEscapes = prepared("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?1004l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n") }
        terminalFD = fd
    }

    /// The app gave the terminal back itself: nothing to restore any more.
    public static func disarm() { terminalFD = -1 }

    private static func prepared(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int) {
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        pointer.initialize(from: bytes, count: bytes.count)
        return (pointer, bytes.count)
    }

    // Read by the signal handler: set before it can run, never freed.
    nonisolated(unsafe) private static var alternateStack: UnsafeMutableRawPointer?
    nonisolated(unsafe) private static var terminalFD: Int32 = -1
    nonisolated(unsafe) private static var savedModes = termios()
    nonisolated(unsafe) private static var restoreEscapes: (UnsafeMutablePointer<UInt8>, Int)?
    nonisolated(unsafe) private static var message: (UnsafeMutablePointer<UInt8>, Int)?

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        let fd = FatalSignals.terminalFD
        if fd >= 0 {
            if let (bytes, count) = FatalSignals.restoreEscapes { _ = write(fd, bytes, count) }
            _ = tcsetattr(fd, TCSANOW, &FatalSignals.savedModes)
        }
        // The report first, the sentence last: on a small terminal the sentence is what stays in view.
        sw_crash_report(STDERR_FILENO, signal)
        if let (bytes, count) = FatalSignals.message { _ = write(STDERR_FILENO, bytes, count) }
        _exit(128 + signal)
    }
}
