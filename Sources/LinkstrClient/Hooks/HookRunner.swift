import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrStorage
import NostrProtocol

/// Runs the hooks: once per new item from someone else (`AccountEvents`' post,
/// reaction, request and session lines; never history being restored, never our own sends), the item
/// as one JSON object on standard input, a clean environment (no passphrase, nothing of linkstr's own
/// but `LINKSTR_HOOK`, the hook's name). At most 4 at once (64 more wait, beyond that one is dropped and
/// said), each killed after 10 s; a hook that cannot start or fails is said once (per hook and kind of
/// failure), never more, and never holds up sync or the screen: this actor only starts processes.
public actor HookRunner {
    public static let maxRunning = 4
    public static let maxWaiting = 64
    public static let timeout: Duration = .seconds(10)
    /// What a hook's environment keeps of ours: what a desktop notifier needs to reach the desktop.
    public static let keptEnvironment = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "DISPLAY", "WAYLAND_DISPLAY",
                                         "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "TMPDIR"]

    public struct Stats: Equatable, Sendable {
        public var started = 0, finished = 0, killed = 0, failed = 0, dropped = 0
    }

    let settings: HookSettings
    let environment: [String: String]
    /// How long a hook may run (`timeout`; tests shorten it).
    let deadline: Duration
    /// A failure, in words, for the status line and `:messages` (or stderr).
    let say: @Sendable (String) -> Void
    private var running = 0
    private var waiting: [(kind: HookSettings.Kind, argv: [String], input: Data)] = []
    private var said = Set<String>()
    private var stopped = false
    private var children: [Int32: Process] = [:]
    public private(set) var stats = Stats()

    public init(settings: HookSettings, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = HookRunner.timeout,
                say: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        deadline = timeout
        self.environment = environment.filter { Self.keptEnvironment.contains($0.key) }
        self.say = say
    }

    /// The events one update made (`AccountEvents.lines`): each that has a hook runs it, unless history
    /// is being restored or it is about our own doing.
    public func handle(_ events: [JSONValue], me: Pubkey, restoringHistory: Bool) {
        guard settings.enabled, !restoringHistory, !stopped else { return }
        for event in events {
            guard case .object(let o) = event, case .string(let type)? = o["type"], let (kind, argv) = settings.command(forEvent: type) else { continue }
            // A session line is news only when someone else made the change.
            if kind == .onSession, case .string(let creator)? = o["creator"], creator == me { continue }
            enqueue(kind, argv, Data((JSONWriter.encodeTerminalSafe(event) + "\n").utf8))
        }
    }

    private func enqueue(_ kind: HookSettings.Kind, _ argv: [String], _ input: Data) {
        if running < Self.maxRunning { return start(kind, argv, input) }
        guard waiting.count < Self.maxWaiting else {
            stats.dropped += 1
            sayOnce("dropped:\(kind.rawValue)", "hook \(kind.rawValue): more news than hooks can run (\(Self.maxRunning) at once, \(Self.maxWaiting) waiting); some were skipped.")
            return
        }
        waiting.append((kind, argv, input))
    }

    private func start(_ kind: HookSettings.Kind, _ argv: [String], _ input: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0].contains("/") ? argv[0] : "/usr/bin/env")
        process.arguments = argv[0].contains("/") ? Array(argv.dropFirst()) : argv
        process.environment = environment.merging(["LINKSTR_HOOK": kind.rawValue]) { $1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [weak self] p in
            let status = p.terminationStatus, reason = p.terminationReason, pid = p.processIdentifier
            Task { await self?.ended(kind, argv, pid: pid, status: status, signalled: reason == .uncaughtSignal) }
        }
        do {
            try process.run()
        } catch {
            stats.failed += 1
            sayOnce("start:\(kind.rawValue)", "hook \(kind.rawValue) could not start \(DisplayText.singleLine(argv[0])): \(error.localizedDescription)")
            return next()
        }
        running += 1
        stats.started += 1
        children[process.processIdentifier] = process
        // Its input, then end of file; a hook that does not read it must not hold us (nor SIGPIPE us).
        let writer = stdin.fileHandleForWriting
        DispatchQueue.global().async {
            do { try writer.write(contentsOf: input) } catch {}
            do { try writer.close() } catch {}
        }
        let pid = process.processIdentifier
        Task { [weak self] in
            try? await Task.sleep(for: self?.deadline ?? Self.timeout)
            await self?.expire(pid, kind)
        }
    }

    /// Still running at its deadline: killed with what it started (`ChildProcess`).
    private func expire(_ pid: Int32, _ kind: HookSettings.Kind) {
        guard children[pid] != nil else { return }
        ChildProcess.kill(pid)
        stats.killed += 1
        sayOnce("killed:\(kind.rawValue)", "hook \(kind.rawValue) ran over \(Self.words(deadline)) and was stopped.")
    }

    private func ended(_ kind: HookSettings.Kind, _ argv: [String], pid: Int32, status: Int32, signalled: Bool) {
        guard children.removeValue(forKey: pid) != nil else { return }
        running -= 1
        stats.finished += 1
        if status == 127 && !argv[0].contains("/") {
            stats.failed += 1
            sayOnce("start:\(kind.rawValue)", "hook \(kind.rawValue): no program \(DisplayText.singleLine(argv[0])) on PATH.")
        } else if status != 0 && !signalled {
            stats.failed += 1
            sayOnce("status:\(kind.rawValue)", "hook \(kind.rawValue) failed (exit \(status)).")
        }
        next()
    }

    private func next() {
        while running < Self.maxRunning, !waiting.isEmpty, !stopped {
            let w = waiting.removeFirst()
            start(w.kind, w.argv, w.input)
        }
    }

    static func words(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
    }

    /// Logged each time (the hook's name and what went wrong, never its command line: it may hold a
    /// token), said once.
    private func sayOnce(_ key: String, _ words: String) {
        let what = key.split(separator: ":").map(String.init)
        LinkstrLogging.logger("hooks").warning("hook did not run as it should", metadata: ["hook": "\(what.last ?? "")", "what": "\(what.first ?? "")"])
        guard said.insert(key).inserted else { return }
        say(words)
    }

    /// Waiting hooks are dropped and running ones killed (the account closes).
    public func stop() {
        stopped = true
        waiting = []
        for pid in children.keys { ChildProcess.kill(pid) }
    }

    /// Hooks running now (tests).
    public var runningCount: Int { running }

    /// Waits for the hooks started and waiting to end (each within its 10 s), before a command exits.
    public func finish() async {
        while running > 0 || !waiting.isEmpty {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
