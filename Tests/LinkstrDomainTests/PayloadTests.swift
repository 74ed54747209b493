import Foundation
import LinkstrDomain
import NostrProtocol
import XCTest

final class PayloadTests: XCTestCase {
    let alice = String(repeating: "a1", count: 32)
    let bob = String(repeating: "b2", count: 32)

    func testDecodesExactlyWhatIOSSends() throws {
        let ios = #"{"conversation_id":"3F2504E04F8911D39A0C0305E82C3301","root_id":"","kind":"root","url":"https:\/\/www.youtube.com\/watch?v=dQw4w9WgXcQ","note":"watch this","timestamp":1741380000}"#
        let p = try LinkstrPayload.decode(ios)
        XCTAssertEqual(p.kind, .root)
        XCTAssertEqual(p.url, "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
        XCTAssertEqual(p.timestamp, 1_741_380_000)
        XCTAssertNil(p.emoji)

        let reaction = #"{"timestamp":1741380100,"emoji":"👍","conversation_id":"3F25","reaction_active":true,"kind":"reaction","root_id":"\#(String(repeating: "c", count: 64))","future_key":{"x":[1,2]}}"#
        let r = try LinkstrPayload.decode(reaction)
        XCTAssertEqual(r.reactionActive, true)
        XCTAssertEqual(r.emoji, "👍")

        // Missing timestamp and null optionals are fine.
        let bare = try LinkstrPayload.decode(#"{"conversation_id":"X","root_id":"","kind":"root","url":"https://a.b","note":null}"#)
        XCTAssertNil(bare.timestamp)
        XCTAssertNil(bare.note)
    }

    func testRejectsWhatIOSRejects() throws {
        func fails(_ json: String, _ expected: PayloadError, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try LinkstrPayload.decode(json), file: file, line: line) { XCTAssertEqual($0 as? PayloadError, expected, file: file, line: line) }
        }
        fails(#"{"conversation_id":"X","kind":"root","url":"https://a.b"}"#, .missingKey("root_id"))
        fails(#"{"conversation_id":"X","root_id":null,"kind":"root"}"#, .missingKey("root_id"))
        fails(#"{"conversation_id":"X","root_id":"","kind":"reply","note":"hi"}"#, .unknownKind("reply"))
        fails(#"{"conversation_id":"X","root_id":"","kind":"root","timestamp":1.5}"#, .wrongType("timestamp"))
        fails(#"{"conversation_id":"X","root_id":"","kind":"root","timestamp":"1"}"#, .wrongType("timestamp"))
        fails(#"{"conversation_id":"X","root_id":"r","kind":"reaction","emoji":"x","reaction_active":"true"}"#, .wrongType("reaction_active"))
        fails(#"{"conversation_id":5,"root_id":"","kind":"root"}"#, .wrongType("conversation_id"))
        fails(#"{"conversation_id":"X","root_id":"","kind":"session_create","member_pubkeys":[1]}"#, .wrongType("member_pubkeys"))
        fails("[1]", .notAnObject)
    }

    func testEncodingRoundTripsAndOmitsNils() throws {
        let p = LinkstrPayload(conversationID: "S", rootID: "", kind: .root, url: "https://x.y/a?b=c", timestamp: 7)
        let text = p.encoded()
        XCTAssertFalse(text.contains("note"))
        XCTAssertFalse(text.contains("null"))
        XCTAssertTrue(text.contains(#""root_id":"""#))
        XCTAssertEqual(try LinkstrPayload.decode(text), p)
        // Foundation (what iOS uses) can read it too.
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        XCTAssertEqual(object["url"] as? String, "https://x.y/a?b=c")
        XCTAssertEqual(object["timestamp"] as? Int, 7)
    }

    func testValidationPerKind() throws {
        func valid(_ p: LinkstrPayload) -> Bool { (try? p.validated()) != nil }
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "  ", rootID: "", kind: .root, url: "https://a.b")))
        XCTAssertTrue(valid(LinkstrPayload(conversationID: "S", rootID: "", kind: .root, url: "https://a.b")))
        for bad in ["ftp://a.b", "mailto:x@y.z", "javascript:alert(1)", "https://", "not-a-url", ""] {
            XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "", kind: .root, url: bad)), bad)
        }
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: " ", kind: .rootDelete)))
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "", kind: .sessionCreate, sessionName: " ", memberPubkeys: [alice])))
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "", kind: .sessionCreate, sessionName: "n", memberPubkeys: [])))
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "", kind: .sessionCreate, sessionName: "n", memberPubkeys: [alice, "abcd"])),
                       "one invalid key rejects the whole list (and 'abcd' is not a key, unlike on iOS)")
        let created = try LinkstrPayload(conversationID: " S ", rootID: "", kind: .sessionCreate, sessionName: " n ",
                                         memberPubkeys: [alice.uppercased(), alice, bob]).validated()
        XCTAssertEqual(created.memberPubkeys, [alice, bob])
        XCTAssertEqual(created.sessionName, "n")
        XCTAssertEqual(created.conversationID, "S")
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "r", kind: .reaction, emoji: "👍")), "reaction_active required")
        XCTAssertFalse(valid(LinkstrPayload(conversationID: "S", rootID: "r", kind: .reaction, emoji: " ", reactionActive: true)))
        XCTAssertTrue(valid(LinkstrPayload(conversationID: "S", rootID: "r", kind: .reaction, emoji: "👍", reactionActive: false)))
    }

    func testRustNostrVectorPayloadsDecode() throws {
        // The payloads inside ../shared/vectors/nip59.rust-nostr.json (checked in NostrProtocolTests) in their exact text.
        let create = #"{"conversation_id":"7a1c2f0e-3b5d-4c8e-9f10-1234567890ab","root_id":"","kind":"session_create","timestamp":1795000000,"session_name":"Film club","member_pubkeys":["c31bab49e16ca564c3ba2459f02cf49f73f3a7b9c104b9adb0da91fbed941920","4cac183d6a3585dafba5cf99f487f2ef6bd4dd172f3cd9c423c49b0bb6a4c54c"]}"#
        let p = try LinkstrPayload.decode(create).validated()
        XCTAssertEqual(p.memberPubkeys?.count, 2)
        XCTAssertEqual(p.sessionName, "Film club")
    }

    func testSessionIDsLookLikeIOSOnes() throws {
        let id = LinkstrID.make(SystemRandom())
        XCTAssertEqual(id.count, 32)
        XCTAssertEqual(id, id.uppercased())
        XCTAssertTrue(id.allSatisfy { $0.isHexDigit })
        XCTAssertEqual(Array(id)[12], "4", "UUID v4 version nibble")
    }
}
