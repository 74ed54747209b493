import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol

/// Thumbnails: decoding a page's image and drawing it as symbol cells, each timed on its own
/// (release, one core). The image is a 1280×720 photo-like gradient encoded here as JPEG, PNG and WebP.
enum MediaBench {
    static func run(runs: Int) async throws {
        let (width, height) = (1280, 720)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                rgba[i] = UInt8(x * 255 / width); rgba[i + 1] = UInt8(y * 255 / height); rgba[i + 2] = UInt8((x ^ y) & 0xFF)
            }
        }
        print("media: \(width)×\(height) image, \(runs) runs each, 1 core")
        for format in [ImageFormat.jpeg, .png, .webp] {
            let bytes = ImageFixtures.encode(rgba, width: width, height: height, as: format, quality: format == .webp ? 80 : 85) ?? []
            let decode = try Timing.distribution(runs: runs) { _ in _ = try ImageDecoder.decode(bytes) }
            Timing.report("decode \(format.rawValue) (\(bytes.count / 1024) KiB)", String(format: "median %.2f ms, p99 %.2f ms", decode.median, decode.p99))
        }
        let image = DecodedImage(width: width, height: height, rgba: rgba, format: .png)
        for (columns, rows) in [(12, 3), (40, 11), (200, 56)] {
            for colors in [SymbolArt.Colors.truecolor, .palette256] {
                let draw = Timing.distribution(runs: runs) { _ in _ = SymbolArt.render(image, columns: columns, rows: rows, colors: colors) }
                Timing.report("symbols \(columns)×\(rows) cells, \(colors)", String(format: "median %.2f ms, p99 %.2f ms", draw.median, draw.p99))
            }
        }
        try await pipeline(rgba, width, height, runs: runs)
    }

    /// A thumbnail from nothing to its first drawing, as the app does it: the page's image fetched from a
    /// loopback web server, decoded, made small, sealed into the media cache (`Thumbnails.refresh`); then
    /// read back, opened, decoded and drawn as the feed's 12×3 symbol box (`ImageArt`'s work).
    static func pipeline(_ rgba: [UInt8], _ width: Int, _ height: Int, runs: Int) async throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-media-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer {
            do { try FileManager.default.removeItem(at: files) } catch { print("  (could not remove \(files.path): \(error))") }
        }
        let jpeg = ImageFixtures.encode(rgba, width: width, height: height, as: .jpeg, quality: 85) ?? []
        try Data(jpeg).write(to: files.appendingPathComponent("photo.jpg"))
        let server = Process()
        server.executableURL = try TestEnvironment.python()
        server.arguments = [TestEnvironment.interopScript("preview_server.py").path, "/dev/null", files.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        guard let port = Int(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessRunner.Failure(description: "the preview server did not start")
        }
        let bench = try BenchHome("media", me: SecretKey.generate())
        defer { bench.remove() }
        let local = try LocalStore(paths: bench.paths)
        let store = try local.account(bench.me, now: 1)
        guard let media = local.mediaCache(for: store, limitBytes: 1 << 30) else { return }
        let link = "http://127.0.0.1:\(port)/page/photo.jpg"
        let previews = LinkPreviewCache(store: store, fetcher: LinkPreviewFetcher(allowPrivateAddresses: true), clock: { 1 })
        guard await previews.refresh([link])[link] != nil else { throw ProcessRunner.Failure(description: "the page's title was not fetched") }
        let thumbnails = Thumbnails(store: store, media: media, fetcher: ImageFetcher(allowPrivateAddresses: true), clock: { 1 })
        // Its parts: the GET alone, and decoding and making it small alone.
        let fetcher = ImageFetcher(allowPrivateAddresses: true)
        var gets = [Double](), smalls = [Double]()
        for _ in 0..<runs {
            var bytes = [UInt8]()
            gets.append(try await Timing.secondsAsync { bytes = try await fetcher.fetch("http://127.0.0.1:\(port)/files/photo.jpg") } * 1000)
            smalls.append(try Timing.seconds { _ = ThumbnailImage.encode(try ImageDecoder.decode(bytes)) } * 1000)
        }
        let decoded = try ImageDecoder.decode(jpeg)
        let resize = Timing.distribution(runs: runs) { _ in _ = ThumbnailImage.scaled(decoded, maxSide: ThumbnailImage.maxSide) }
        let half = ThumbnailImage.scaled(decoded, maxSide: ThumbnailImage.maxSide)
        let encode = Timing.distribution(runs: runs) { _ in _ = ThumbnailImage.encode(half) }
        var fetched = [Double](), drawn = [Double](), total = [Double]()
        for _ in 0..<runs {
            await thumbnails.forget(link)
            var found = [String: Thumbnail]()
            let fetch = try await Timing.secondsAsync { found = await thumbnails.refresh([link]) }
            guard found[link] != nil else { throw ProcessRunner.Failure(description: "no thumbnail") }
            let draw = try Timing.seconds {
                guard let pixels = thumbnails.pixels(link) else { throw ProcessRunner.Failure(description: "the thumbnail does not open") }
                _ = TerminalImage.render(pixels, columns: 12, rows: 3, as: .symbols, colors: .truecolor)
            }
            fetched.append(fetch * 1000); drawn.append(draw * 1000); total.append((fetch + draw) * 1000)
        }
        func pct(_ v: [Double], _ q: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * q))] }
        print("thumbnail pipeline: a \(width)×\(height) JPEG (\(jpeg.count / 1024) KiB) from a loopback server, \(runs) runs")
        Timing.report("  the GET alone", String(format: "median %.1f ms, p99 %.1f ms", pct(gets, 0.5), pct(gets, 0.99)))
        Timing.report("  decode → small (640 px JPEG) alone", String(format: "median %.1f ms, p99 %.1f ms", pct(smalls, 0.5), pct(smalls, 0.99)))
        Timing.report("    of which resize 1280 → 640", String(format: "median %.1f ms, p99 %.1f ms", resize.median, resize.p99))
        Timing.report("    of which encode 640×360", String(format: "median %.1f ms, p99 %.1f ms", encode.median, encode.p99))
        Timing.report("fetch → decode → small → sealed", String(format: "median %.1f ms, p99 %.1f ms", pct(fetched, 0.5), pct(fetched, 0.99)))
        Timing.report("cache → open → decode → 12×3 symbols", String(format: "median %.2f ms, p99 %.2f ms", pct(drawn, 0.5), pct(drawn, 0.99)))
        Timing.report("fetch → first draw", String(format: "median %.1f ms, p99 %.1f ms", pct(total, 0.5), pct(total, 0.99)))
    }
}
