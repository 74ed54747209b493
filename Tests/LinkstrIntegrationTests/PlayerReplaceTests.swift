import Foundation
import LinkstrTestSupport
import XCTest

/// One player at a time, in tmux with the stub mpv: `o` on the video playing says so and starts nothing;
/// `o` on another asks first (n keeps the one playing; y stops it and plays the other). And without a
/// display (neither DISPLAY nor WAYLAND_DISPLAY) mpv is never asked for a window: the video plays in
/// the terminal, as `playback = "terminal"` does.
final class PlayerReplaceTests: XCTestCase {
    func testOneVideoAtATimeAndNoWindowWithoutADisplay() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let stubs = try StubTools("player-replace")
        defer { stubs.remove() }
        try stubs.installMediaTools(ytdlp: false)
        let log = stubs.directory.appendingPathComponent("mpv.log")
        let home = try Home("player-replace", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        try home.writeConfig("link_previews = false\n")
        let session = try home.ok(["session", "create", "Films"]).trimmed
        try home.ok(["post", session, "https://www.youtube.com/watch?v=first000001", "--note", "first film"])
        try home.ok(["post", session, "https://www.youtube.com/watch?v=second00002", "--note", "second film"])
        func starts() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("https://") }
        }
        /// The stub mpv processes running now (found by their command line).
        func players() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
                guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                let line = String(decoding: raw, as: UTF8.self)
                return line.contains("stub_mpv.py") && line.contains("youtube.com/watch?v=")
            }
        }
        // A stub that outlives a failure is ended with the test (the app's ignored SIGTERM is inherited).
        defer { for pid in players() { kill(pid, SIGKILL) } }
        let tmux = try Tmux()
        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("tmux-256color", 120, 36)].enumerated() {
            try "".write(to: log, atomically: true, encoding: .utf8)
            let w = "p\(i)"
            try home.startApp(tmux, w, relay: relay.url,
                              environment: ["PATH": stubs.path, "STUB_MPV_LOG": log.path, "STUB_MPV_SECONDS": "60", "DISPLAY": ":0", "TERM": term],
                              columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Films", timeout: 30)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "▌ second film", timeout: 20)
            // The newest first: the second film is selected.
            try tmux.keys(w, "o")
            try tmux.waitFor(w, text: "playing: A [2Jfilm.", timeout: 20)
            try tmux.keys(w, "o")
            try tmux.waitFor(w, text: "already playing; close its window")
            XCTAssertEqual(starts(), ["https://www.youtube.com/watch?v=second00002"], "nothing new started")
            try tmux.keys(w, "j", "o")
            try tmux.waitFor(w, text: "another video is playing: stop it and play this one? (y/n)")
            try tmux.keys(w, "n")
            try tmux.waitFor(w, "the question gone") { !$0.contains("stop it and play this one?") }
            XCTAssertEqual(starts().count, 1, "n keeps the one playing")
            XCTAssertEqual(players().count, 1, "one player runs")
            try tmux.keys(w, "o")
            try tmux.waitFor(w, text: "stop it and play this one?")
            try tmux.keys(w, "y")
            try tmux.waitFor(w, "the first film replaced") { _ in starts().count == 2 }
            XCTAssertEqual(starts().last, "https://www.youtube.com/watch?v=first000001")
            try tmux.waitFor(w, text: "playing: A [2Jfilm.", timeout: 20)
            try tmux.waitFor(w, "only the new player left", timeout: 10) { _ in players().count == 1 }
            let screen = try tmux.screen(w)
            XCTAssertFalse(screen.contains("mpv stopped"), "the stopped player says nothing: \(screen)")
            try tmux.keys(w, "Escape", "q")
            try tmux.waitFor(w, "the app to exit") { !$0.contains("1 Sessions") }
            // The window outlives the app (as a browser's would); the test closes it.
            for pid in players() { kill(pid, SIGKILL) }
        }

        // No display: the terminal's path (the app steps aside, mpv draws in blocks), never a window.
        try "".write(to: log, atomically: true, encoding: .utf8)
        try home.startApp(tmux, "nd", relay: relay.url,
                          environment: ["PATH": stubs.path, "STUB_MPV_LOG": log.path, "DISPLAY": "", "WAYLAND_DISPLAY": ""])
        try tmux.waitFor("nd", text: "Films", timeout: 30)
        try tmux.keys("nd", "Enter")
        try tmux.waitFor("nd", text: "▌ second film", timeout: 20)
        try tmux.keys("nd", "o")
        try tmux.waitFor("nd", text: "playback ended.", timeout: 20)
        let args = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertTrue(args.contains("--vo=tct") && !args.contains("--force-window=immediate"), "\(args)")
        try tmux.keys("nd", "Escape", "q")
        try tmux.waitFor("nd", "the app to exit") { !$0.contains("1 Sessions") }
    }
}
