import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import Synchronization
import XCTest

/// Saving for offline (issue 29) with a stub yt-dlp that streams a fake MP4 with progress and a stub mpv
/// that reads a saved copy from its standard input: the copy is sealed as it arrives, plays back
/// byte for byte through the pipe, is never on disk in the clear; a failure, a cancel and a page that
/// is no image leave nothing.
final class MediaSaveTests: XCTestCase {
    var stubs: StubTools!
    var mpvLog: URL { stubs.directory.appendingPathComponent("mpv.log") }
    let video = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"

    override func setUpWithError() throws {
        stubs = try StubTools("media-save")
        try stubs.installMediaTools()
    }

    override func tearDown() { stubs.remove() }

    /// What the stub yt-dlp writes for `n` bytes (the same pattern as the script).
    static func fakeVideo(_ n: Int) -> [UInt8] {
        var out: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        let body = (0..<4096).map { UInt8(($0 * 7 + 3) % 251) }
        while out.count < n { out += body }
        return Array(out.prefix(n))
    }

    func testTheCLISavesAVideoSealedAndPlaysItThroughAPipe() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        var home = try Home("media-save", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let session = try home.ok(["session", "create", "Films"]).trimmed
        let post = try home.ok(["post", session, video, "--note", "for the train"]).trimmed
        let env = ["PATH": stubs.path, "STUB_MPV_LOG": mpvLog.path]

        let saved = try home.run(["media", "save", post, "--json"], environment: env)
        XCTAssertEqual(saved.status, 0, saved.err)
        XCTAssertTrue(saved.err.contains("linkstr: saving… 50%\n") && saved.err.contains("linkstr: saving… 100%\n"), saved.err)
        XCTAssertLessThanOrEqual(saved.err.components(separatedBy: "\n").count, 14, "a line per ten per cent, not per yt-dlp line")
        // Issue 54 (9): the CLI names its command, not the app's key.
        XCTAssertTrue(saved.err.hasSuffix("linkstr: saved for offline (3.0 MiB): `linkstr media play \(post)` plays it from the cache.\n"), saved.err)
        let json = try saved.json() as! [String: Any]
        XCTAssertEqual(json["bytes"] as? Int, 3 << 20)
        XCTAssertEqual(json["kind"] as? String, "video")
        let info = try home.ok(["media", "info", post, "--json"]).json() as! [String: Any]
        XCTAssertEqual(info["saved"] as? Bool, true)
        XCTAssertEqual(info["saved_kind"] as? String, "video")

        // Played from the cache: mpv reads it from a pipe, every byte, and is not told the link.
        let played = try home.run(["media", "play", post], environment: env)
        XCTAssertEqual(played.status, 0, played.err)
        let log = try String(contentsOf: mpvLog, encoding: .utf8)
        let digest = SHA256.hash(Self.fakeVideo(3 << 20)).hex
        XCTAssertTrue(log.contains("stdin \(3 << 20) \(digest)"), log)
        XCTAssertFalse(log.contains("youtube.com"), "the saved copy plays, not the link")

        // Nothing readable at rest: no video signature, no link, no note, under the data or cache directories.
        _ = try home.ok(["sync", "--timeout", "5"])
        var files = 0
        for root in [home.directory] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, !url.path.contains("/config/"),
                      !url.lastPathComponent.hasPrefix("linkstr.log") else { continue }
                let bytes = try Data(contentsOf: url)
                files += 1
                for (name, needle) in [("MP4", Data("ftypisom".utf8)), ("link", Data("dQw4w9WgXcQ".utf8)), ("note", Data("for the train".utf8))]
                where bytes.range(of: needle) != nil {
                    XCTFail("\(name) in the clear in \(url.path)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(files, 2, "the database and the saved copy were checked")

        // yt-dlp failing: said with its own words and the fix; exit 1; nothing kept.
        _ = try home.ok(["cache", "clear"])
        let failed = try home.run(["media", "save", post], environment: env.merging(["STUB_YTDLP_SCENARIO": "fail"]) { $1 })
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.err.contains("could not save: yt-dlp could not save it (ERROR: [youtube] dQw4w9WgXcQ: Video unavailable)"), failed.err)
        XCTAssertEqual((try home.ok(["cache", "usage", "--json"]).json() as! [String: Any])["files"] as? Int, 0)
    }

    func testACancelledSaveKeepsNothingAndAPageIsNoImage() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-save-\(UUID().uuidString)")
        defer { removeTemporary(home) }
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let store = try local.account(SecretKey.generate(), now: 1)
        let media = try XCTUnwrap(local.mediaCache(for: store, limitBytes: 1 << 30))
        let saver = MediaSaver(media: media, fetcher: ImageFetcher(allowPrivateAddresses: true))
        let environment = ProcessInfo.processInfo.environment.merging(["PATH": stubs.path, "STUB_YTDLP_SCENARIO": "slow"]) { $1 }
        let seen = Mutex<[SaveProgress]>([])
        let link = video
        await saver.save(link, environment: environment, now: 5) { progress in
            seen.withLock { $0.append(progress) }
            if case .saving(let f?) = progress, f > 0.1 { saver.cancel(link) }
        }
        XCTAssertEqual(seen.withLock { $0.last }, .cancelled)
        XCTAssertNil(saver.saved(video))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: media.directory.path), [], "no partial file left")

        // A link that is an image is saved as one; a page is not an image.
        let files = home.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 8, height: 4), width: 8, height: 4, as: .png)!).write(to: files.appendingPathComponent("p.png"))
        let server = try PreviewServer(files: files)
        defer { server.stop() }
        let image = Mutex<SaveProgress?>(nil), page = Mutex<SaveProgress?>(nil)
        await saver.save(server.url("/files/p.png"), now: 6) { p in image.withLock { $0 = p } }
        await saver.save(server.url("/page/p.png"), now: 6) { p in page.withLock { $0 = p } }
        guard case .saved(_, false) = image.withLock({ $0 }) else { return XCTFail("\(String(describing: image.withLock { $0 }))") }
        XCTAssertEqual(saver.saved(server.url("/files/p.png"))?.kind, .image)
        XCTAssertEqual(page.withLock { $0 }, .failed("nothing to save: it is not a video or an image."))
    }
}
