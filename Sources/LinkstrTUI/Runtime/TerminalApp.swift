import CNcursesw
import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrStorage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The UI thread's loop: wait for input or an answered effect, reduce, render what changed. It never
/// does I/O besides the terminal: effects go to the `EffectRunner`'s background queue.
public final class TerminalApp {
    private let options: AppOptions
    private let theme: Theme
    private let terminal: any TerminalDriver
    private let inbox = ActionInbox()
    private let outbox = TerminalOutbox()
    private let services: Services
    private var runner: EffectRunner!
    private var decoder = InputDecoder()
    private var state = AppState()
    private var rendered: AppState?
    private var running = true
    /// When a key, a paste or the mouse last came (the app's monotonic clock): the idle lock counts from it.
    private var lastInput: Double?
    private let signals = SignalFlags()
    private var signalSources: [DispatchSourceSignal] = []
    private var stats: FrameStats?
    /// Pictures drawn off the UI thread (nil when this terminal shows none).
    private var art: ImageArt?

    /// `processStart`: wall-clock seconds when `main` began, for the first-frame figure. `terminal`:
    /// the real one unless a test hands in a `HeadlessTerminal`.
    /// `time`: the app's clock (tests pass one they move: the idle lock without waiting).
    public init(options: AppOptions, theme: Theme, processStart: Double = WallClock.now, terminal: (any TerminalDriver)? = nil,
                time: TimeSource? = nil) {
        self.options = options
        self.theme = theme
        self.terminal = terminal ?? NcursesTerminal(theme: theme)
        var services = Services.live(outbox: outbox)
        if let time { services.time = time }
        let pictures = services.pictures
        services.player = .live(options.player) { link in pictures.media.flatMap { SavedCopy.of(link, in: $0) } }
        self.services = services
        if let path = ProcessInfo.processInfo.environment["LINKSTR_FRAME_STATS"], !path.isEmpty {
            // The benchmark passes its launch time, so the figure includes exec and dynamic loading.
            let launch = ProcessInfo.processInfo.environment["LINKSTR_LAUNCH_NS"].flatMap(Double.init).map { $0 / 1e9 }
            stats = FrameStats(path: path, processStart: launch ?? processStart)
        }
        let inbox = self.inbox
        runner = EffectRunner(options: options, services: services) { inbox.post($0) }
    }

    /// Shows a link handed in by another process (`linkstr open` while the app runs), from any thread.
    public var receiveLink: @Sendable (DeepLink.Link) -> Void {
        let inbox = self.inbox
        return { inbox.post(.linkReceived($0)) }
    }

    /// Runs until the user quits; the terminal is restored on every way out that can be caught.
    public func run() {
        if terminal.handlesSignals { installSignalHandlers() }
        terminal.start(noColor: options.noColor, mouse: options.mouse)
        terminal.hyperlinks = options.hyperlinks
        if let proto = options.images, let real = terminal as? NcursesTerminal {
            // Symbols in the colours the terminal has (known once curses started).
            let colors: SymbolArt.Colors = switch real.depth {
            case .trueColor: .truecolor
            case .xterm256: .palette256
            default: .palette16
            }
            let inbox = self.inbox
            let art = ImageArt(proto: proto, colors: colors, cell: options.cellPixels, pictures: services.pictures) { inbox.wake() }
            self.art = art
            real.painter = ImagePainter(art: art, throughTmux: options.imagesThroughTmux)
        }
        defer {
            // Where the app was, for the next start.
            runner.shutdown(saving: UIPosition(state))
            terminal.stop(clearing: true)
            stats?.write()
        }
        state.version = options.version
        state.notifyMode = options.notify
        state.notifyWording = options.notifyWording
        state.lockKeepsSyncing = options.lockKeepsSyncing
        state.keymap = options.keymap
        state.themeName = options.theme
        state.showsImages = options.images != nil
        state.playsInTerminal = options.player.terminalOutput != nil
        apply(.started(now: services.time.wallSeconds(), size: terminal.size))
        if let link = options.openLink { apply(.linkReceived(link)) }
        render()
        var flushDeadline: Double?
        while running {
            let timeout = flushDeadline.map { max(0, Int32(($0 - Monotonic.now) * 1000)) } ?? 1000
            let ready = terminal.waitForInput(timeoutMilliseconds: timeout, wake: inbox.wakeDescriptors.read)
            let batchStart = Monotonic.now
            var sawKey = false

            if signals.take(.terminate) { break }
            if signals.take(.resumed) { terminal.restoreModes(); apply(.resized(terminal.size)) }
            if let size = terminal.followResize() { apply(.resized(size)) }

            if ready {
                var reads = 0
                while let raw = terminal.read() {
                    // A megabyte of paste is a million reads: signals are honoured, and a frame is drawn
                    // at least every 50 ms, while it streams in (the decoder keeps what is incomplete).
                    reads += 1
                    if reads % 1024 == 0 {
                        if signals.take(.terminate) { running = false; break }
                        if Monotonic.now - batchStart > 0.05 { break }
                    }
                    switch raw {
                    case .keyCode(let code) where code == sw_key_resize():
                        apply(.resized(terminal.size))
                    case .keyCode(let code) where code == sw_key_mouse():
                        if let event = terminal.mouse() { sawKey = true; apply(.mouseUsed(event)) }
                    default:
                        for event in decoder.feed(raw) { sawKey = true; handle(event) }
                    }
                }
            }
            let inputDone = Monotonic.now
            // A lone ESC (or a split sequence) waits briefly for the rest before it counts as the Escape key.
            if decoder.hasPending {
                if let deadline = flushDeadline, Monotonic.now >= deadline, !decoder.isPasting {
                    for event in decoder.flush() { sawKey = true; handle(event) }
                    flushDeadline = nil
                } else if flushDeadline == nil {
                    flushDeadline = Monotonic.now + 0.03
                }
            } else {
                flushDeadline = nil
            }

            let answers = inbox.drain()
            for action in answers { apply(action) }
            let now = services.time.wallSeconds()
            if now != state.now { apply(.clockTicked(now)) }
            lockWhenIdle(sawInput: sawKey)
            guard running else { break }
            let answersDone = Monotonic.now
            let frame = render()
            if art?.takeReady() == true { terminal.imagesReady() }
            if sawKey {
                stats?.recordKey(Monotonic.now - batchStart,
                                 parts: [inputDone - batchStart, answersDone - inputDone] + frame.parts(since: answersDone),
                                 answers: answers.count)
            }
            // A feed asked for and not shown yet: timed until the frame that shows its posts.
            if sawKey, state.sessions.open?.loading == true { stats?.feedRequested(at: batchStart) }
            for sequence in outbox.drain() { terminal.writeRaw(sequence) }
        }
    }

    /// `lock_after` without input in the main screen: the reducer locks (it decides what locking does).
    private func lockWhenIdle(sawInput: Bool) {
        let now = services.time.monotonicSeconds()
        if sawInput || lastInput == nil || state.phase != .main { lastInput = now }
        guard let after = options.lockAfter, let last = lastInput, now - last >= Double(after) else { return }
        lastInput = now
        apply(.idled)
    }

    private func handle(_ event: InputDecoder.Event) {
        switch event {
        case .key(.ctrl("z")): suspend()
        case .key(let key): apply(.keyPressed(key))
        case .paste(let text): apply(.textPasted(text))
        case .focus(let focused): apply(.focusChanged(focused))
        }
    }

    /// Reduces one action and hands its effects to the runner.
    private func apply(_ action: AppAction) {
        stats?.recordAction(action)
        for effect in AppReducer.reduce(&state, action) {
            if effect == .quit { running = false; continue }
            // The editor needs the terminal: the loop runs it, with the screen suspended.
            if case .post(.editNote(let note)) = effect { editNote(note); continue }
            if case .post(.playInTerminal(let url)) = effect { playInTerminal(url); continue }
            if case .settings(.applyTheme(let name)) = effect { applyTheme(name); continue }
            runner.perform(effect)
        }
    }

    /// `:theme NAME`: the colours are the terminal's, so the loop loads the theme and redraws in it.
    private func applyTheme(_ name: String) {
        do {
            terminal.use(try Theme.load(name, configDirectory: DataPaths.resolve(home: options.home).config))
            apply(.settings(.themeApplied(name)))
        } catch {
            apply(.settings(.themeFailed(ClientError(.invalid, String(describing: error)))))
        }
    }

    /// When each step of a frame ended, for the benchmark's per-key breakdown.
    struct FrameTimes {
        var compared: Double, viewed: Double, drawn: Double
        func parts(since start: Double) -> [Double] { [compared - start, viewed - compared, drawn - viewed] }
    }

    @discardableResult
    private func render() -> FrameTimes {
        guard state != rendered else { let t = Monotonic.now; return FrameTimes(compared: t, viewed: t, drawn: t) }
        let compared = Monotonic.now
        let screen = AppView.render(state)
        let viewed = Monotonic.now
        terminal.draw(screen, forceFull: false)
        let drawn = Monotonic.now
        rendered = state
        stats?.recordFrame(state)
        stats?.recordFeed(state)
        return FrameTimes(compared: compared, viewed: viewed, drawn: drawn)
    }

    /// Ctrl-Z: the terminal is raw (no ISIG), so suspend by hand: restore the shell's screen, stop with the
    /// default SIGTSTP action, and on `fg` take the screen back and redraw everything.
    private func suspend() {
        terminal.stop(clearing: false)
        // Aimed at this thread with SIGTSTP unblocked here: a process-wide kill() may be taken by another
        // thread after the handler is back, and this thread (a worker of the async runtime) blocks it.
        var tstp = sigset_t(), saved = sigset_t()
        sigemptyset(&tstp)
        sigaddset(&tstp, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &tstp, &saved)
        let previous = signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)  // stops here until `fg`; discarded (we carry on) in an orphaned process group
        signal(SIGTSTP, previous)
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        terminal.resume()
        apply(.resized(terminal.size))
    }

    /// `$VISUAL`/`$EDITOR` on the note: the screen is given back to the shell's terminal, the editor
    /// runs on a file in a private directory (0700, the file 0600), and both are removed afterwards.
    private func editNote(_ note: String) {
        terminal.stop(clearing: false)
        let result = NoteEditor.edit(note)
        terminal.resume()
        apply(.resized(terminal.size))
        switch result {
        case .success(let edited): apply(.post(.editorFinished(text: edited.text, error: edited.warning)))
        case .failure(let why): apply(.post(.editorFinished(text: nil, error: why.description)))
        }
    }

    /// A video played in this terminal (`playback = "terminal"`): the screen is given to mpv, drawing in
    /// kitty's pictures or truecolour blocks, and taken back when it ends; what it said goes to the status line.
    private func playInTerminal(_ url: String) {
        terminal.stop(clearing: false)
        let events = Mutex<[PlaybackEvent]>([])
        let saved = services.pictures.media.flatMap { SavedCopy.of(url, in: $0) }
        MediaPlayer.playBlocking(url, settings: options.player, saved: saved) { event in events.withLock { $0.append(event) } }
        terminal.resume()
        apply(.resized(terminal.size))
        for event in events.withLock({ $0 }) { apply(.post(.playbackChanged(event))) }
    }

    private func installSignalHandlers() {
        let inbox = self.inbox, signals = self.signals
        func watch(_ number: Int32, ignore: Bool, _ flag: SignalFlags.Flag) {
            if ignore { signal(number, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { signals.raise(flag); inbox.wake() }
            source.resume()
            signalSources.append(source)
        }
        for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] { watch(number, ignore: true, .terminate) }
        watch(SIGCONT, ignore: false, .resumed)
        // Resizes wake the loop through the inbox's pipe; the loop then asks the tty for its size.
        resizeWakeDescriptor = inbox.wakeDescriptors.write
        signal(SIGWINCH) { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = write(resizeWakeDescriptor, &byte, 1)
            errno = saved
        }
    }
}

/// The wake pipe's write end for the SIGWINCH handler (a C function pointer cannot capture it).
/// Set once before the handler is installed; only read afterwards.
nonisolated(unsafe) private var resizeWakeDescriptor: Int32 = -1

/// Flags set by signal sources (any thread), taken by the UI thread.
final class SignalFlags: Sendable {
    enum Flag: Hashable { case terminate, resumed }
    private let raised = Mutex<Set<Flag>>([])
    func raise(_ flag: Flag) { raised.withLock { _ = $0.insert(flag) } }
    func take(_ flag: Flag) -> Bool { raised.withLock { $0.remove(flag) != nil } }
}
