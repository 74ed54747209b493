import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (3): `sync --timeout N` returns within N + 1 s whatever the relays do. With every relay
/// down or silent and a profile name typed offline, it took 27.5 s for `--timeout 10` (the name's
/// publish ran before the deadline started, then the history had its whole timeout again). What is left
/// at the deadline stays pending and is said; with a relay that answers, the name still goes out.
final class SyncDeadlineTests: XCTestCase {
    func testSyncKeepsItsDeadlineAndSaysWhatIsLeft() throws {
        let silent = try InteropServer(script: "silent_tcp.py", arguments: [])
        defer { silent.stop() }
        let refused = "ws://127.0.0.1:\(try TestRelay.freePort())"
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("deadline", relays: [refused])
        defer { home.remove() }
        let me = try home.createIdentity()
        try home.ok(["identity", "name", "Typed Offline"])

        for (what, url) in [("refused", refused), ("silent", silent.url)] {
            let started = Date()
            let run = try home.run(["sync", "--json", "--timeout", "5"], relays: [url], timeout: 60)
            let took = Date().timeIntervalSince(started)
            XCTAssertLessThan(took, 6, "\(what): --timeout 5 returned after \(took) s")
            XCTAssertEqual(run.status, 75, "\(what): \(run.err)")
            let report = try XCTUnwrap(try? run.json() as? [String: Any], run.out)
            XCTAssertEqual(report["unfinished"] as? [String], ["profile name not published yet: no relay accepted it in time; it goes out on the next sync"])
            XCTAssertTrue(run.err.contains("linkstr: profile name not published yet"), run.err)
        }

        // A relay that answers: the pending name goes out within the run and nothing is left.
        let done = try home.run(["sync", "--json", "--timeout", "20"], relays: [relay.url])
        XCTAssertEqual(done.status, 0, done.err)
        XCTAssertEqual((try done.json() as? [String: Any])?["unfinished"] as? [String], [])
        let profiles = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [0], "authors": [me.hex]])
        XCTAssertTrue(profiles.contains { ($0["content"] as? String)?.contains("Typed Offline") == true }, "\(profiles)")
    }
}
