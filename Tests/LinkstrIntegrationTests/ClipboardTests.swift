import Foundation
import LinkstrTestSupport
import XCTest

/// "Copied" only when a copy worked (issue 14, item 9): with a desktop tool on PATH the app says copied
/// (and the tool got the link); with none, it says the link went by OSC 52, which a terminal may ignore,
/// and how to make copying sure.
final class ClipboardTests: XCTestCase {
    func testCopiedIsSaidOnlyWhenAToolCopied() throws {
        let relay = try TestRelay()
        let home = try Home.forApp("clipboard", relay: relay.url)
        defer { home.remove() }
        let session = try home.ok(["session", "create", "Clips"]).trimmed
        try home.ok(["post", session, "https://example.com/copy-me"])
        let stubs = try StubTools("clip")
        defer { stubs.remove() }
        let got = try stubs.install("wl-copy", script: "cat > \"$OUT\"")

        for (window, path, expected) in [("clip-none", "/usr/bin:/bin", "link sent by OSC 52 (not copied? install wl-copy or xclip)."),
                                         ("clip-tool", stubs.path, "copied link.")] {
            let tmux = try Tmux()
            try home.startApp(tmux, window, relay: relay.url, environment: ["PATH": path])
            try tmux.waitFor(window, text: "Clips", timeout: 30)
            try tmux.keys(window, "Enter")
            try tmux.waitFor(window, text: "example.com/copy-me")
            try tmux.keys(window, "Enter")
            try tmux.waitFor(window, text: "e more")
            try tmux.keys(window, "y")
            let screen = try tmux.waitFor(window, text: expected)
            XCTAssertFalse(window == "clip-none" && screen.contains("copied link."), screen)
            try tmux.keys(window, "C-c")
        }
        XCTAssertEqual(try String(contentsOf: got, encoding: .utf8), "https://example.com/copy-me")
    }
}
