import Foundation
import LinkstrDomain
import LinkstrStorage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How videos are played (`config.toml`): mpv with yt-dlp unless `player` names another program.
public struct PlayerSettings: Equatable, Sendable {
    /// `player`: a program and its arguments, `{url}` replaced by the link (appended when absent); nil: mpv.
    public var template: [String]?
    /// `ytdl_format`: mpv's `--ytdl-format` (which streams yt-dlp picks).
    public var ytdlFormat: String?
    /// `mpv_args`: more arguments for mpv.
    public var mpvArguments: [String]
    /// `playback = "terminal"`: in the terminal, the app suspended around it, with this video output
    /// (`kitty` where the terminal takes kitty's pictures, else `tct`, truecolour blocks); nil: a window.
    public var terminalOutput: String?

    /// Whether a window can open here: a display named by `DISPLAY` (X11) or `WAYLAND_DISPLAY`.
    public static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    public init(template: [String]? = nil, ytdlFormat: String? = nil, mpvArguments: [String] = [], terminalOutput: String? = nil) {
        self.template = template; self.ytdlFormat = ytdlFormat; self.mpvArguments = mpvArguments; self.terminalOutput = terminalOutput
    }
}

/// A copy saved for offline, as the player reads it: its chunks, opened one after another.
public struct SavedCopy: Sendable {
    public let stream: @Sendable (_ body: ([UInt8]) throws -> Void) throws -> Void
    public init(stream: @escaping @Sendable (_ body: ([UInt8]) throws -> Void) throws -> Void) { self.stream = stream }

    /// The saved copy of `link` in `media`, if there is one.
    public static func of(_ link: String, in media: MediaCache) -> SavedCopy? {
        guard let entry = (try? media.entry(MediaSaver.key(link))) ?? nil, entry.kind == .video || entry.kind == .image else { return nil }
        return SavedCopy { body in _ = try media.stream(MediaSaver.key(link), to: body) }
    }
}

/// Plays a link: mpv, told to open an IPC socket in a private directory, whose events say
/// what happens (`MpvEventReader`); or the `player` template, started and left alone. Where a video site
/// needs yt-dlp and it is missing, that is said with the fix before anything starts.
public enum MediaPlayer {
    /// Whether a program is on `PATH` (or is a path that can be run).
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        ProgramLookup.find(name, environment: environment)
    }

    /// Whether `settings` can play `url` here at all (mpv or the template's program found).
    public static func available(_ settings: PlayerSettings, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        find(settings.template?.first ?? "mpv", environment: environment) != nil
    }

    /// Plays `url`, telling `report` each event; returns when the player has exited (a template's
    /// program: once started). In a window unless `settings.terminalOutput` is set: then mpv draws in
    /// this terminal, which the caller has given up for it.
    /// `saved`: a copy saved for offline, streamed to mpv through a pipe (never written out in the clear).
    /// `handle`: stops this play when asked (`PlayerHandle.stop`); what it says after that is dropped.
    public static func play(_ url: String, settings: PlayerSettings, saved: SavedCopy? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment, handle: PlayerHandle? = nil,
                            report: @escaping @Sendable (PlaybackEvent) -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Blocking reads of the socket: a thread of its own, not one of the cooperative pool's.
            Thread.detachNewThread {
                playBlocking(url, settings: settings, saved: saved, environment: environment, handle: handle, report: report)
                done.resume()
            }
        }
    }

    /// `play` on the calling thread.
    public static func playBlocking(_ url: String, settings: PlayerSettings, saved: SavedCopy? = nil,
                                    environment: [String: String] = ProcessInfo.processInfo.environment, handle: PlayerHandle? = nil,
                                    report unfiltered: @Sendable (PlaybackEvent) -> Void) {
        run(url, settings: settings, saved: saved, environment: environment, handle: handle) { event in
            if handle?.stopped != true { unfiltered(event) }
        }
    }

    private static func run(_ url: String, settings: PlayerSettings, saved: SavedCopy?, environment: [String: String],
                                     handle: PlayerHandle?, report: (PlaybackEvent) -> Void) {
        if saved == nil, let template = settings.template, let program = template.first {
            guard let exe = find(program, environment: environment) else { return report(.failed("the player `\(program)` is not installed or not on PATH.")) }
            var arguments = template.dropFirst().map { $0.replacingOccurrences(of: "{url}", with: url) }
            if !template.contains(where: { $0.contains("{url}") }) { arguments.append(url) }
            let process = Process()
            process.executableURL = exe
            process.arguments = arguments
            process.environment = environment
            quiet(process, inTerminal: false)
            do { try process.run() } catch { return report(.failed("`\(program)` did not start: \(error.localizedDescription)")) }
            return report(.handedOff(player: exe.lastPathComponent))
        }
        guard let mpv = find("mpv", environment: environment) else {
            return report(.failed("mpv is not installed: `sudo apt install mpv yt-dlp` (or set `player` in config.toml)."))
        }
        if saved == nil, URLClassifier.classify(url).isPlayable, find("yt-dlp", environment: environment) == nil,
           find("youtube-dl", environment: environment) == nil {
            return report(.failed(MpvEventReader.installYtdlp))
        }
        // The socket lives in a directory only we can enter, removed afterwards.
        var template = Array((NSTemporaryDirectory() + "/linkstr-mpv-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return report(.failed("no private directory for mpv's socket: \(String(cString: strerror(errno)))")) }
        let directory = String(cString: made)
        defer {
            // Only the socket was in it, and mpv removes that itself: nothing is lost if this fails.
            do { try FileManager.default.removeItem(atPath: directory) } catch {}
        }
        let socketPath = directory + "/ipc"
        var arguments = ["--input-ipc-server=" + socketPath]
        if var vo = settings.terminalOutput {
            // kitty's pictures need an mpv that has them (0.36 and later); truecolour blocks work everywhere.
            if vo == "kitty", !videoOutputs(mpv, environment: environment).contains("kitty") { vo = "tct" }
            arguments += ["--vo=" + vo, "--really-quiet"]
        } else {
            arguments += ["--no-terminal", "--force-window=immediate"]
        }
        if let format = settings.ytdlFormat, saved == nil { arguments.append("--ytdl-format=" + format) }
        arguments += settings.mpvArguments + ["--", saved == nil ? url : "-"]
        let process = Process()
        process.executableURL = mpv
        process.arguments = arguments
        process.environment = environment
        quiet(process, inTerminal: settings.terminalOutput != nil)
        let pipe = saved.map { _ in Pipe() }
        if let pipe { process.standardInput = pipe }
        do { try process.run() } catch { return report(.failed("mpv did not start: \(error.localizedDescription)")) }
        handle?.started(process)
        report(.starting(player: "mpv"))
        // A saved copy found damaged while it streams (cut short or altered: the cache removes it). mpv
        // plays what came before the damage and says "ended": the damage must be said after it.
        let damaged = Mutex(false)
        let streamed = DispatchSemaphore(value: 0)
        if let saved, let pipe {
            // The saved copy opened a chunk at a time into mpv's standard input; mpv closing it ends this.
            Thread.detachNewThread {
                defer { streamed.signal() }
                signal(SIGPIPE, SIG_IGN)
                let handle = pipe.fileHandleForWriting
                do { try saved.stream { try handle.write(contentsOf: $0) } } catch MediaCache.Failure.damaged {
                    damaged.withLock { $0 = true }
                } catch {
                    // mpv closed its input (the user quit): nothing more to send.
                }
                do { try handle.close() } catch {}
            }
        }
        var reader = MpvEventReader()
        var finished = false
        if let fd = connect(socketPath, while: process) {
            _ = MpvEventReader.requests.withCString { write(fd, $0, strlen($0)) }
            readLines(fd) { line in
                guard let event = reader.read(line) else { return }
                finished = finished || event.isFinal
                report(event)
            }
            close(fd)
        }
        process.waitUntilExit()
        // The streaming thread ends once mpv's input is closed (a write fails, or the copy was all sent).
        if saved != nil { _ = streamed.wait(timeout: .now() + 5) }
        if damaged.withLock({ $0 }) {
            return report(.failed("the saved copy was damaged (cut short or altered): it played up to the damage and was removed. "
                                  + "Save it again (s, or `linkstr media save`), or play it from its link."))
        }
        if !finished {
            let status = process.terminationStatus
            report(status == 0 ? .closed : .failed(reader.ytdlError.map { _ in reader.failureWords(nil) } ?? "mpv stopped (exit status \(status))."))
        }
    }

    /// Connects to mpv's socket once it is there (mpv makes it as it starts), while the player runs.
    static func connect(_ path: String, while process: Process, within seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, process.isRunning {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return nil }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected == 0 { return fd }
            close(fd)
            usleep(50_000)
        }
        return nil
    }

    /// Calls `body` with each line read from `fd` until it closes; an over-long line is dropped whole.
    static func readLines(_ fd: Int32, _ body: (String) -> Void) {
        var pending = [UInt8]()
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            for byte in buffer[0..<n] {
                if byte == 0x0A {
                    if !skipping { body(String(decoding: pending, as: UTF8.self)) }
                    pending.removeAll(keepingCapacity: true)
                    skipping = false
                } else if !skipping {
                    pending.append(byte)
                    if pending.count > MpvEventReader.maxLine { pending.removeAll(); skipping = true }
                }
            }
        }
    }

    /// The video outputs this mpv has (`mpv --vo=help`, 2 s at most).
    static func videoOutputs(_ mpv: URL, environment: [String: String]) -> String {
        let process = Process()
        process.executableURL = mpv
        process.arguments = ["--vo=help"]
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return "" }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { ChildProcess.kill(process.processIdentifier); return "" }
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile().prefix(65_536), as: UTF8.self)
    }

    /// A player in a window says nothing on our terminal; one in the terminal has it.
    private static func quiet(_ process: Process, inTerminal: Bool) {
        guard !inTerminal else { return }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
    }
}

/// One play of mpv that can be stopped from elsewhere (`o` on another video, replacing it): SIGKILL to
/// the player (it has nothing to save, and the app's ignored SIGTERM is inherited by what it starts),
/// and nothing more reported from it.
public final class PlayerHandle: Sendable {
    private struct State {
        var process: Process?
        var stopped = false
    }
    private let state = Mutex(State())

    public init() {}

    /// Whether `stop` was called.
    public var stopped: Bool { state.withLock { $0.stopped } }

    /// Ends the player: at once if it runs, else as soon as it starts.
    public func stop() {
        let running: Process? = state.withLock { s in
            s.stopped = true
            return s.process
        }
        if let running, running.isRunning { ChildProcess.kill(running.processIdentifier) }
    }

    func started(_ process: Process) {
        let stopNow = state.withLock { s in
            s.process = process
            return s.stopped
        }
        if stopNow { ChildProcess.kill(process.processIdentifier) }
    }
}
