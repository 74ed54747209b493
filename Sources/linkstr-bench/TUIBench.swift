import Foundation
import LinkstrApp
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The terminal app with a large history: the release `linkstr` runs in a real pseudo-terminal (tmux,
/// 80×24) against a real loopback relay, with `LINKSTR_FRAME_STATS` on. The app itself records the time
/// from process launch to its first frame and to its first full frame (session list loaded), each
/// keypress's time from input to the frame on the terminal, and its resident memory.
enum TUIBench {
    static func run(posts: Int, launches: Int = 5) throws {
        let binary = try BenchHome.binary()
        // The NIP-49 default cost: unlocking is part of the time to the first full frame.
        let bench = try BenchHome("tui", me: SecretKey.generate(using: SeededRandom(seed: 42)))
        defer { bench.remove() }
        let (home, paths, me, passphrase) = (bench.home, bench.paths, bench.me, bench.passphrase)
        let sessions = 1_000, perSession = max(1, posts / sessions)
        let fill = try LargeHistory.fill(try LocalStore(paths: paths).account(me, now: 1), me: me.publicKey.hex,
                                         sessions: sessions, postsPerSession: perSession)
        print("tui: \(binary.path), \(sessions * perSession) posts in \(sessions) sessions (filled in \(String(format: "%.1f", fill.seconds)) s), 80×24 tmux")

        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        var firstFrames = [Double](), fullFrames = [Double](), listKeys = [Double](), feedKeys = [Double](), rss = [Int](), peak = [Int]()
        var bootSteps: [String: [Double]] = [:]
        var listParts = [KeyFrame](), feedParts = [KeyFrame]()
        for launch in 0..<launches {
            let stats = home.appendingPathComponent("frames-\(launch).json")
            let window = "l\(launch)"
            try tmux.start(window, [binary.path, "--home", home.path, "--relay", relay.url],
                           environment: ["LINKSTR_PASSPHRASE": passphrase, "LINKSTR_FRAME_STATS": stats.path,
                                         "LINKSTR_LAUNCH_NS": String(Int64(Date().timeIntervalSince1970 * 1e9))])
            try tmux.waitFor(window, text: "Session 999", timeout: 60)
            // Scrolling the session list: down through many rows, to the end, back up, to the top.
            let listKeyCount = try press(tmux, window, Array(repeating: "j", count: 150) + ["G"] + Array(repeating: "k", count: 50) + ["g"])
            // Then a session's feed: open it and scroll through its posts (pages load in the background).
            try tmux.keys(window, "Enter")
            try tmux.waitFor(window, text: "example.com/999/", timeout: 30)
            try press(tmux, window, Array(repeating: "j", count: 120))
            let object = try quitAndReadStats(tmux, window, stats)
            guard let first = object["first_frame_ms"] as? Double, let full = object["first_full_frame_ms"] as? Double,
                  let keys = object["key_latencies_ms"] as? [Double], keys.count >= listKeyCount else {
                throw ProcessRunner.Failure(description: "unexpected frame stats: \(object)")
            }
            for (step, ms) in object["boot_steps_ms"] as? [String: Double] ?? [:] { bootSteps[step, default: []].append(ms) }
            firstFrames.append(first)
            fullFrames.append(full)
            // The first Enter (open the feed) and Escape are not scrolling; the rest is split list / feed.
            listKeys += keys.prefix(listKeyCount)
            feedKeys += keys.dropFirst(listKeyCount + 1).prefix(120)
            let frames = KeyFrame.read(object, latencies: keys)
            listParts += frames.prefix(listKeyCount)
            feedParts += frames.dropFirst(listKeyCount + 1).prefix(120)
            rss.append(object["rss_kib"] as? Int ?? 0)
            peak.append(object["peak_rss_kib"] as? Int ?? 0)
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        func p99(_ v: [Double]) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * 0.99))] }
        Timing.report("first frame (launch → boot screen)", String(format: "median %.0f ms (min %.0f, max %.0f) over %d launches",
                                                                  median(firstFrames), firstFrames.min()!, firstFrames.max()!, launches))
        // Each boot step's first frame: the unlock (NIP-49 scrypt) sits between "preparing local data" and
        // "connecting relays".
        for step in AppState.BootStep.allCases {
            guard let times = bootSteps[step.rawValue], !times.isEmpty else { continue }
            Timing.report("  on screen: \(step.rawValue)", String(format: "median %.0f ms", median(times)))
        }
        Timing.report("first full frame (session list)", String(format: "median %.0f ms (min %.0f, max %.0f)",
                                                               median(fullFrames), fullFrames.min()!, fullFrames.max()!))
        Timing.report("keypress → frame, session list (\(listKeys.count))", String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms",
                                                                                  median(listKeys), p99(listKeys), listKeys.max()!))
        Timing.report("keypress → frame, feed (\(feedKeys.count))", String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms",
                                                                          median(feedKeys), p99(feedKeys), feedKeys.max()!))
        KeyFrame.report("session list", listParts)
        KeyFrame.report("feed", feedParts)
        Timing.report("resident memory at exit", String(format: "median %.1f MiB (peak during run %.1f MiB)",
                                                       Double(rss.sorted()[rss.count / 2]) / 1024, Double(peak.max()!) / 1024))
    }

    /// One key's frame split into its steps (see `FrameStats.recordKey`), to tell where a slow key's
    /// time goes: the slowest 1 % against the median half.
    struct KeyFrame {
        static let steps = ["input+reduce", "answers", "compare", "view", "draw"]
        var total: Double, parts: [Double], answers: Int

        static func read(_ object: [String: Any], latencies: [Double]) -> [KeyFrame] {
            let parts = object["key_parts_ms"] as? [[Double]] ?? []
            let answers = object["key_answers"] as? [Int] ?? []
            return latencies.indices.map { i in
                KeyFrame(total: latencies[i], parts: i < parts.count ? parts[i] : [], answers: i < answers.count ? answers[i] : 0)
            }
        }

        static func report(_ name: String, _ frames: [KeyFrame]) {
            guard frames.count >= 100, frames.allSatisfy({ $0.parts.count == steps.count }) else { return }
            let sorted = frames.sorted { $0.total < $1.total }
            let tail = sorted.suffix(max(1, frames.count / 100)), middle = sorted[sorted.count / 4 ..< sorted.count * 3 / 4]
            func describe(_ group: some Collection<KeyFrame>) -> String {
                let n = Double(group.count)
                let means = steps.indices.map { i in group.reduce(0) { $0 + $1.parts[i] } / n }
                let withAnswers = group.filter { $0.answers > 0 }.count
                return zip(steps, means).map { String(format: "%@ %.3f", $0, $1) }.joined(separator: ", ")
                    + " ms; \(withAnswers)/\(group.count) applied answers"
            }
            Timing.report("  \(name), slowest 1 %", describe(tail))
            Timing.report("  \(name), middle half", describe(middle))
        }
    }

    /// Sends keys one at a time, a little apart, so that each is its own input batch and frame.
    @discardableResult
    private static func press(_ tmux: Tmux, _ window: String, _ keys: [String]) throws -> Int {
        for key in keys {
            try tmux.keys(window, key)
            usleep(8_000)
        }
        return keys.count
    }

    /// Leaves the feed, quits, and reads the frame statistics the app wrote on its way out.
    static func quitAndReadStats(_ tmux: Tmux, _ window: String, _ stats: URL) throws -> [String: Any] {
        try tmux.keys(window, "Escape")
        usleep(100_000)
        try tmux.keys(window, "q")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
    }
}
