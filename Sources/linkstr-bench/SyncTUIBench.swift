import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// Keys while a cold sync ingests: the release app in tmux (80×24) with an empty store, a relay holding
/// `wraps` gift wraps for the account, and the session list scrolled (j/k) every 20 ms while the
/// backfill runs, opening the selected session's feed and going back every fourth key. Each key counts
/// until the frame that shows it; a feed open until the frame that shows the feed loaded. With no keys
/// (`sync-news`), the app only watches the news arrive for `idle` seconds: every session list read
/// whole is then one the news caused.
enum SyncTUIBench {
    static func run(wraps: Int, keys: Int = 400, idle: Double = 0) async throws {
        let binary = try BenchHome.binary()
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate()
        let seeded = try await SyncBench.seed(relay.url, for: me, wraps: wraps, now: Int64(Date().timeIntervalSince1970))
        let bench = try BenchHome("synctui", me: me)
        defer { bench.remove() }
        let (home, passphrase) = (bench.home, bench.passphrase)
        let stats = home.appendingPathComponent("frames.json")
        let tmux = try Tmux()
        try tmux.start("s", [binary.path, "--home", home.path, "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": passphrase, "LINKSTR_FRAME_STATS": stats.path])
        try tmux.waitFor("s", text: "1 Sessions", timeout: 60)
        let started = Date()
        // Down, open the session, back, up: the list moves and feeds open while the backfill runs.
        for i in 0..<keys {
            try tmux.keys("s", ["j", "Enter", "h", "k"][i % 4])
            usleep(i % 4 == 1 ? 60_000 : 20_000)
        }
        if keys == 0 { usleep(UInt32(idle * 1_000_000)) }
        let keySeconds = Date().timeIntervalSince(started)
        usleep(300_000)
        try tmux.keys("s", "q")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: stats.path), Date() < deadline { usleep(50_000) }
        // The app writes its figures before it closes its database: the home is removed once it has ended
        // (its pane then runs the `sleep` after it), or its own cleanup races ours.
        while try tmux.tmux(["display", "-p", "-t", "s", "#{pane_current_command}"]).trimmingCharacters(in: .whitespacesAndNewlines) != "sleep",
              Date() < deadline { usleep(50_000) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any] ?? [:]
        let latencies = (object["key_latencies_ms"] as? [Double] ?? []).suffix(keys).sorted()
        print("sync-tui: \(binary.path), \(seeded.events.count) wraps on nostr-relay, cold store, 80×24 tmux"
              + (keys == 0 ? ", no keys for \(Int(idle)) s" : ""))
        if keys > 0 {
        guard !latencies.isEmpty else { throw ProcessRunner.Failure(description: "no key latencies recorded") }
        let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        Timing.report("keys during the cold sync (\(latencies.count) in \(String(format: "%.1f", keySeconds)) s)",
                      String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms", latencies[latencies.count / 2], p99, latencies.last!))
        }
        let opens = (object["feed_open_ms"] as? [Double] ?? []).sorted()
        if !opens.isEmpty {
            Timing.report("feed opens to the loaded feed (\(opens.count))",
                          String(format: "median %.1f ms, p99 %.1f ms, max %.1f ms", opens[opens.count / 2],
                                 opens[min(opens.count - 1, Int(Double(opens.count) * 0.99))], opens.last!))
        }
        Timing.report("session lists read whole", "\(object["session_lists_loaded"] as? Int ?? 0) for \(object["batches_arrived"] as? Int ?? 0) batches of news"
                      + " (\(object["session_lists_pushed"] as? Int ?? 0) lists came with the news, their touched rows read)")
        Timing.report("peak resident memory", String(format: "%.1f MiB", Double(object["peak_rss_kib"] as? Int ?? 0) / 1024))
    }
}
