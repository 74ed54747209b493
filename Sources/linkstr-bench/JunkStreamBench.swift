import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrTestSupport
import NostrProtocol

/// The terminal app under an endless junk stream: the fault proxy's `flood 0` mode
/// sends junk gift wraps (right ids, bad signatures) on the live subscription without end; with
/// `variants` it sends variants of one genuine wrap to us instead (a new date, the id made
/// again, the old signature or a random one). The release app in tmux (80×24) is connected for
/// `seconds`, the session list scrolled every 50 ms; measured: the app's CPU over the window and after
/// the relay was dropped (from /proc and the log), its resident memory (sampled, and the peak), and each
/// key until the frame that shows it.
enum JunkStreamBench {
    static func run(seconds: Int, variants: Bool = false) async throws {
        let binary = try BenchHome.binary()
        let bench = try BenchHome("junkstream", me: SecretKey.generate(using: SeededRandom(seed: 45)))
        defer { bench.remove() }
        let relay = try TestRelay()
        defer { relay.stop() }
        let genuine = variants ? try await genuineWrap(to: bench.me.publicKey, on: relay.url, in: bench.home) : nil
        let proxy = try FaultProxy.start(upstream: relay.url, mode: variants ? "variants" : "flood", argument: genuine?.path ?? "0")
        defer { proxy.stop() }
        let stats = bench.home.appendingPathComponent("frames.json")
        let tmux = try Tmux()
        try tmux.start("j", [binary.path, "--home", bench.home.path, "--relay", proxy.url],
                       environment: ["LINKSTR_PASSPHRASE": bench.passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("j", text: "1 Sessions", timeout: 60)
        let pid = try JunkBench.appPID(bench.home)
        let startTicks = ProcessCPU.ticks(pid) ?? 0, started = Date()
        let log = bench.paths.state.appendingPathComponent("linkstr.log")
        var samples = [Int](), keys = 0, dropped: (at: Double, ticks: Int)?
        while Date().timeIntervalSince(started) < Double(seconds) {
            try tmux.keys("j", keys % 2 == 0 ? "j" : "k")
            keys += 1
            usleep(50_000)
            if keys % 20 == 0 {
                samples.append(JunkBench.rssKiB(pid))
                if dropped == nil, ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("dropped for junk") {
                    dropped = (Date().timeIntervalSince(started), ProcessCPU.ticks(pid) ?? 0)
                }
            }
        }
        let wall = Date().timeIntervalSince(started), endTicks = ProcessCPU.ticks(pid) ?? 0
        let cpu = Double(endTicks - startTicks) / ProcessCPU.ticksPerSecond
        try tmux.keys("j", "4")
        usleep(500_000)
        let screen = try tmux.screen("j")
        try tmux.keys("j", "q")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).sorted()
        guard !latencies.isEmpty else { throw ProcessRunner.Failure(description: "no key latencies recorded") }
        print("junk-stream: \(binary.path), fault proxy `\(variants ? "variants" : "flood 0")` in front of nostr-relay, \(seconds) s, 80×24 tmux")
        Timing.report("app CPU under the stream", String(format: "%.2f cores (%.1f s CPU in %.1f s)", cpu / wall, cpu, wall))
        if let dropped {
            let after = Double(endTicks - dropped.ticks) / ProcessCPU.ticksPerSecond
            Timing.report("relay dropped (log)", String(format: "within %.1f s; CPU after: %.2f cores (%.1f s in %.1f s)", dropped.at,
                                                        after / (wall - dropped.at), after, wall - dropped.at))
        } else {
            Timing.report("relay dropped (log)", "never")
        }
        Timing.report("app resident memory", String(format: "median %.1f MiB, max sampled %.1f MiB, peak %.1f MiB",
                                                    Double(samples.sorted()[samples.count / 2]) / 1024, Double(samples.max() ?? 0) / 1024,
                                                    Double(object["peak_rss_kib"] as? Int ?? 0) / 1024))
        Timing.report("keys (\(latencies.count))", String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms", latencies[latencies.count / 2],
                                                         latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))], latencies.last!))
        let relayLines = screen.split(separator: "\n").filter { $0.contains("127.0.0.1") || $0.contains("dropped") }.prefix(2)
        Timing.report("relay row in Settings", relayLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " / "))
    }

    /// A stranger's session wrapped to `me`, put on the relay, its JSON in a file for the proxy.
    static func genuineWrap(to me: PublicKey, on url: String, in home: URL) async throws -> URL {
        let wrap = try PeerWraps.strangersSession("Minted", to: me, now: Int64(Date().timeIntervalSince1970))
        let publisher = RelayPool()
        await publisher.setRelays([(url, true)])
        _ = await publisher.waitForWritableRelay()
        try await SyncBench.publishAll([wrap], with: publisher)
        await publisher.stop()
        let file = home.appendingPathComponent("genuine-wrap.json")
        try wrap.jsonString().write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
