import Foundation
import LinkstrTestSupport
import XCTest

/// Our own follow list shared with the iOS app on the same key (wire 2026 §7.1): the phone's list is
/// built and signed by rust-nostr; an edit here keeps what the phone put in it.
final class ContactsInteropTests: XCTestCase {
    func testAnEditKeepsThePhonesTagsAndIsDatedAfterItsList() throws {
        let nostrRelay = try TestRelay(), rustRelay = try RustRelay.start()
        for relay in [nostrRelay.url, rustRelay.url] {
            let home = try Home("follow", relays: [relay])
            defer { home.remove() }
            let (_, me) = try home.createIdentity()
            let nsec = try home.ok(["identity", "export-secret", "--yes"]).trimmed
            let bob = String(repeating: "b2", count: 32), carol = String(repeating: "c3", count: 32), dave = String(repeating: "d4", count: 32)
            let hint = "wss://relay.example.com"
            // The phone's list, dated a minute ahead of this machine's clock (clocks differ).
            let phoneAt = Int64(Date().timeIntervalSince1970) + 60
            try RustNostrPeer.publishEvent(relay: relay, secret: nsec, kind: 3,
                                           tags: [["p", bob, hint, "bobby"], ["t", "friends"], ["p", dave]], at: phoneAt)

            try home.ok(["contacts", "add", carol])
            try home.ok(["contacts", "remove", dave])
            let lists = try RustNostrPeer.query(relay: relay, filter: ["authors": [me], "kinds": [3]])
            let newest = try XCTUnwrap(lists.max { ($0["created_at"] as! Int64) < ($1["created_at"] as! Int64) })
            XCTAssertEqual(newest["tags"] as? [[String]], [["p", bob, hint, "bobby"], ["t", "friends"], ["p", carol]], relay)
            XCTAssertGreaterThan(newest["created_at"] as! Int64, phoneAt + 1, "each edit is dated after the list it replaces")
            let listed = try home.ok(["contacts", "list", "--json"]).json() as? [[String: Any]] ?? []
            XCTAssertEqual(Set(listed.compactMap { $0["pubkey"] as? String }), [bob, carol], relay)
        }
    }
}
