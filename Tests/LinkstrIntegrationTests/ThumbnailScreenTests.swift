import Foundation
import LinkstrTestSupport
import XCTest

/// Thumbnails on a real terminal (issue 29): the app in tmux, a page on a local web server naming its
/// image (left half red, right half blue). Symbols under the TERM matrix at 80×24 and 200×60; kitty's and
/// sixel's sequences in the raw output of the pane, and taken off again when a box opens.
final class ThumbnailScreenTests: XCTestCase {
    /// The column `text` starts at on the first screen row that shows it (a cell per character here).
    static func column(of text: String, in screen: String) -> Int? {
        for line in screen.screenLines {
            if let r = line.range(of: text) { return line.distance(from: line.startIndex, to: r.lowerBound) }
        }
        return nil
    }

    /// The feed's link line starts right of a 12×3 box at column 4 when the post has a thumbnail, else at 4.
    static func linkColumn(_ screen: String) -> Int? { column(of: "[Link] http", in: screen) }

    struct Scene {
        let relay: TestRelay
        let server: PreviewServer
        let files: URL
        let alice: Home
        let mallory: Home
        func stop() {
            server.stop()
            relay.stop()
            alice.remove()
            mallory.remove()
            try? FileManager.default.removeItem(at: files)
        }
    }

    /// Alice's session with a picture post, and a stranger's session request with the same link.
    func scene() throws -> Scene {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-pics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 1600, height: 900), width: 1600, height: 900, as: .png)!)
            .write(to: files.appendingPathComponent("wide.png"))
        let relay = try TestRelay()
        let server = try PreviewServer(files: files)
        let alice = try Home("thumbs-alice", relays: [relay.url]), mallory = try Home("thumbs-mallory", relays: [relay.url])
        let a = try alice.createIdentity()
        _ = try mallory.createIdentity()
        let session = try alice.ok(["session", "create", "Pictures"]).trimmed
        try alice.ok(["post", session, server.url("/page/wide.png"), "--note", "look"])
        let spam = try mallory.ok(["session", "create", "Free pics", "--member", a.npub]).trimmed
        try mallory.ok(["post", spam, server.url("/page/wide.png"), "--note", "from a stranger"])
        return Scene(relay: relay, server: server, files: files, alice: alice, mallory: mallory)
    }

    /// How many screen rows show the picture's red (in the colour form this terminal gets).
    static func redRows(_ screen: String) -> Int {
        screen.screenLines.filter { line in
            ["5;196m", "5;196;", "2;255;0;0", "2;254;0;0", "[41m", "[101m", ";41m", ";101m", "[41;", "[101;", ";41;", ";101;"].contains { line.contains($0) }
        }.count
    }

    /// Polls the screen with its colours until the number of rows showing red satisfies `predicate`.
    @discardableResult
    static func waitForRed(_ tmux: Tmux, _ window: String, _ what: String, _ predicate: (Int) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = ""
        while Date() < deadline {
            last = try tmux.screen(window, escapes: true)
            if predicate(redRows(last)) { return last }
            usleep(100_000)
        }
        throw HarnessFailure(description: "timed out waiting for \(what) (\(redRows(last)) red rows); the screen was:\n\(last.debugDescription)")
    }

    func testSymbolThumbnailsInTheFeedAndTheDetailUnderEveryTerminal() throws {
        let scene = try scene()
        defer { scene.stop() }
        let tmux = try Tmux()
        let environment = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("xterm", 80, 24), ("tmux-256color", 200, 60)].enumerated() {
            let w = "t\(i)"
            try scene.alice.startApp(tmux, w, relay: scene.relay.url, environment: environment.merging(["TERM": term]) { $1 },
                                     columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Pictures", timeout: 30)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "Picture wide.png", timeout: 20)
            let screen = try tmux.waitFor(w, "the thumbnail's box in \(term)", timeout: 20) { Self.linkColumn($0) == 17 }
            XCTAssertEqual(Self.column(of: "Picture wide.png", in: screen), 19, "the title beside the box too:\n\(screen)")
            try Self.waitForRed(tmux, w, "the picture drawn in \(term)") { $0 == 3 }
            // The detail: a large picture.
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "+ 👍  - 👎  * 👀")
            try Self.waitForRed(tmux, w, "the large picture in \(term)") { $0 >= 6 }
            if i == 0 {
                // R fetches the page and its picture again, past the caches, and the new drawing replaces the old.
                try tmux.keys(w, "R")
                try tmux.waitFor(w, text: "refreshed the title and picture.", timeout: 20)
                try Self.waitForRed(tmux, w, "the refreshed picture") { $0 >= 6 }
            }
            // Back: the large one is taken off, the small one is there again; and a box over it takes it off.
            try tmux.keys(w, "Escape")
            try Self.waitForRed(tmux, w, "only the feed's picture in \(term)") { $0 == 3 }
            try tmux.keys(w, "?")
            try tmux.waitFor(w, text: "Keys")
            // At 80 columns the help covers the picture, which goes; at 200 it stands clear of it and stays.
            try Self.waitForRed(tmux, w, "the picture under the help in \(term)") { $0 == (columns == 80 ? 0 : 3) }
            try tmux.keys(w, "Escape")
            try Self.waitForRed(tmux, w, "the picture back in \(term)") { $0 == 3 }
            if i == 0 {
                // Settings' Storage row says what the cache holds; going there takes the picture off.
                try tmux.keys(w, "4")
                try tmux.waitFor(w, text: "media cache 1 file, ")
                try Self.waitForRed(tmux, w, "no picture in Settings") { $0 == 0 }
                try tmux.keys(w, "1")
                try Self.waitForRed(tmux, w, "the picture back with the feed") { $0 == 3 }
            }
            try tmux.keys(w, "Escape")
            try tmux.keys(w, "q")
            try tmux.waitFor(w, "the app to exit") { !$0.contains("1 Sessions") }
            XCTAssertEqual(Self.redRows(try tmux.screen(w, escapes: true)), 0, "nothing left after quitting")
        }
        XCTAssertEqual(scene.server.requests.filter { $0.hasPrefix("/files/") }, ["/files/wide.png", "/files/wide.png"],
                       "fetched once, once more for R, else from the cache")

        // A stranger's request with the same link: nothing drawn, though the picture is in the cache.
        try scene.alice.startApp(tmux, "r", relay: scene.relay.url, environment: environment)
        try tmux.waitFor("r", text: "(R: 1 request)", timeout: 30)
        try tmux.keys("r", "R")
        try tmux.waitFor("r", text: "Free pics")
        try tmux.keys("r", "Enter")
        let request = try tmux.waitFor("r", text: "▌ from a stranger", timeout: 20)
        XCTAssertEqual(Self.linkColumn(request), 4, request)
        XCTAssertEqual(Self.redRows(try tmux.screen("r", escapes: true)), 0)
        try tmux.keys("r", "Enter")
        try tmux.waitFor("r", text: "+ 👍  - 👎  * 👀")
        XCTAssertEqual(Self.redRows(try tmux.screen("r", escapes: true)), 0)
        try tmux.keys("r", "Escape", "Escape", "Escape", "q")

        // NO_COLOR: "auto" draws no coloured symbols; no box is made.
        try scene.alice.startApp(tmux, "n", relay: scene.relay.url, environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        try tmux.waitFor("n", text: "Pictures", timeout: 30)
        try tmux.keys("n", "Enter")
        let plain = try tmux.waitFor("n", text: "Picture wide.png", timeout: 20)
        XCTAssertEqual(Self.linkColumn(plain), 4, plain)
        try tmux.keys("n", "Escape", "q")
    }

    /// `images = "kitty"` and `"sixel"` in tmux: the pane's raw output (what the app wrote, before tmux)
    /// carries the pictures, wrapped for tmux's passthrough; a box over a kitty picture deletes its
    /// placement and closing it places it again; a sixel picture is drawn again once the box is gone; quitting
    /// deletes every kitty image.
    func testKittyAndSixelSequencesAreWrittenAndTakenOff() throws {
        let scene = try scene()
        defer { scene.stop() }
        let tmux = try Tmux()
        for proto in ["kitty", "sixel"] {
            let raw = scene.files.appendingPathComponent("\(proto).out")
            try scene.alice.startApp(tmux, proto, relay: scene.relay.url, arguments: ["--images", proto],
                                     environment: ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"])
            try tmux.tmux(["pipe-pane", "-O", "-t", proto, "cat >> '\(raw.path)'"])
            func output() -> String { (try? String(contentsOf: raw, encoding: .utf8)) ?? "" }
            func count(_ needle: String) -> Int { output().components(separatedBy: needle).count - 1 }
            func wait(_ what: String, _ predicate: () -> Bool) throws {
                let deadline = Date().addingTimeInterval(15)
                while Date() < deadline { if predicate() { return }; usleep(100_000) }
                XCTFail("timed out waiting for \(what); the output ends: \(output().suffix(300).debugDescription)")
            }
            try tmux.waitFor(proto, text: "Pictures", timeout: 30)
            try tmux.keys(proto, "Enter")
            try tmux.waitFor(proto, text: "Picture wide.png", timeout: 20)
            let start = proto == "kitty" ? "\u{1B}\u{1B}_Ga=t,f=32," : "\u{1B}\u{1B}P"
            try wait("the \(proto) picture") { count(start) == 1 }
            XCTAssertTrue(output().contains("\u{1B}Ptmux;"), "wrapped for tmux")
            try tmux.keys(proto, "?")
            try tmux.waitFor(proto, text: "Keys")
            if proto == "kitty" {
                try wait("the placement deleted under the box") { count("_Ga=d,d=i,") == 1 }
            }
            try tmux.keys(proto, "Escape")
            if proto == "kitty" {
                try wait("the picture placed again") { count("_Ga=p,i=") == 2 }
                XCTAssertEqual(count(start), 1, "sent once, placed again by its id")
            } else {
                try wait("the picture drawn again") { count(start) == 2 }
            }
            try tmux.keys(proto, "Escape", "q")
            try tmux.waitFor(proto, "the app to exit") { !$0.contains("1 Sessions") }
            if proto == "kitty" { try wait("every image deleted on quitting") { count("_Ga=d,d=A") == 1 } }
        }

        // Scrolling: a feed of eight posts with pictures of their own; each box its own placement, the
        // ones that move or leave deleted one by one, each picture sent once.
        let gallery = try scene.alice.ok(["session", "create", "Gallery"]).trimmed
        for n in 0..<8 {
            try FileManager.default.copyItem(at: scene.files.appendingPathComponent("wide.png"), to: scene.files.appendingPathComponent("wide\(n).png"))
            try scene.alice.ok(["post", gallery, scene.server.url("/page/wide\(n).png"), "--note", "picture \(n)"])
        }
        let raw = scene.files.appendingPathComponent("scroll.out")
        try scene.alice.startApp(tmux, "g", relay: scene.relay.url, arguments: ["--images", "kitty"], environment: ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"])
        try tmux.tmux(["pipe-pane", "-O", "-t", "g", "cat >> '\(raw.path)'"])
        func count(_ needle: String) -> Int { ((try? String(contentsOf: raw, encoding: .utf8)) ?? "").components(separatedBy: needle).count - 1 }
        try tmux.waitFor("g", text: "Gallery", timeout: 30)
        try tmux.keys("g", "Enter")
        try tmux.waitFor("g", text: "▌ picture 7", timeout: 20)
        let deadline = Date().addingTimeInterval(15)
        while count("_Ga=p,i=") < 3, Date() < deadline { usleep(100_000) }
        let placed = count("_Ga=p,i="), erased = count("_Ga=d,d=i,")
        XCTAssertGreaterThanOrEqual(placed, 3, "several boxes on the first screen")
        try tmux.keys("g", "G")
        try tmux.waitFor("g", text: "▌ picture 0", timeout: 10)
        let scrolled = Date().addingTimeInterval(10)
        while count("_Ga=d,d=i,") == erased, Date() < scrolled { usleep(100_000) }
        let screen = try tmux.screen("g")
        XCTAssertGreaterThan(count("_Ga=d,d=i,"), erased, "boxes that scrolled were taken off: \(screen)")
        XCTAssertGreaterThan(count("_Ga=p,i="), placed, "and placed where they went")
        let sent = ((try? String(contentsOf: raw, encoding: .utf8)) ?? "").components(separatedBy: "_Ga=t,f=32,").dropFirst()
            .compactMap { $0.split(separator: ",").first { $0.hasPrefix("i=") } }
        XCTAssertEqual(sent.count, Set(sent).count, "each picture sent once: \(sent)")
        let ids = Set(((try? String(contentsOf: raw, encoding: .utf8)) ?? "").components(separatedBy: "_Ga=p,").dropFirst()
            .compactMap { $0.split(separator: ",").first { $0.hasPrefix("p=") } })
        XCTAssertGreaterThanOrEqual(ids.count, 3, "a placement id per box: \(ids)")
        try tmux.keys("g", "Escape", "q")
    }
}
