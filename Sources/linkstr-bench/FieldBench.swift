import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// Long input: the release `linkstr` in tmux (80×24) with a megabyte pasted into the composer's note,
/// then keys typed, moved and deleted in it. The app records each keypress's time from input to the
/// frame on the terminal (`LINKSTR_FRAME_STATS`).
enum FieldBench {
    static func run(bytes: Int, keys: Int = 300) throws {
        let binary = try BenchHome.binary()
        let bench = try BenchHome("field", me: SecretKey.generate(using: SeededRandom(seed: 43)))
        defer { bench.remove() }
        let (home, paths, me, passphrase) = (bench.home, bench.paths, bench.me, bench.passphrase)
        _ = try LargeHistory.fill(try LocalStore(paths: paths).account(me, now: 1), me: me.publicKey.hex, sessions: 1, postsPerSession: 1)
        let paste = home.appendingPathComponent("paste.txt")
        try (String(repeating: "lorem ipsum dolor sit amet, ", count: bytes / 28) + "END").write(to: paste, atomically: true, encoding: .utf8)

        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        let stats = home.appendingPathComponent("frames.json")
        try tmux.start("f", [binary.path, "--home", home.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("f", text: "Session 0", timeout: 60)
        try tmux.keys("f", "Enter")
        try tmux.waitFor("f", text: "‹", timeout: 30)
        try tmux.keys("f", "c")
        try tmux.waitFor("f", text: "Share a link")
        try tmux.keys("f", "Tab")
        let started = Date()
        try tmux.pasteFile("f", paste)
        try tmux.waitFor("f", text: "END", timeout: 120)
        let pasteSeconds = Date().timeIntervalSince(started)
        // Typing at the end, moving into the middle of the text, deleting there.
        let pattern = ["x", "y", "BSpace", "Left", "Left", "z", "Right", "BSpace", "Home", "End"]
        for i in 0..<keys {
            try tmux.keys("f", pattern[i % pattern.count])
            usleep(8_000)
        }
        usleep(200_000)
        try tmux.keys("f", "C-c")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).suffix(keys)
        guard latencies.count == keys else { throw ProcessRunner.Failure(description: "unexpected frame stats: \(object.keys)") }
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        print("field: \(binary.path), \(bytes) bytes pasted into the composer's note, 80×24 tmux")
        Timing.report("paste on screen (tmux → frame)", String(format: "%.2f s", pasteSeconds))
        Timing.report("keypress → frame, \(keys) keys", String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms",
                                                            sorted[sorted.count / 2], p99, sorted.last!))
        Timing.report("resident memory at exit", String(format: "%.1f MiB (peak %.1f MiB)",
                                                       Double(object["rss_kib"] as? Int ?? 0) / 1024, Double(object["peak_rss_kib"] as? Int ?? 0) / 1024))
    }
}
