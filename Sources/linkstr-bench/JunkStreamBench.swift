import Foundation
import LinkstrTestSupport
import NostrProtocol

/// The terminal app under an endless junk stream (issue 32, item 12): the fault proxy's `flood 0` mode
/// sends junk gift wraps (right ids, bad signatures) on the live subscription without end. The release
/// app in tmux (80×24) is connected for `seconds`, the session list scrolled every 50 ms; measured: the
/// app's CPU over the window (from /proc), its resident memory (sampled, and the peak), and each key
/// until the frame that shows it.
enum JunkStreamBench {
    static func run(seconds: Int) throws {
        let binary = try BenchHome.binary()
        let bench = try BenchHome("junkstream", me: SecretKey.generate(using: SeededRandom(seed: 45)))
        defer { bench.remove() }
        let relay = try TestRelay()
        defer { relay.stop() }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "flood", argument: "0")
        defer { proxy.stop() }
        let stats = bench.home.appendingPathComponent("frames.json")
        let tmux = try Tmux()
        try tmux.start("j", [binary.path, "--home", bench.home.path, "--relay", proxy.url],
                       environment: ["LINKSTR_PASSPHRASE": bench.passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("j", text: "1 Sessions", timeout: 60)
        let pid = try JunkBench.appPID(bench.home)
        let startTicks = ProcessCPU.ticks(pid) ?? 0, started = Date()
        var samples = [Int](), keys = 0
        while Date().timeIntervalSince(started) < Double(seconds) {
            try tmux.keys("j", keys % 2 == 0 ? "j" : "k")
            keys += 1
            usleep(50_000)
            if keys % 20 == 0 { samples.append(JunkBench.rssKiB(pid)) }
        }
        let wall = Date().timeIntervalSince(started)
        let cpu = Double((ProcessCPU.ticks(pid) ?? 0) - startTicks) / ProcessCPU.ticksPerSecond
        try tmux.keys("j", "4")
        usleep(500_000)
        let screen = try tmux.screen("j")
        try tmux.keys("j", "q")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).sorted()
        guard !latencies.isEmpty else { throw ProcessRunner.Failure(description: "no key latencies recorded") }
        print("junk-stream: \(binary.path), fault proxy `flood 0` in front of nostr-relay, \(seconds) s, 80×24 tmux")
        Timing.report("app CPU under the stream", String(format: "%.2f cores (%.1f s CPU in %.1f s)", cpu / wall, cpu, wall))
        Timing.report("app resident memory", String(format: "median %.1f MiB, max sampled %.1f MiB, peak %.1f MiB",
                                                    Double(samples.sorted()[samples.count / 2]) / 1024, Double(samples.max() ?? 0) / 1024,
                                                    Double(object["peak_rss_kib"] as? Int ?? 0) / 1024))
        Timing.report("keys (\(latencies.count))", String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms", latencies[latencies.count / 2],
                                                         latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))], latencies.last!))
        let relayLines = screen.split(separator: "\n").filter { $0.contains("127.0.0.1") || $0.contains("dropped") }.prefix(2)
        Timing.report("relay row in Settings", relayLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " / "))
    }
}
