import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 53 (6.6), the media cache at its edges, with the stub yt-dlp and mpv: a video of 1 MiB or less
/// failed to save ("yt-dlp gave nothing to save": only whole chunks were counted); one save could hold
/// far more than `media_cache_mb`; a killed save's `.partial-*` file was never counted nor removed; a
/// saved copy damaged mid-file played its first part, said "playback ended" (exit 0) and vanished.
final class MediaCacheEdgeTests: XCTestCase {
    func testSmallAndOversizedSavesLeftoversAndADamagedCopy() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let stubs = try StubTools("media-edges")
        defer { stubs.remove() }
        try stubs.installMediaTools()
        let log = stubs.directory.appendingPathComponent("mpv.log")
        var home = try Home("media-edges", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        try home.writeConfig("link_previews = false\nmedia_cache_mb = 16\n")
        let session = try home.ok(["session", "create", "Films"]).trimmed
        let post = try home.ok(["post", session, "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "--note", "tonight"]).trimmed
        func env(bytes: Int) -> [String: String] { ["PATH": stubs.path, "STUB_MPV_LOG": log.path, "STUB_YTDLP_BYTES": String(bytes)] }
        func usage() throws -> (files: Int, bytes: Int) {
            let u = try XCTUnwrap(try home.ok(["cache", "usage", "--json"]).json() as? [String: Any])
            return (u["files"] as? Int ?? -1, u["bytes"] as? Int ?? -1)
        }
        func saved() throws -> Bool { (try home.ok(["media", "info", post, "--json"]).json() as? [String: Any])?["saved"] as? Bool ?? false }

        // Larger than the whole cache: refused while it is written, with the fix; nothing kept.
        let big = try home.run(["media", "save", post], environment: env(bytes: 20 << 20))
        XCTAssertEqual(big.status, 1, big.err)
        XCTAssertTrue(big.err.contains("it is larger than the media cache may hold (media_cache_mb = 16 MiB): nothing was kept. "
                                       + "Raise media_cache_mb in config.toml to save it."), big.err)
        XCTAssertEqual(try usage().files, 0)

        // 200 kB: saved, and played back whole through the pipe.
        let small = try home.run(["media", "save", post, "--json"], environment: env(bytes: 200_000))
        XCTAssertEqual(small.status, 0, small.err)
        XCTAssertEqual((try small.json() as? [String: Any])?["bytes"] as? Int, 200_000)
        let played = try home.run(["media", "play", post], environment: env(bytes: 0))
        XCTAssertEqual(played.status, 0, played.err)
        XCTAssertTrue(try String(contentsOf: log, encoding: .utf8).contains("stdin 200000 "))

        // A killed save's unfinished file: counted by `cache usage`, removed by the next save and when the app opens.
        let media = try XCTUnwrap(Self.mediaDirectory(in: home.directory))
        let leftover = media.appendingPathComponent(".partial-\(UUID().uuidString)")
        try Data(count: 70_000).write(to: leftover)
        XCTAssertEqual(try usage().files, 2)
        XCTAssertGreaterThanOrEqual(try usage().bytes, 270_000)
        XCTAssertEqual(try home.run(["media", "save", post], environment: env(bytes: 1 << 20)).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        XCTAssertEqual(try usage().files, 1)
        try Data(count: 70_000).write(to: leftover)
        let tmux = try Tmux()
        try home.startApp(tmux, "a", relay: relay.url, environment: ["PATH": stubs.path])
        try tmux.waitFor("a", text: "Films", timeout: 30)
        try tmux.waitFor("a", "the leftover removed at start", timeout: 10) { _ in !FileManager.default.fileExists(atPath: leftover.path) }
        try tmux.keys("a", "q")
        try tmux.waitFor("a", "the app to exit") { !$0.contains("1 Sessions") }

        // Damaged mid-file (3 MiB in 1 MiB chunks, a byte of the third altered): played up to the damage,
        // then said, exit 1, and the copy is gone.
        XCTAssertEqual(try home.run(["media", "save", post], environment: env(bytes: 3 << 20)).status, 0)
        let copy = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: media.path).first { !$0.hasPrefix(".") })
        let file = try FileHandle(forUpdating: media.appendingPathComponent(copy))
        try file.seek(toOffset: UInt64(2 << 20) + 4_096)
        let byte = try XCTUnwrap(try file.read(upToCount: 1)).first!
        try file.seek(toOffset: UInt64(2 << 20) + 4_096)
        try file.write(contentsOf: [byte ^ 0xFF])
        try file.close()
        let damaged = try home.run(["media", "play", post], environment: env(bytes: 0))
        XCTAssertEqual(damaged.status, 1, damaged.err)
        XCTAssertTrue(damaged.err.hasSuffix("linkstr: could not play: the saved copy was damaged (cut short or altered): it played up to the damage "
                                            + "and was removed. Save it again (s, or `linkstr media save`), or play it from its link.\n"), damaged.err)
        XCTAssertFalse(try saved())
        XCTAssertEqual(try usage().files, 0)
    }

    /// The account's media directory (`…/<pubkey>/media`) under the home.
    static func mediaDirectory(in home: URL) -> URL? {
        let walker = FileManager.default.enumerator(at: home, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = walker?.nextObject() as? URL {
            if url.lastPathComponent == "media", (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true { return url }
        }
        return nil
    }
}
