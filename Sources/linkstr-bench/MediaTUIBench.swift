import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// Thumbnails in the terminal app: one session of `posts` posts, each with a thumbnail in the
/// sealed media cache, the release `linkstr` at 200×60 in tmux. Keypress → frame while scrolling the
/// feed with pictures drawn as symbols, against the same feed with pictures off; and the app's memory
/// after scrolling through every post (every thumbnail drawn once).
enum MediaTUIBench {
    static func run(posts: Int, launches: Int = 2) throws {
        let binary = try BenchHome.binary()
        let bench = try BenchHome("media-tui", me: SecretKey.generate(using: SeededRandom(seed: 43)))
        defer { bench.remove() }
        let local = try LocalStore(paths: bench.paths)
        let account = try local.account(bench.me, now: 1)
        _ = try LargeHistory.fill(account, me: bench.me.publicKey.hex, sessions: 1, postsPerSession: posts)
        // Every post's thumbnail, as after fetching: a 640×360 picture made small and sealed.
        let media = try required(local.mediaCache(for: account, limitBytes: 1 << 30))
        var rgba = [UInt8](repeating: 255, count: 1280 * 720 * 4)
        for y in 0..<720 { for x in 0..<1280 { let i = (y * 1280 + x) * 4; rgba[i] = UInt8(x * 255 / 1280); rgba[i + 1] = UInt8(y * 255 / 720) } }
        let small = ThumbnailImage.encode(DecodedImage(width: 1280, height: 720, rgba: rgba, format: .png))
        for p in 0..<posts {
            try media.store(small.bytes, key: Thumbnails.key("https://example.com/0/\(p)"),
                            entry: .init(kind: .thumbnail, source: "https://img.example/\(p).jpg", width: small.width, height: small.height,
                                         format: small.format.rawValue, savedAt: 1))
        }
        let usage = try media.usage()
        print("media-tui: \(posts) posts with thumbnails (\(usage.files) sealed files, \(usage.bytes / 1024) KiB), 200×60 tmux, \(launches) launches each")
        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        for images in ["symbols", "off"] {
            var keys = [Double](), peak = [Int](), parts = [TUIBench.KeyFrame]()
            for launch in 0..<launches {
                let stats = bench.home.appendingPathComponent("frames-\(images)-\(launch).json")
                let window = "\(images)\(launch)"
                try tmux.start(window, [binary.path, "--home", bench.home.path, "--relay", relay.url, "--images", images],
                               environment: ["LINKSTR_PASSPHRASE": bench.passphrase, "LINKSTR_FRAME_STATS": stats.path], columns: 200, rows: 60)
                try tmux.waitFor(window, text: "Session 0", timeout: 60)
                try tmux.keys(window, "Enter")
                try tmux.waitFor(window, text: "example.com/0/", timeout: 30)
                // With pictures, the posts' lines stand right of their boxes once the thumbnails are read.
                if images != "off" { try tmux.waitFor(window, text: String(repeating: " ", count: 17) + "[Link] https://example.com/0/", timeout: 30) }
                usleep(300_000)  // the first page's pictures drawn
                for _ in 0..<150 { try tmux.keys(window, "j"); usleep(8_000) }
                // Then through every post: the oldest (every page loaded), and back up a page at a time.
                try tmux.keys(window, "G")
                usleep(500_000)
                for _ in 0..<(posts / 12) { try tmux.keys(window, "PageUp"); usleep(15_000) }
                let object = try TUIBench.quitAndReadStats(tmux, window, stats)
                let latencies = object["key_latencies_ms"] as? [Double] ?? []
                keys += latencies.dropFirst(1).prefix(150)  // after Enter: the 150 j
                parts += TUIBench.KeyFrame.read(object, latencies: latencies).dropFirst(1).prefix(150)
                peak.append(object["peak_rss_kib"] as? Int ?? 0)
            }
            func pct(_ v: [Double], _ q: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * q))] }
            Timing.report("keypress → frame, feed, images \(images) (\(keys.count))",
                          String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms", pct(keys, 0.5), pct(keys, 0.99), keys.max() ?? 0))
            TUIBench.KeyFrame.report("images \(images)", parts)
            Timing.report("peak memory, images \(images)", String(format: "%.1f MiB after showing every post (max over launches)", Double(peak.max() ?? 0) / 1024))
        }
    }

    private static func required<T>(_ value: T?) throws -> T {
        guard let value else { throw ProcessRunner.Failure(description: "no media cache") }
        return value
    }
}
