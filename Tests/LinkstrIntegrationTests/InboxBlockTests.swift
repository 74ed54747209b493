import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 53 (4): blocking a relay we publish as our inbox (kind 10050) left it there, so friends kept
/// delivering where we never read; `relays inbox URL…` waited for the next sync to publish. Now blocking
/// takes it out and publishes the list at once (saying so), refuses to block the last one, and choosing
/// inbox relays publishes at once. nostr-relay is ours, a silent server and LocalRelay are inbox relays.
final class InboxBlockTests: XCTestCase {
    func testBlockingAnInboxRelayTakesItOutOfOurPublishedInbox() throws {
        let ours = try TestRelay()
        defer { ours.stop() }
        let silent = try InteropServer(script: "silent_tcp.py", arguments: [])
        defer { silent.stop() }
        let local = try RustRelay.start()
        defer { local.stop() }
        var home = try Home("inbox-block", relays: [ours.url])
        defer { home.remove() }
        let me = try home.createIdentity()
        try home.storeRelays()
        /// Our newest kind 10050 on our relay. nostr-relay says OK before a replacement can be read from
        /// another connection: a moment (2 s at most) is given for `expected` to show.
        func published(_ expected: [String]) throws -> [String] {
            var relays = [String]()
            for _ in 0..<20 {
                let lists = try RustNostrPeer.query(relay: ours.url, filter: ["kinds": [10050], "authors": [me.hex]])
                let newest = lists.max { ($0["created_at"] as? Int ?? 0) < ($1["created_at"] as? Int ?? 0) }
                relays = (newest?["tags"] as? [[String]] ?? []).filter { $0.first == "relay" }.map { $0[1] }
                if relays == expected { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return relays
        }
        func json(_ args: [String]) throws -> [String: Any] { try XCTUnwrap(try home.ok(args + ["--json"]).json() as? [String: Any]) }

        // Chosen: published at once (no sync in between).
        XCTAssertEqual(try json(["relays", "inbox", ours.url, silent.url])["chosen"] as? Bool, true)
        XCTAssertEqual(try published([ours.url, silent.url]), [ours.url, silent.url])
        _ = try home.run(["sync", "--json", "--timeout", "10"])

        // Blocked: out of the inbox, the list published again, and said.
        let blocked = try json(["relays", "block", silent.url])
        XCTAssertEqual(blocked["published"] as? Bool, true)
        XCTAssertEqual(blocked["note"] as? String, "also taken out of your inbox relays (kind 10050), published")
        XCTAssertEqual(try json(["relays", "inbox"])["relays"] as? [String], [ours.url])
        XCTAssertEqual(try published([ours.url]), [ours.url])
        let doctor = try json(["doctor"])
        let oursReport = try XCTUnwrap(doctor["ours"] as? [String: Any])
        XCTAssertEqual(oursReport["inbox"] as? [String], [ours.url])
        XCTAssertEqual(oursReport["inbox_published"] as? Bool, true)
        XCTAssertEqual(oursReport["blocked"] as? [String], [silent.url])

        // The only inbox relay cannot be blocked: the reason, and nothing changed.
        let chosen = try home.ok(["relays", "inbox", local.url])
        XCTAssertEqual(try published([local.url]), [local.url], chosen.err)
        let refused = try home.run(["relays", "block", local.url])
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertEqual(refused.err, "linkstr: \(local.url) is your only inbox relay (your kind 10050): choose another first (linkstr relays inbox URL…, or --reset for your relays).\n")
        XCTAssertEqual(try json(["relays", "blocked"])["relays"] as? [String], [silent.url])
        XCTAssertEqual(try json(["relays", "inbox"])["relays"] as? [String], [local.url])
    }

    /// Issue 53 (6.4): `--relay` means "exactly these relays for this run"; it published our kinds 10002
    /// and 10050 naming the override relay, to the indexers too. Now a run with an override publishes no
    /// list made from it; the next run with our own relays publishes ours.
    func testARelayOverrideIsNeverPublishedAsOurLists() throws {
        let ours = try TestRelay(), indexer = try TestRelay()
        defer { ours.stop(); indexer.stop() }
        let once = try RustRelay.start()
        defer { once.stop() }
        var home = try Home("override-lists", relays: [ours.url])
        defer { home.remove() }
        try home.writeConfig("indexer_relays = [\"\(indexer.url)\"]\n")
        let me = try home.createIdentity()
        try home.storeRelays()
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        func lists(on url: String) throws -> [[String]] {
            try RustNostrPeer.query(relay: url, filter: ["kinds": [10002, 10050], "authors": [me.hex]]).flatMap { $0["tags"] as? [[String]] ?? [] }
        }
        let run = try home.run(["sync", "--json", "--timeout", "10"], relays: [once.url], environment: allow)
        XCTAssertEqual(run.status, 0, run.err)
        for url in [once.url, indexer.url, ours.url] { XCTAssertEqual(try lists(on: url), [], "nothing announced on \(url)") }

        XCTAssertEqual(try home.run(["sync", "--json", "--timeout", "10"], environment: allow).status, 0)
        for url in [ours.url, indexer.url] {
            let tags = try lists(on: url)
            XCTAssertTrue(tags.contains(["relay", ours.url]) && tags.contains { $0.first == "r" && $0[1] == ours.url }, "\(url): \(tags)")
            XCTAssertFalse(tags.contains { $0.count > 1 && $0[1] == once.url }, "\(url): \(tags)")
        }
    }

    /// `--relay` is exactly these relays: our chosen inbox relays were dialled beside it all the same.
    func testARelayOverrideDialsNoInboxRelayOfOurs() throws {
        let ours = try TestRelay(), inbox = try TestRelay(), once = try TestRelay()
        defer { ours.stop(); inbox.stop(); once.stop() }
        var home = try Home("override-inbox", relays: [ours.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        try home.storeRelays()
        let chosen = try home.run(["relays", "inbox", inbox.url])
        XCTAssertEqual(chosen.status, 0, chosen.err)
        func dialled(_ relays: [String]?) throws -> [String] {
            let run = try home.run(["sync", "--json", "--timeout", "10"], relays: relays)
            XCTAssertEqual(run.status, 0, run.err)
            let report = try XCTUnwrap(try run.json() as? [String: Any], run.err)
            return (report["relays"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }.sorted()
        }
        XCTAssertEqual(try dialled([once.url]), [once.url])
        XCTAssertEqual(try dialled(nil), [ours.url, inbox.url].sorted())
    }
}
