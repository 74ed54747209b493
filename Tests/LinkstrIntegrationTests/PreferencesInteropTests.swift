import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Aliases and archive state shared with the iOS app on the same key (wire 2026 §3, kind 30078): the
/// phone's records are built by rust-nostr exactly as the spec describes, ours are opened by rust-nostr.
final class PreferencesInteropTests: XCTestCase {
    func testAliasesAndArchivesTravelBothWaysAndOfflineEditsGoOutLater() throws {
        let nostrRelay = try TestRelay(), rustRelay = try RustRelay.start()
        for relay in [nostrRelay.url, rustRelay.url] {
            let home = try Home("prefs", relays: [relay])
            defer { home.remove() }
            _ = try home.createIdentity()
            let nsec = try home.ok(["identity", "export-secret", "--yes"]).trimmed
            guard case .nsec(let key) = try NIP19.decode(nsec) else { return XCTFail("not an nsec") }
            let bob = SecretKey.generate().publicKey.hex, carol = SecretKey.generate().publicKey.hex
            try home.ok(["contacts", "add", bob])
            let session = try home.ok(["session", "create", "Archived on the phone", "--member", bob]).trimmed
            let now = Int64(Date().timeIntervalSince1970)

            // The phone: an alias, an archive, and what must be ignored (another app's record, a broken one,
            // an alias for someone who is not a contact yet, applied once they are).
            try RustNostrPeer.publishPreference(relay: relay, secret: nsec, plaintext: #"{"alias":{"pubkey":"\#(bob)","name":"Bob from the phone"}}"#,
                                                key: "alias:" + bob, at: now - 20)
            try RustNostrPeer.publishPreference(relay: relay, secret: nsec, plaintext: #"{"archive":{"sessionID":"\#(session)","archived":true}}"#,
                                                key: "archive:" + session, at: now - 20)
            try RustNostrPeer.publishPreference(relay: relay, secret: nsec, plaintext: #"{"alias":{"pubkey":"\#(carol)","name":"Carol, later"}}"#,
                                                key: "alias:" + carol, at: now - 20)
            // (A broken record under its own `d`: relays keep one event per `d`, the newest.)
            let dave = SecretKey.generate().publicKey.hex
            try RustNostrPeer.publishPreference(relay: relay, secret: nsec, plaintext: #"{"alias":{"name":"no key"}}"#, key: "alias:" + dave, at: now - 5)
            try RustNostrPeer.publishEvent(relay: relay, secret: nsec, kind: 30078, tags: [["d", "someapp/settings"]], content: "{}", at: now - 5)

            _ = try home.sync()
            func alias(_ pk: String) throws -> String? {
                let list = try home.ok(["contacts", "list", "--json"]).json() as? [[String: Any]] ?? []
                return list.first { $0["pubkey"] as? String == pk }?["alias"] as? String
            }
            XCTAssertEqual(try alias(bob), "Bob from the phone", relay)
            XCTAssertEqual(try home.sessions(archived: true).compactMap { $0["id"] as? String }, [session], relay)
            XCTAssertTrue(try home.sessions().isEmpty)
            try home.ok(["contacts", "add", carol])
            XCTAssertEqual(try alias(carol), "Carol, later", "a record that came before its contact applies when they are added")

            // Ours, as the phone reads them.
            try home.ok(["contacts", "add", bob, "--alias", "Bobby"])
            try home.ok(["session", "unarchive", session])
            func records() throws -> [String: (plaintext: String, createdAt: Int64)] {
                var out = [String: (String, Int64)]()
                for e in try RustNostrPeer.query(relay: relay, filter: ["authors": [key.publicKey.hex], "kinds": [30078]]) {
                    guard let d = (e["tags"] as? [[String]])?.first?[safe: 1], d.hasPrefix("linkstr/") else { continue }
                    let at = e["created_at"] as! Int64
                    if let seen = out[d], seen.1 >= at { continue }
                    out[d] = (try RustNostrPeer.decryptToSelf(secret: nsec, content: e["content"] as! String), at)
                }
                return out
            }
            var seen = try records()
            let bobD = PrivatePreference.dTag(for: "alias:" + bob, secretKey: key), archiveD = PrivatePreference.dTag(for: "archive:" + session, secretKey: key)
            XCTAssertEqual(seen[bobD]?.plaintext, #"{"alias":{"pubkey":"\#(bob)","name":"Bobby"}}"#, relay)
            XCTAssertEqual(seen[archiveD]?.plaintext, #"{"archive":{"sessionID":"\#(session)","archived":false}}"#, relay)
            XCTAssertGreaterThan(seen[archiveD]?.createdAt ?? 0, now - 20, "dated after the record it replaces")

            // Offline: the edit applies here at once and waits; the next run with a relay publishes it.
            let offline = try home.run(["contacts", "add", bob, "--alias", "Bob offline"], relays: ["ws://127.0.0.1:9"])
            XCTAssertEqual(offline.status, 0, offline.err)
            XCTAssertEqual(try alias(bob), "Bob offline")
            XCTAssertEqual(try records()[bobD]?.plaintext, #"{"alias":{"pubkey":"\#(bob)","name":"Bobby"}}"#, "not published yet")
            _ = try home.sync()
            seen = try records()
            XCTAssertEqual(seen[bobD]?.plaintext, #"{"alias":{"pubkey":"\#(bob)","name":"Bob offline"}}"#, relay)
        }
    }

    /// More records than the relay sends at once (nostr-relay clamped to 100): the stored preferences are
    /// paged like the history (wire 2026 §3.6), so every alias arrives.
    func testStoredPreferencesArePagedPerRelay() throws {
        let relay = try TestRelay(maxLimit: 100)
        let home = try Home("prefs-paged", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        let nsec = try home.ok(["identity", "export-secret", "--yes"]).trimmed
        let people = (0..<250).map { _ in SecretKey.generate().publicKey.hex }
        let now = Int64(Date().timeIntervalSince1970)
        try RustNostrPeer.publishEvent(relay: relay.url, secret: nsec, kind: 3, tags: people.map { ["p", $0] }, at: now - 100)
        // Timestamps shared by several records, so pages end inside seconds.
        let items: [[String: Any]] = people.enumerated().map { i, pk in
            ["plaintext": #"{"alias":{"pubkey":"\#(pk)","name":"friend \#(i)"}}"#, "key": "alias:" + pk, "created_at": now - 50 + Int64(i / 7)]
        }
        let events = try RustNostrPeer.call("preferences", ["secret": nsec, "items": items])["events"] as! [Any]
        let out = try RustNostrPeer.call("publish", ["relay": relay.url, "events": events])
        XCTAssertEqual((out["ok"] as! [Bool]).filter { $0 }.count, 250)

        _ = try home.sync(timeout: 60)
        let contacts = try home.ok(["contacts", "list", "--json"]).json() as? [[String: Any]] ?? []
        XCTAssertEqual(contacts.count, 250)
        XCTAssertEqual(contacts.filter { ($0["alias"] as? String)?.hasPrefix("friend ") == true }.count, 250, "every record, across pages")
    }
}
