import Foundation
import LinkstrTestSupport
import XCTest

/// Playing a post's video from the app in tmux, with the stub mpv (Tests/Interop/stub_mpv.py) first on
/// PATH: the status line follows what mpv says over its socket; yt-dlp's failure is said with the fix;
/// with `playback = "terminal"` the app gives the terminal to mpv (truecolour blocks) and takes it back.
final class PlaybackScreenTests: XCTestCase {
    func testTheStatusLineFollowsMpvAndTerminalPlaybackGivesTheScreenBack() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let stubs = try StubTools("playback-screen")
        defer { stubs.remove() }
        try stubs.installMediaTools(ytdlp: false)
        let log = stubs.directory.appendingPathComponent("mpv.log")
        var home = try Home("playback", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        // YouTube's thumbnails would be fetched from the internet: not in tests.
        try home.writeConfig("link_previews = false\nytdl_format = \"best[height<=480]\"\n")
        let session = try home.ok(["session", "create", "Films"]).trimmed
        let post = try home.ok(["post", session, "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "--note", "tonight"]).trimmed
        let tmux = try Tmux()
        func start(_ window: String, scenario: String, _ extra: [String: String] = [:]) throws {
            // A desktop's display, for the window (without one mpv draws in the terminal: PlayerReplaceTests).
            try home.startApp(tmux, window, relay: relay.url, environment: ["PATH": stubs.path, "STUB_MPV_LOG": log.path, "DISPLAY": ":0",
                                                                            "STUB_MPV_SCENARIO": scenario, "STUB_MPV_SECONDS": "1"].merging(extra) { $1 })
            try tmux.waitFor(window, text: "Films", timeout: 30)
            try tmux.keys(window, "Enter")
            try tmux.waitFor(window, text: "▌ tonight", timeout: 20)
        }

        try start("w", scenario: "ok")
        try tmux.keys("w", "o")
        try tmux.waitFor("w", text: "playing: A [2Jfilm.", timeout: 20)
        try tmux.waitFor("w", text: "playback ended.", timeout: 20)
        let args = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertTrue(args.contains("--ytdl-format=best[height<=480]"), "\(args)")
        XCTAssertTrue(args.contains("--no-terminal"), "\(args)")
        try tmux.keys("w", "Escape", "q")
        try tmux.waitFor("w", "the app to exit") { !$0.contains("1 Sessions") }

        try start("f", scenario: "ytdl")
        try tmux.keys("f", "o")
        let failed = try tmux.waitFor("f", text: "could not play: yt-dlp could not play this", timeout: 20)
        // Longer than the line: cut, and whole in :messages (issue 54).
        XCTAssertTrue(failed.contains("(ERROR: [generic]") && failed.contains("(… :messages)"), failed)
        try tmux.keys("f", ":")
        try tmux.submit("f", "messages")
        let messages = try tmux.waitFor("f", text: "Messages (")
        XCTAssertTrue(messages.contains("Unsupported") && messages.contains("yt-dlp -U"), messages)
        try tmux.keys("f", "Escape")
        try tmux.waitFor("f", "the messages closed") { !$0.contains("Messages (") }
        try tmux.keys("f", "Escape", "q")
        try tmux.waitFor("f", "the app to exit") { !$0.contains("1 Sessions") }

        // In the terminal: the app steps aside, mpv draws in blocks, the app comes back where it was.
        try home.writeConfig("link_previews = false\nplayback = \"terminal\"\n")
        try "".write(to: log, atomically: true, encoding: .utf8)
        try start("t", scenario: "ok")
        try tmux.keys("t", "Enter")
        try tmux.waitFor("t", text: "+ 👍  - 👎  * 👀")
        try tmux.keys("t", "o")
        try tmux.waitFor("t", "the app to step aside") { !$0.contains("1 Sessions") }
        try tmux.waitFor("t", text: "playback ended.", timeout: 20)
        try tmux.waitFor("t", text: "+ 👍  - 👎  * 👀")
        let terminalArgs = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertTrue(terminalArgs.contains("--vo=tct") && !terminalArgs.contains("--no-terminal"), "\(terminalArgs)")
        try tmux.keys("t", "Escape", "Escape", "q")
        try tmux.waitFor("t", "the app to exit") { !$0.contains("1 Sessions") }

        // Saving for offline: a progress bar, `s` again cancels; saved, `o` plays the copy through a pipe.
        try home.writeConfig("link_previews = false\n")
        try "".write(to: log, atomically: true, encoding: .utf8)
        try stubs.installMediaTools()
        try start("s", scenario: "ok", ["STUB_YTDLP_SCENARIO": "slow"])
        try tmux.keys("s", "Enter")
        try tmux.waitFor("s", text: "+ 👍  - 👎  * 👀")
        try tmux.keys("s", "s")
        try tmux.waitFor("s", "the progress bar") { $0.contains("saving ▕█") && $0.contains("% · s again cancels") }
        try tmux.keys("s", "s")
        try tmux.waitFor("s", text: "save cancelled; nothing was kept.", timeout: 10)
        try tmux.keys("s", "Escape", "Escape", "q")
        try tmux.waitFor("s", "the app to exit") { !$0.contains("1 Sessions") }
        try start("o", scenario: "ok")
        try tmux.keys("o", "Enter")
        try tmux.waitFor("o", text: "+ 👍  - 👎  * 👀")
        try tmux.keys("o", "s")
        try tmux.waitFor("o", text: "saved for offline (3.0 MiB): o plays it from the cache.", timeout: 20)
        try tmux.keys("o", "o")
        try tmux.waitFor("o", text: "playback ended.", timeout: 20)
        XCTAssertTrue(((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("stdin \(3 << 20) "), "played from the cache through the pipe")
        try tmux.keys("o", "Escape", "Escape", "q")
        try tmux.waitFor("o", "the app to exit") { !$0.contains("1 Sessions") }

        // The CLI: what happens on stderr, the exit status says whether it played.
        let played = try home.run(["media", "play", post], environment: ["PATH": stubs.path, "STUB_MPV_LOG": log.path])
        XCTAssertEqual(played.status, 0, played.err)
        XCTAssertEqual(played.err, "linkstr: starting mpv…\nlinkstr: playing: A [2Jfilm.\nlinkstr: playback ended.\n")
        let refused = try home.run(["media", "play", post], environment: ["PATH": stubs.path, "STUB_MPV_SCENARIO": "ytdl"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("could not play: yt-dlp could not play this"), refused.err)
    }
}
