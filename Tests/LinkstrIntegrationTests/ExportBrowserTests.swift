import Foundation
import LinkstrMedia
import LinkstrTestSupport
import XCTest

/// The HTML export in a real browser (issue 51, item 1): Debian's Chromium, headless, opens the file
/// with every host but loopback unresolvable. Hostile notes (a script, a picture on a loopback server,
/// a style that would fetch) load nothing (the server counts connections: none), no script is in the
/// page the browser built, the post count and the session's name are drawn (its print, read back by
/// pdftotext), and its screenshot is a drawn page.
final class ExportBrowserTests: XCTestCase {
    func testTheHTMLLoadsNothingRunsNothingAndShowsThePosts() throws {
        let chromium = URL(fileURLWithPath: "/usr/bin/chromium")
        guard FileManager.default.isExecutableFile(atPath: chromium.path) else {
            return XCTFail("chromium is one of the test packages (scripts/test installs it)")
        }
        let count = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-export-browser-\(UUID().uuidString)")
        defer { removeTemporary(count) }
        let watcher = try InteropServer(script: "counting_tcp.py", arguments: [count.path])
        defer { watcher.stop() }
        let there = "http://127.0.0.1:\(watcher.port)"
        // Its start was checked by connecting once: the count starts from there.
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: count.path) { usleep(20_000) }
        let before = (try? String(contentsOf: count, encoding: .utf8)) ?? "0"
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("export-browser", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        let session = try home.ok(["session", "create", "Browser check"]).trimmed
        try home.ok(["post", session, "https://example.com/one", "--note", "<script>document.title='pwned'</script>"])
        try home.ok(["post", session, "\(there)/page", "--note", "<img src=\"\(there)/pixel.png\"><link rel=stylesheet href=\"\(there)/s.css\">"])
        try home.ok(["post", session, "https://example.com/three", "--note", "<style>body{background:url(\(there)/bg.png)}</style>שלום 🎬"])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-export-browser-\(UUID().uuidString).html")
        defer { removeTemporary(out) }
        let written = try home.run(["export", session, "--format", "html", "--output", out.path])
        XCTAssertEqual(written.status, 0, written.err)

        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-chromium-\(UUID().uuidString)")
        defer { removeTemporary(profile) }
        let shot = profile.appendingPathComponent("shot.png")
        let base = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-default-apps", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                    "--user-data-dir=\(profile.path)", "--virtual-time-budget=3000"]
        let dom = try ProcessRunner.run(chromium, base + ["--dump-dom", out.absoluteString], timeout: 120)
        XCTAssertEqual(dom.status, 0, dom.stderrText)
        let page = String(decoding: dom.stdout, as: UTF8.self)
        XCTAssertFalse(page.lowercased().contains("<script"), "no script in the page the browser built")
        XCTAssertTrue(page.contains("<span id=\"count\">3</span>"), "the post count: \(page.prefix(2000))")
        XCTAssertTrue(page.contains("<h1>Browser check</h1>"), "the session's name")
        XCTAssertTrue(page.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"), "the hostile note as text")
        XCTAssertTrue(page.contains("<title>Browser check</title>"), "no script ran (the title is the session's)")

        // What it drew: printed, and its text read back.
        let pdf = profile.appendingPathComponent("page.pdf")
        let printed = try ProcessRunner.run(chromium, base + ["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", out.absoluteString], timeout: 120)
        XCTAssertEqual(printed.status, 0, printed.stderrText)
        let text = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pdftotext"), [pdf.path, "-"], timeout: 60)
        let drawn = String(decoding: text.stdout, as: UTF8.self)
        XCTAssertTrue(drawn.contains("Browser check"), "the session's name is drawn: \(drawn)")
        XCTAssertTrue(drawn.contains("3 posts"), "the post count is drawn: \(drawn)")
        XCTAssertTrue(drawn.contains("<script>document.title='pwned'</script>"), "the hostile note drawn as text: \(drawn)")

        let screenshot = try ProcessRunner.run(chromium, base + ["--window-size=900,1200", "--screenshot=\(shot.path)", out.absoluteString], timeout: 120)
        XCTAssertEqual(screenshot.status, 0, screenshot.stderrText)
        let image = try ImageDecoder.decode(Array(try Data(contentsOf: shot)))
        XCTAssertEqual(image.width, 900)
        var shades = Set<UInt32>()
        for i in stride(from: 0, to: image.rgba.count, by: 4 * 97) {
            shades.insert(UInt32(image.rgba[i]) << 16 | UInt32(image.rgba[i + 1]) << 8 | UInt32(image.rgba[i + 2]))
        }
        XCTAssertGreaterThan(shades.count, 4, "a drawn page, not a blank one")
        let connections = (try? String(contentsOf: count, encoding: .utf8)) ?? "0"
        XCTAssertEqual(connections, before, "the page asked the loopback server for nothing")
        // The watch sees a browser's request: a page that does load from it is counted.
        let control = profile.appendingPathComponent("control.html")
        try "<!DOCTYPE html><html><body><img src=\"\(there)/pixel.png\"></body></html>".write(to: control, atomically: true, encoding: .utf8)
        _ = try ProcessRunner.run(chromium, base + ["--dump-dom", control.absoluteString], timeout: 120)
        XCTAssertNotEqual((try? String(contentsOf: count, encoding: .utf8)) ?? "0", connections, "the control page was seen")
    }
}
