import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 30 on screen, under several terminals: each member's delivery under our post (Bob's only inbox
/// takes nothing this large: not delivered, and why; Carol names none: shared relays only), the
/// composer's warning before sending, Settings' blocked relays, and `:doctor`.
final class DeliveryScreenTests: XCTestCase {
    func testDeliveriesWarningsBlockedRelaysAndTheDoctorOnScreen() throws {
        let ours = try TestRelay()
        let small = try InteropServer(script: "limited_relay.py", arguments: ["1200"])
        let bob = SecretKey.generate(), carol = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        try RustNostrPeer.publishEvent(relay: ours.url, secret: bob.revealHex(), kind: 10050, tags: [["relay", small.url]], at: now - 60)
        let alice = try Home("delivery-screen", relays: [ours.url])
        defer { alice.remove() }
        try alice.writeConfig("link_previews = false\nreopen = false\n")
        _ = try alice.createIdentity()
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let bobNpub = try PublicKey(hex: bob.publicKey.hex).npub, carolNpub = try PublicKey(hex: carol.publicKey.hex).npub
        try alice.ok(["contacts", "add", bobNpub, "--alias", "Bob"], environment: allow)
        try alice.ok(["contacts", "add", carolNpub, "--alias", "Carol"], environment: allow)
        try alice.ok(["sync", "--json", "--timeout", "20"], environment: allow)  // learns where Bob reads
        let session = try alice.ok(["session", "create", "Reach", "--member", bobNpub, "--member", carolNpub], environment: allow).trimmed
        try alice.ok(["post", session, "https://example.com/reach", "--note", "see you there"], environment: allow)

        let tmux = try Tmux()
        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("tmux-256color", 160, 48), ("xterm", 80, 24)].enumerated() {
            let w = "d\(i)"
            try alice.startApp(tmux, w, relay: ours.url, environment: allow.merging(["TERM": term]) { $1 }, columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Reach", timeout: 30)
            try tmux.keys(w, "Enter")
            try tmux.waitFor(w, text: "example.com/reach")
            try tmux.keys(w, "Enter")
            var screen = try tmux.waitFor(w, text: "Delivery: 0 of 2 in their inbox")
            XCTAssertTrue(screen.contains("not delivered: ws://127.0.0.1:\(small.port): too large"), screen)
            XCTAssertTrue(screen.contains("on shared relays only"), screen)
            XCTAssertTrue(screen.screenLines.allSatisfy { $0.count <= columns }, screen)
            try tmux.keys(w, "Escape")
            try tmux.waitFor(w, "the detail to close") { !$0.contains("Delivery: ") }
            // The composer warns before anything is sent.
            try tmux.keys(w, "c")
            screen = try tmux.waitFor(w, text: "names no inbox")
            XCTAssertTrue(screen.contains("Carol names no inbox"), screen)
            try tmux.keys(w, "Escape")
            try tmux.waitFor(w, "the composer to close") { !$0.contains("names no inbox") }
            if i == 0 {
                // Settings: b shows the blocked relays; a blocks one, which is published and listed.
                try tmux.keys(w, "4")
                try tmux.waitFor(w, text: "1 / 1 connected", timeout: 20)
                try tmux.keys(w, "b")
                try tmux.waitFor(w, text: "none blocked")
                try tmux.keys(w, "a")
                try tmux.keys(w, "spam.example")
                try tmux.keys(w, "Enter")
                screen = try tmux.waitFor(w, text: "blocked wss://spam.example", timeout: 20)
                XCTAssertTrue(screen.contains("⊘"), screen)
                try tmux.keys(w, "Escape")
                try tmux.waitFor(w, text: "S show secret key")
                try tmux.keys(w, "1")
                try tmux.waitFor(w, text: "Enter open")
            }
            // :doctor over the session.
            try tmux.keys(w, ":")
            try tmux.keys(w, "doctor")
            try tmux.keys(w, "Enter")
            screen = try tmux.waitFor(w, text: "Delivery doctor")
            screen = try tmux.waitFor(w, "the doctor's advice", timeout: 30) { $0.contains("→") }
            XCTAssertTrue(screen.contains("messages up to 1200 bytes"), screen)
            XCTAssertTrue(screen.screenLines.allSatisfy { $0.count <= columns }, screen)
            try tmux.keys(w, "Escape")
            // Apart, or the terminal reads Esc q as Alt+q.
            try tmux.waitFor(w, "the doctor to close") { !$0.contains("Delivery doctor") }
            try tmux.keys(w, "Escape")  // out of the feed, if open (there q goes back)
            try tmux.waitFor(w, text: "Enter open")
            Thread.sleep(forTimeInterval: 0.2)  // apart from the Escape, or it reads as Alt+q
            try tmux.keys(w, "q")
            try tmux.waitFor(w, "the app to exit") { !$0.contains("1 Sessions") }
        }
        let blocked = try XCTUnwrap(RustNostrPeer.query(relay: ours.url, filter: ["kinds": [10006]]).first)
        XCTAssertEqual(blocked["tags"] as? [[String]], [["relay", "wss://spam.example"]])
        print("delivery on screen: per-member rows, the composer's warning, blocked relays and :doctor under xterm, xterm-256color, tmux-256color")
    }
}
