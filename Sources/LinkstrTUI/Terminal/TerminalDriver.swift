import LinkstrApp
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the UI loop needs of a terminal: the real one (`NcursesTerminal`), or `HeadlessTerminal`, with
/// which tests run the whole loop (decode → reduce → effects → render, ESC timing, pastes) without tmux.
public protocol TerminalDriver: AnyObject {
    var hyperlinks: Bool { get set }
    var size: ScreenSize { get }
    func start(noColor: Bool, mouse: Bool)
    func stop(clearing: Bool)
    /// Takes the screen back after `stop()` (a suspend, the editor).
    func resume()
    /// Re-sends the modes a shell may have reset while the app was suspended.
    func restoreModes()
    /// The new size after a resize, or nil.
    func followResize() -> ScreenSize?
    /// Waits up to `timeoutMilliseconds` for input, or a byte on `wake`; true when input may be waiting.
    func waitForInput(timeoutMilliseconds: Int32, wake: Int32) -> Bool
    /// The next waiting input, or nil.
    func read() -> InputDecoder.Raw?
    /// The last mouse event, after the mouse key code.
    func mouse() -> MouseEvent?
    func draw(_ canvas: Canvas, forceFull: Bool)
    /// Pictures finished drawing in the background: paint them over the screen as it is.
    func imagesReady()
    func writeRaw(_ s: String)
    func use(_ theme: Theme)
    /// Whether the loop installs process-wide signal handlers (the real terminal does; a test does not).
    var handlesSignals: Bool { get }
}

extension NcursesTerminal: TerminalDriver {
    public var handlesSignals: Bool { true }

    /// poll(2) on the terminal and the inbox's wake pipe.
    public func waitForInput(timeoutMilliseconds: Int32, wake: Int32) -> Bool {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        let n = poll(&fds, 2, timeoutMilliseconds)
        // EINTR (SIGWINCH) also means: read, ncurses has a KEY_RESIZE waiting.
        return n < 0 || fds[0].revents != 0
    }
}

/// A terminal in memory: input is handed in by the test (as ncurses would deliver it), frames are kept.
public final class HeadlessTerminal: TerminalDriver, Sendable {
    public var hyperlinks: Bool {
        get { shared.withLock { $0.hyperlinks } }
        set { shared.withLock { $0.hyperlinks = newValue } }
    }
    public var handlesSignals: Bool { false }
    private struct Shared {
        var hyperlinks = false
        var input: [InputDecoder.Raw] = []
        var frames: [Canvas] = []
        var size: ScreenSize
        var resized = false
        var raw: [String] = []
    }
    private let shared: Mutex<Shared>
    /// A pipe the loop polls: a byte per input handed in.
    private let pipe: (read: Int32, write: Int32)

    public init(columns: Int = 80, rows: Int = 24) {
        shared = Mutex(Shared(size: ScreenSize(columns: columns, rows: rows)))
        var fds: [Int32] = [0, 0]
        _ = Glibc.pipe(&fds)
        pipe = (fds[0], fds[1])
    }

    deinit { close(pipe.read); close(pipe.write) }

    // MARK: the test's side

    /// Hands in input; each character as the terminal would send it (`ESC [ A` is three).
    public func type(_ text: String) { send(text.map { .character($0) }) }

    public func send(_ input: [InputDecoder.Raw]) {
        shared.withLock { $0.input += input }
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
    }

    public func resize(columns: Int, rows: Int) {
        shared.withLock { $0.size = ScreenSize(columns: columns, rows: rows); $0.resized = true }
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
    }

    /// Every frame drawn so far.
    public var frames: [Canvas] { shared.withLock { $0.frames } }
    public var lastFrame: Canvas? { shared.withLock { $0.frames.last } }
    /// What was written around the screen (OSC 52, the bell, notifications).
    public var rawWrites: [String] { shared.withLock { $0.raw } }

    // MARK: the loop's side

    public var size: ScreenSize { shared.withLock { $0.size } }
    public func start(noColor: Bool, mouse: Bool) {}
    public func stop(clearing: Bool) {}
    public func resume() {}
    public func restoreModes() {}
    public func followResize() -> ScreenSize? {
        shared.withLock { s in
            guard s.resized else { return nil }
            s.resized = false
            return s.size
        }
    }

    public func waitForInput(timeoutMilliseconds: Int32, wake: Int32) -> Bool {
        if shared.withLock({ !$0.input.isEmpty }) { return true }
        var fds = [pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, timeoutMilliseconds)
        if fds[0].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            _ = Glibc.read(pipe.read, &buffer, buffer.count)
        }
        return shared.withLock { !$0.input.isEmpty }
    }

    public func read() -> InputDecoder.Raw? {
        shared.withLock { $0.input.isEmpty ? nil : $0.input.removeFirst() }
    }

    public func mouse() -> MouseEvent? { nil }
    public func draw(_ canvas: Canvas, forceFull: Bool) { shared.withLock { $0.frames.append(canvas) } }
    public func imagesReady() {}
    public func writeRaw(_ s: String) { shared.withLock { $0.raw.append(s) } }
    public func use(_ theme: Theme) {}
}
