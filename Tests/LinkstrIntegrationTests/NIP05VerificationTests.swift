import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Names people can verify: a loopback server answers NIP-05 for five contacts (Tests/Interop/nip05_server.py):
/// one correct document, one that maps the name to another key, one too large, one too slow, one
/// malformed. Only the correct one shows "✓" (`contacts list`, its `--json`, the You pane and the members
/// box in tmux); a name is asked about once a day, and again when it changes; our own `nip05` goes out in
/// our kind 0 (`identity name … --nip05`).
final class NIP05VerificationTests: XCTestCase {
    func testOnlyADocumentThatVouchesForTheKeyVerifiesAName() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let people: [(name: String, nip05: String)] = [("alice", "alice@example.test"), ("mallory", "wrong-mallory@example.test"),
                                                       ("hugo", "huge-hugo@example.test"), ("sam", "slow-sam@example.test"),
                                                       ("bea", "bad-bea@example.test")]
        let keys = Dictionary(uniqueKeysWithValues: people.map { ($0.name, SecretKey.generate()) })
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-nip05-\(UUID().uuidString).log")
        defer { removeTemporary(log) }
        setenv("NIP05_LOG", log.path, 1)
        defer { unsetenv("NIP05_LOG") }
        let server = try InteropServer(script: "nip05_server.py", arguments: people.map { "\($0.name)=\(keys[$0.name]!.publicKey.hex)" })
        defer { server.stop() }
        let now = Int64(Date().timeIntervalSince1970)
        // Their profiles, and inbox lists (so that the relay discovery never falls back to their NIP-05
        // documents, and every request the server sees is a check of a name).
        try DirectPublish.events(try people.flatMap { p in
            [try UnsignedEvent(pubkey: keys[p.name]!.publicKey, createdAt: now - 100, kind: 0,
                               content: #"{"name":"\#(p.name)","nip05":"\#(p.nip05)"}"#).signed(with: keys[p.name]!),
             try UnsignedEvent(pubkey: keys[p.name]!.publicKey, createdAt: now - 100, kind: 10050, tags: [["relay", relay.url]],
                               content: "").signed(with: keys[p.name]!)]
        }, to: relay.url)
        let env = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1", "LINKSTR_NIP05_ORIGIN": "http://127.0.0.1:\(server.port)"]
        let home = try Home.forApp("nip05", relay: relay.url)
        defer { home.remove() }
        for p in people { try home.ok(["contacts", "add", keys[p.name]!.publicKey.npub], environment: env) }
        try home.ok(["session", "create", "Names", "--member", keys["alice"]!.publicKey.npub, "--member", keys["mallory"]!.publicKey.npub],
                    environment: env)
        _ = try home.ok(["sync", "--json", "--timeout", "40"], environment: env)

        func listed() throws -> [String: [String: Any]] {
            let rows = try XCTUnwrap(try home.ok(["contacts", "list", "--json"], environment: env).json() as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["pubkey"] as! String, $0) })
        }
        let rows = try listed()
        for p in people {
            let row = try XCTUnwrap(rows[keys[p.name]!.publicKey.hex])
            XCTAssertEqual(row["nip05"] as? String, p.nip05)
            XCTAssertEqual(row["nip05_verified"] as? Bool, p.name == "alice", "\(p.nip05): \(row)")
        }
        let text = try home.ok(["contacts", "list"], environment: env).out
        XCTAssertTrue(text.contains("✓ alice@example.test"), text)
        XCTAssertTrue(text.contains("wrong-mallory@example.test (unverified)"), text)
        XCTAssertEqual(text.components(separatedBy: "✓").count - 1, 1, "one name verified: \(text)")

        // Asked at most once a day: another sync asks nothing.
        let asked = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count
        XCTAssertEqual(asked, people.count, "each asked once")
        _ = try home.ok(["sync", "--json", "--timeout", "20"], environment: env)
        XCTAssertEqual(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count, asked, "not asked again within a day")
        // A name that changes is asked about at once: Mallory's new one vouches for her.
        try DirectPublish.events([try UnsignedEvent(pubkey: keys["mallory"]!.publicKey, createdAt: now - 10, kind: 0,
                                                    content: #"{"name":"mallory","nip05":"mallory@example.test"}"#).signed(with: keys["mallory"]!)],
                                 to: relay.url)
        _ = try home.ok(["sync", "--json", "--timeout", "20"], environment: env)
        XCTAssertEqual(try listed()[keys["mallory"]!.publicKey.hex]?["nip05_verified"] as? Bool, true)

        // Sealed at rest: no name in any file of the data directory.
        let files = FileManager.default.enumerator(at: home.directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let bytes = try Data(contentsOf: file)
            XCTAssertNil(bytes.range(of: Data("example.test".utf8)), "\(file.lastPathComponent) holds a name in the clear")
        }

        // On screen: the You pane and the members box.
        let tmux = try Tmux()
        for (i, term) in ["xterm-256color", "tmux-256color"].enumerated() {
            let w = "n\(i)"
            try home.startApp(tmux, w, relay: relay.url, environment: env.merging(["TERM": term]) { $1 }, columns: 120, rows: 36)
            try tmux.waitFor(w, text: "Names", timeout: 30)
            try tmux.keys(w, "3")
            let you = try tmux.waitFor(w, text: "✓ alice@example.test", timeout: 20)
            XCTAssertTrue(you.contains("✓ mallory@example.test"), you)
            XCTAssertTrue(you.contains("huge-hugo@example.test (unverified)") && you.contains("bad-bea@example.test (unverified)"), you)
            XCTAssertEqual(you.components(separatedBy: "✓").count - 1, 2, you)
            try tmux.keys(w, "1", "Enter")
            try tmux.waitFor(w, text: "no posts yet")
            try tmux.keys(w, "m")
            try tmux.waitFor(w, text: "✓ alice@example.test")
            try tmux.keys(w, "Escape", "Escape", "q")
            _ = try? tmux.waitFor(w, "the app to quit") { !$0.contains("Names") }
            try home.waitUntilUnlocked()
        }

        // Our own NIP-05 name goes out in our kind 0.
        try home.ok(["identity", "name", "Me", "--nip05", "me@example.test"], environment: env)
        XCTAssertEqual(try home.run(["identity", "name", "Me", "--nip05", "not a name"], environment: env).status, 65)
        _ = try home.ok(["sync", "--json", "--timeout", "20"], environment: env)
        let bob = try Home.forApp("nip05-bob", relay: relay.url)
        defer { bob.remove() }
        let me = try XCTUnwrap(home.ok(["identity", "show", "--json"]).json() as? [String: String])["npub"] ?? ""
        try bob.ok(["contacts", "add", me])
        _ = try bob.ok(["sync", "--json", "--timeout", "20"])
        let seen = try XCTUnwrap(try bob.ok(["contacts", "list", "--json"]).json() as? [[String: Any]]).first
        XCTAssertEqual(seen?["nip05"] as? String, "me@example.test", "\(String(describing: seen))")
        XCTAssertEqual(seen?["name"] as? String, "Me")
    }
}
