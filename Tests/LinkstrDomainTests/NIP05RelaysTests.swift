import LinkstrDomain
import XCTest

/// NIP-05 as a source of relays: the identifier checked, the document verified before its relays count.
final class NIP05RelaysTests: XCTestCase {
    let bob = String(repeating: "b", count: 64)

    func testTheIdentifierIsReadFromAProfileAndChecked() {
        XCTAssertEqual(NIP05Relays.identifier(fromProfileContent: #"{"name":"bob","nip05":"Bob@Example.com"}"#)?.text, "bob@example.com")
        XCTAssertEqual(NIP05Relays.identifier("example.com")?.text, "_@example.com", "a bare domain is its root identifier")
        XCTAssertEqual(NIP05Relays.identifier("bob@example.com")?.documentURL, "https://example.com/.well-known/nostr.json?name=bob")
        for bad in ["bob@", "@example.com", "b o b@example.com", "bob@exa mple.com", "bob@example.com/x", "bob@localhost:8080", "a@b@c", "bob@foo",
                    "bob@example.com?x=1", "\u{1b}[2J@example.com"] {
            XCTAssertNil(NIP05Relays.identifier(bad), bad)
        }
        XCTAssertNil(NIP05Relays.identifier(fromProfileContent: #"{"nip05":42}"#))
        XCTAssertNil(NIP05Relays.identifier(fromProfileContent: "not json"))
    }

    func testRelaysCountOnlyWhenTheNameMapsToTheKey() {
        let document = #"{"names":{"bob":"\#(bob)"},"relays":{"\#(bob)":["wss://a.example","WSS://A.example/","javascript:x","wss://b.example"]}}"#
        XCTAssertEqual(NIP05Relays.relays(document: document, name: "bob", pubkey: bob), ["wss://a.example", "wss://b.example"])
        XCTAssertNil(NIP05Relays.relays(document: document, name: "bob", pubkey: String(repeating: "c", count: 64)), "someone else's key")
        XCTAssertNil(NIP05Relays.relays(document: document, name: "alice", pubkey: bob))
        XCTAssertEqual(NIP05Relays.relays(document: #"{"names":{"bob":"\#(bob)"}}"#, name: "bob", pubkey: bob), [], "verified, no relays")
        let many = (0..<30).map { "\"wss://r\($0).example\"" }.joined(separator: ",")
        XCTAssertEqual(NIP05Relays.relays(document: #"{"names":{"bob":"\#(bob)"},"relays":{"\#(bob)":[\#(many)]}}"#, name: "bob", pubkey: bob)?.count,
                       NIP05Relays.maxRelays)
        XCTAssertNil(NIP05Relays.relays(document: "[", name: "bob", pubkey: bob))
    }
}
