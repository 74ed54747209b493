import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrTestSupport
import Synchronization
import XCTest

/// Playing videos with a stub mpv that records its arguments and speaks mpv's IPC over a real socket
/// (Tests/Interop/stub_mpv.py): what the status line gets, what mpv is told, yt-dlp missing or failing,
/// a crash, another player through the `player` template, and the terminal's video output.
final class PlaybackTests: XCTestCase {
    var stubs: StubTools!
    var log: URL { stubs.directory.appendingPathComponent("mpv.log") }
    let video = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"

    override func setUpWithError() throws {
        stubs = try StubTools("playback")
        try stubs.installMediaTools(ytdlp: false)
    }

    override func tearDown() { stubs.remove() }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["PATH": stubs.path, "STUB_MPV_LOG": log.path]) { $1 }.merging(extra) { $1 }
    }

    func play(_ url: String, _ settings: PlayerSettings = PlayerSettings(), _ extra: [String: String] = [:]) async -> [PlaybackEvent] {
        let events = Mutex<[PlaybackEvent]>([])
        await MediaPlayer.play(url, settings: settings, environment: environment(extra)) { event in events.withLock { $0.append(event) } }
        return events.withLock { $0 }
    }

    var arguments: [[String]] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").components(separatedBy: "\n\n").filter { !$0.isEmpty }
            .map { $0.split(separator: "\n").map(String.init) }
    }

    func testAVideoPlaysToItsEndAndMpvIsToldWhatWasConfigured() async throws {
        let events = await play(video, PlayerSettings(ytdlFormat: "bestvideo[height<=?720]+bestaudio/best", mpvArguments: ["--fs", "--mute=yes"]))
        XCTAssertEqual(events, [.starting(player: "mpv"), .playing(title: "A [2Jfilm"), .ended], "the title's escape taken out")
        let args = try XCTUnwrap(arguments.first)
        XCTAssertTrue(args.first!.hasPrefix("--input-ipc-server=/"), "\(args)")
        XCTAssertTrue(args.contains("--no-terminal") && args.contains("--force-window=immediate"), "\(args)")
        XCTAssertTrue(args.contains("--ytdl-format=bestvideo[height<=?720]+bestaudio/best"))
        XCTAssertEqual(Array(args.suffix(4)), ["--fs", "--mute=yes", "--", video], "the link last, after --")
        let socket = String(args.first!.dropFirst("--input-ipc-server=".count))
        XCTAssertFalse(FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent), "the private directory goes")

        let closed = await play(video, PlayerSettings(), ["STUB_MPV_SCENARIO": "quit"])
        XCTAssertEqual(closed.last, .closed)
    }

    func testYtdlpFailingMissingOrMpvCrashingIsSaidWithTheFix() async throws {
        let failed = await play(video, PlayerSettings(), ["STUB_MPV_SCENARIO": "ytdl"])
        guard case .failed(let why) = failed.last else { return XCTFail("\(failed)") }
        XCTAssertTrue(why.contains("Unsupported URL") && why.contains("yt-dlp -U"), why)
        XCTAssertEqual(failed.count, 2, "starting, then the failure once: \(failed)")

        let crashed = await play(video, PlayerSettings(), ["STUB_MPV_SCENARIO": "crash"])
        XCTAssertEqual(crashed.last, .failed("mpv stopped (exit status 3)."))

        try FileManager.default.removeItem(at: stubs.directory.appendingPathComponent("yt-dlp"))
        let before = arguments.count
        let missing = await play(video)
        XCTAssertEqual(missing, [.failed(MpvEventReader.installYtdlp)])
        XCTAssertEqual(arguments.count, before, "mpv is not started for a site it cannot play")
        // A plain video file needs no yt-dlp.
        let file = await play("https://cdn.example/clip.mp4")
        XCTAssertEqual(file.last, .ended)
    }

    func testAnotherPlayerThroughTheTemplateAndTheTerminalsVideoOutput() async throws {
        let recorded = try stubs.install("myplayer", script: "echo \"$@\" > \"$OUT\"")
        let handed = await play(video, PlayerSettings(template: ["myplayer", "--start=0", "{url}", "--quiet"]))
        XCTAssertEqual(handed, [.handedOff(player: "myplayer")])
        var text = ""
        for _ in 0..<50 where text.isEmpty { text = (try? String(contentsOf: recorded, encoding: .utf8)) ?? ""; usleep(20_000) }
        XCTAssertEqual(text, "--start=0 \(video) --quiet\n")
        let unknown = await play(video, PlayerSettings(template: ["nosuchplayer"]))
        XCTAssertEqual(unknown, [.failed("the player `nosuchplayer` is not installed or not on PATH.")])

        // In the terminal: kitty's output only where this mpv has it, else truecolour blocks.
        _ = await play(video, PlayerSettings(terminalOutput: "kitty"))
        _ = await play(video, PlayerSettings(terminalOutput: "kitty"), ["STUB_MPV_KITTY": "1"])
        let outputs = arguments.suffix(2).map { $0.first { $0.hasPrefix("--vo=") } }
        XCTAssertEqual(outputs, ["--vo=tct", "--vo=kitty"])
        XCTAssertTrue(arguments.last!.contains("--really-quiet"))
        XCTAssertFalse(arguments.last!.contains("--no-terminal"))
    }
}
