import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import Synchronization

/// Escape sequences for the terminal, queued by any thread and written by the UI thread between frames.
public final class TerminalOutbox: Sendable {
    private let items = Mutex<[String]>([])
    public init() {}
    public func post(_ s: String) { items.withLock { $0.append(s) } }
    public func drain() -> [String] { items.withLock { items in defer { items = [] }; return items } }
}

/// The system around the app, as structs of closures: a live value for the terminal, fakes for tests.
public struct Clipboard: Sendable {
    public var copy: @Sendable (String) -> CopyOutcome
    public var read: @Sendable () -> String?
}

public struct Browser: Sendable {
    /// Opens a URL; a message for the status line.
    public var open: @Sendable (String) -> Result<String, DomainError>
}

/// Plays videos: `play` starts the player when this machine has one for the link and answers
/// true, then tells `report` what happens; false: the link is opened another way (the browser).
public struct Player: Sendable {
    public var play: @Sendable (_ url: String, _ report: @escaping @Sendable (PlaybackEvent) -> Void) -> Bool
    /// Stops the video playing (to play another in its place); it reports nothing more.
    public var stop: @Sendable () -> Void

    public init(play: @escaping @Sendable (_ url: String, _ report: @escaping @Sendable (PlaybackEvent) -> Void) -> Bool,
                stop: @escaping @Sendable () -> Void = {}) {
        self.play = play
        self.stop = stop
    }

    /// mpv (or the `player` template) for videos, in a window; a copy saved for offline (`saved`) plays
    /// from the cache through a pipe, with mpv; nothing else.
    public static func live(_ settings: PlayerSettings, saved: @escaping @Sendable (String) -> SavedCopy?) -> Player {
        let current = Mutex<PlayerHandle?>(nil)
        return Player(play: { url, report in
            let copy = saved(url)
            let playable = copy != nil ? MediaPlayer.find("mpv") != nil : URLClassifier.classify(url).isPlayable && MediaPlayer.available(settings)
            guard playable else { return false }
            let handle = PlayerHandle()
            current.withLock { $0 = handle }
            Task.detached { await MediaPlayer.play(url, settings: settings, saved: copy, handle: handle, report: report) }
            return true
        }, stop: {
            current.withLock { $0 }?.stop()
        })
    }

    public static let none = Player { _, _ in false }
}

public struct Notifier: Sendable {
    public var notify: @Sendable (_ title: String, _ body: String, _ bell: Bool, _ desktop: Bool) -> Void
}

public struct Services: Sendable {
    public var clipboard: Clipboard
    public var browser: Browser
    public var notifier: Notifier
    /// Videos: mpv over its IPC socket, or the `player` template (the live value is set from the options).
    public var player: Player = .none
    /// The app's clock (the open account's pool and engine run on it too).
    public var time: TimeSource
    /// The open account's use cases that go to relays: live, or a test's (recording, failing).
    public var accountClient: @Sendable (AccountSession, SessionRequestPolicy) -> AccountClient = AccountClient.live
    /// The open account's thumbnails, for the UI's picture drawing (which runs off the UI thread).
    public var pictures = Pictures()

    public static func live(outbox: TerminalOutbox) -> Services {
        Services(
            clipboard: Clipboard(
                copy: { text in
                    // OSC 52 works over SSH and in many terminals, but the terminal never says whether it
                    // did; a desktop tool does (its exit status), so only that counts as copied.
                    outbox.post("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
                    if let tool = Tools.find("wl-copy"), Tools.run(tool, [], input: text) != nil { return .copied(by: "wl-copy") }
                    if let tool = Tools.find("xclip"), Tools.run(tool, ["-selection", "clipboard"], input: text) != nil { return .copied(by: "xclip") }
                    return .sentToTerminal
                },
                read: {
                    if let tool = Tools.find("wl-paste"), let out = Tools.run(tool, ["--no-newline"]) { return out }
                    if let tool = Tools.find("xclip"), let out = Tools.run(tool, ["-selection", "clipboard", "-o"]) { return out }
                    return nil
                }),
            browser: Browser(open: { url in
                guard WebURL.normalized(url) != nil else { return .failure(.message("that is not a web address.")) }
                // Videos go to the player first (`Services.player`); what reaches here opens in the browser.
                if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty, let exe = Tools.find(browser) {
                    Tools.spawn(exe, [url])
                    return .success("opened in \(exe.lastPathComponent).")
                }
                if let opener = Tools.find("xdg-open") {
                    Tools.spawn(opener, [url])
                    return .success("opened in the browser.")
                }
                return .failure(.message("no browser found: set $BROWSER or install xdg-utils."))
            }),
            notifier: Notifier(notify: { title, body, bell, desktop in
                let clean = DisplayText.singleLine(title)
                if bell { outbox.post("\u{07}") }
                guard desktop else { return }
                outbox.post("\u{1B}]777;notify;linkstr;\(clean)\u{07}")
                outbox.post("\u{1B}]9;\(clean)\u{07}")
                if let tool = Tools.find("notify-send") { Tools.spawn(tool, ["linkstr", clean + (body.isEmpty ? "" : ": " + DisplayText.singleLine(body))]) }
            }),
            time: .live)
    }
}

/// Helper programs found on PATH.
enum Tools {
    static func find(_ name: String) -> URL? { MediaPlayer.find(name) }

    /// Runs to completion (2 s at most) and returns stdout; nil when it failed (or took longer).
    static func run(_ exe: URL, _ args: [String], input: String? = nil) -> String? {
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        let out = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = inp
        do { try p.run() } catch { return nil }
        if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
        try? inp.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(2)
        while p.isRunning, Date() < deadline { usleep(10_000) }
        if p.isRunning { p.terminate(); return nil }
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return p.terminationStatus == 0 ? output : nil
    }

    /// Starts a program detached from the terminal (its output discarded).
    static func spawn(_ exe: URL, _ args: [String]) {
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}
