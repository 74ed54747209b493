import Foundation
import LinkstrTestSupport
import XCTest

/// `linkstr export`: a session with notes in several scripts, a reaction from a member and a deleted post,
/// out as Markdown (standard output and a file), HTML and JSON; the file 0600, an existing file kept
/// unless `--force`, never inside the data directory, `--since` a day.
final class ExportCommandTests: XCTestCase {
    func testASessionGoesOutInEveryForm() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let alice = try Home("export-alice", relays: [relay.url]), bob = try Home("export-bob", relays: [relay.url])
        defer { alice.remove(); bob.remove() }
        _ = try alice.createIdentity(name: "Alice")
        let b = try bob.createIdentity(name: "Bob")
        let session = try alice.ok(["session", "create", "Films <b>", "--member", b.npub]).trimmed
        let first = try alice.ok(["post", session, "https://example.com/one", "--note", "שלום\n日本語 🎬\n<script>x</script>"]).trimmed
        let gone = try alice.ok(["post", session, "https://example.com/deleted", "--note", "never exported"]).trimmed
        try alice.ok(["post", session, "https://example.com/three", "--note", "third"])
        try alice.ok(["delete", gone])
        try bob.ok(["sync", "--json"])
        try bob.ok(["session", "accept", session])
        try bob.ok(["react", first, "🔥"])
        try alice.ok(["sync", "--json"])

        let md = try alice.run(["export", session])
        XCTAssertEqual(md.status, 0, md.err)
        XCTAssertTrue(md.out.hasPrefix("# Films \\<b\\>"), md.out)
        XCTAssertTrue(md.out.contains("> שלום\n> 日本語 🎬\n> \\<script\\>x\\</script\\>"), md.out)
        XCTAssertTrue(md.out.contains("🔥 "), "the reaction: \(md.out)")
        XCTAssertFalse(md.out.contains("never exported") || md.out.contains("example.com/deleted"), "a deleted post is left out")
        XCTAssertTrue(md.out.contains("## you · "), "our posts are ours: \(md.out)")
        let order = ["example.com/one", "example.com/three"].map { md.out.range(of: $0)!.lowerBound }
        XCTAssertLessThan(order[0], order[1], "oldest first")

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { removeTemporary(out) }
        for format in ["md", "html", "json"] {
            let file = out.appendingPathComponent("films.\(format)")
            let written = try alice.run(["export", session, "--format", format, "--output", file.path])
            XCTAssertEqual(written.status, 0, written.err)
            XCTAssertTrue(written.err.contains("the export is not encrypted"), written.err)
            XCTAssertTrue(written.out.contains("wrote 2 posts of Films <b> to"), written.out)
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, format)
        }
        let html = try String(contentsOf: out.appendingPathComponent("films.html"), encoding: .utf8)
        XCTAssertFalse(html.lowercased().contains("<script"), "no script: \(html)")
        XCTAssertTrue(html.contains("&lt;script&gt;x&lt;/script&gt;"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("films.json"))) as? [String: Any])
        XCTAssertEqual(json["schema"] as? String, "linkstr.session-export")
        let posts = try XCTUnwrap(json["posts"] as? [[String: Any]])
        XCTAssertEqual(posts.count, 2)
        let reaction = try XCTUnwrap((posts[0]["reactions"] as? [[String: Any]])?.first)
        XCTAssertEqual(reaction["emoji"] as? String, "🔥")
        XCTAssertEqual((reaction["by"] as? [String])?.count, 1, "\(reaction)")

        // An existing file: kept without --force (no terminal to ask), replaced with it.
        let again = try alice.run(["export", session, "--format", "json", "--output", out.appendingPathComponent("films.json").path])
        XCTAssertEqual(again.status, 65, again.err)
        XCTAssertTrue(again.err.contains("exists: nothing was written"), again.err)
        XCTAssertEqual(try alice.run(["export", session, "--format", "json", "--output", out.appendingPathComponent("films.json").path, "--force"]).status, 0)
        // Never inside the data directory.
        let inside = try alice.run(["export", session, "--output", alice.directory.appendingPathComponent("leak.md").path])
        XCTAssertEqual(inside.status, 65, inside.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: alice.directory.appendingPathComponent("leak.md").path))
        // --since: a day after today leaves nothing; a bad day is a usage error.
        let tomorrow = Date().addingTimeInterval(2 * 86_400)
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        XCTAssertTrue(try alice.ok(["export", session, "--since", f.string(from: tomorrow)]).out.contains("0 posts"))
        XCTAssertEqual(try alice.run(["export", session, "--since", "yesterday"]).status, 64)
        XCTAssertEqual(try alice.run(["export", session, "--format", "pdf"]).status, 64)

        // In the app: `:export-session PATH`, the form by the extension, an existing file asked about.
        let tmux = try Tmux()
        try alice.startApp(tmux, "e", relay: relay.url, environment: ["TERM": "tmux-256color"], columns: 120, rows: 36)
        try tmux.waitFor("e", text: "Films <b>", timeout: 30)
        try tmux.keys("e", "Enter")
        try tmux.waitFor("e", text: "example.com/three")
        let page = out.appendingPathComponent("from-the-app.html")
        try tmux.keys("e", ":")
        try tmux.submit("e", "export-session \(page.path)")
        try tmux.waitFor("e", text: "wrote 2 posts to", timeout: 20)
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        try tmux.keys("e", ":")
        try tmux.submit("e", "export-session \(page.path)")
        try tmux.waitFor("e", text: "exists: replace it? (y/n)", timeout: 20)
        try tmux.keys("e", "y")
        try tmux.waitFor("e", "the replaced export said", timeout: 20) { $0.contains("wrote 2 posts to") && !$0.contains("replace it?") }
        try tmux.keys("e", ":")
        try tmux.submit("e", "export-session \(alice.directory.appendingPathComponent("in.md").path)")
        try tmux.waitFor("e", text: "never written inside the data directory", timeout: 20)
        try tmux.keys("e", "Escape", "Escape", "q")
    }

    /// `--with-thumbnails`: the picture the account cached for a post, inlined in the HTML as a data URI
    /// (the file still loads nothing), and nothing fetched for the export; other forms refuse the flag.
    func testThumbnailsAreInlinedFromTheCache() throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-export-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { removeTemporary(files) }
        let png = ImageFixtures.encode(ImageFixtures.halves(width: 64, height: 32), width: 64, height: 32, as: .png)!
        try Data(png).write(to: files.appendingPathComponent("photo.png"))
        let server = try PreviewServer(files: files)
        defer { server.stop() }
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("export-pictures", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let session = try home.ok(["session", "create", "Pictures"]).trimmed
        let pictured = try home.ok(["post", session, server.url("/files/photo.png")], environment: allow).trimmed
        try home.ok(["post", session, "https://example.com/no-picture"])
        XCTAssertEqual(try home.run(["preview", pictured, "--json"], environment: allow).status, 0)
        let requests = server.requests.count

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("export-pictures-\(UUID().uuidString).html")
        defer { removeTemporary(out) }
        let written = try home.run(["export", session, "--format", "html", "--with-thumbnails", "--output", out.path])
        XCTAssertEqual(written.status, 0, written.err)
        let html = try String(contentsOf: out, encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "<img alt=\"\" src=\"data:image/").count - 1, 1, "one picture, the cached one")
        XCTAssertTrue(html.contains("src=\"data:image/"), html)
        XCTAssertFalse(html.contains("src=\"http"), "no remote picture")
        XCTAssertTrue(html.contains("img-src data:"), "the CSP lets only inlined pictures in")
        XCTAssertEqual(server.requests.count, requests, "nothing fetched for the export")
        let plain = try home.run(["export", session, "--format", "html"])
        XCTAssertFalse(plain.out.contains("<img"), "no picture without the flag")
        XCTAssertEqual(try home.run(["export", session, "--format", "md", "--with-thumbnails"]).status, 64)
    }
}

