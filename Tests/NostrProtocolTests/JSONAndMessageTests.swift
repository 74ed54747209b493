import NostrProtocol
import XCTest

final class JSONAndMessageTests: XCTestCase {
    func testParserAcceptsWhatIOSSends() throws {
        let text = #"{"conversation_id":"3F25","root_id":"","kind":"root","url":"https:\/\/www.youtube.com\/watch?v=x","note":"caf\u00e9 😀","timestamp":1741380000}"#
        let v = try JSONParser.parse(text)
        XCTAssertEqual(v.objectValue?["url"]?.stringValue, "https://www.youtube.com/watch?v=x")
        XCTAssertEqual(v.objectValue?["note"]?.stringValue, "café 😀")
        XCTAssertEqual(v.objectValue?["timestamp"]?.integerValue, 1_741_380_000)
    }

    func testParserRejectsHostileInputWithTypedErrors() {
        let cases: [(String, JSONError.Kind)] = [
            ("", .unexpectedEnd),
            ("[1,]", .unexpectedCharacter),
            (#"{"a":1,"a":2}"#, .duplicateKey),
            (#""\ud800""#, .loneSurrogate),
            (#""\udc00x""#, .loneSurrogate),
            ("\"a\u{01}b\"", .controlCharacterInString),
            ("01", .invalidNumber),
            ("1e999999", .numberOutOfRange),
            ("[1] x", .trailingCharacters),
            (#"{"a" 1}"#, .expectedColon),
            (#""\x""#, .invalidEscape),
            (String(repeating: "[", count: 10_000), .tooDeep),
            (String(repeating: "9", count: 5000), .numberTooLong),
        ]
        for (input, kind) in cases {
            XCTAssertThrowsError(try JSONParser.parse(input), input.prefix(20).description) { XCTAssertEqual(($0 as? JSONError)?.kind, kind, input.prefix(20).description) }
        }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22])) { XCTAssertEqual(($0 as? JSONError)?.kind, .invalidUTF8) }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22])) { XCTAssertEqual(($0 as? JSONError)?.kind, .invalidUTF8) }
        // Strings are read 8 bytes at a time and all-ASCII ones are not validated again: a byte with its
        // high bit set at any place of a word, or in the tail, sends the string to validation.
        let ascii = Array("abcdefghijklmnopqrstuvwx".utf8)
        for at in 0...ascii.count {
            var bad = ascii
            bad.insert(0xFF, at: at)
            XCTAssertThrowsError(try JSONParser.parse([0x22] + bad + [0x22]), "0xFF at \(at)") { XCTAssertEqual(($0 as? JSONError)?.kind, .invalidUTF8) }
            var good = ascii
            good.insert(contentsOf: Array("é".utf8), at: at)
            XCTAssertEqual(try JSONParser.parse([0x22] + good + [0x22]).stringValue?.utf8.elementsEqual(good), true, "é at \(at)")
        }
        XCTAssertEqual(try JSONParser.parse([0x22] + ascii + [0x22]).stringValue, "abcdefghijklmnopqrstuvwx")
        // Numbers too big for Int64 become doubles; a 10 MB string parses (within the default size limit).
        XCTAssertEqual(try JSONParser.parse("99999999999999999999"), .double(1e20))
        let big = "\"" + String(repeating: "a", count: 10_000_000) + "\""
        XCTAssertEqual(try JSONParser.parse(big).stringValue?.utf8.count, 10_000_000)
        XCTAssertThrowsError(try JSONParser.parse(big, limits: .init(maxBytes: 1 << 20))) { XCTAssertEqual(($0 as? JSONError)?.kind, .tooLarge) }
    }

    func testCanonicalSerializationEscapesAsNIP01Says() {
        let key = try! SecretKey(hex: String(repeating: "01", count: 32))
        let e = UnsignedEvent(pubkey: key.publicKey, createdAt: 1, kind: 1, tags: [["t", "a/b"]], content: "l1\nq\"b\\r\rt\tb\u{08}f\u{0C}c\u{01}/é")
        let s = String(decoding: e.canonicalSerialization(), as: UTF8.self)
        XCTAssertEqual(s, #"[0,""# + key.publicKey.hex + #"",1,1,[["t","a/b"]],"l1\nq\"b\\r\rt\tb\bf\fc\u0001/é"]"#)
    }

    func testEventRoundTripAndVerification() throws {
        let key = SecretKey.generate()
        let e = UnsignedEvent(pubkey: key.publicKey, createdAt: 1_700_000_000, kind: 1, tags: [["p", key.publicKey.hex]], content: "hi").signed(with: key)
        XCTAssertNoThrow(try e.verify())
        let back = try NostrEvent(json: e.jsonString())
        XCTAssertEqual(back, e)
        let tampered = e.jsonString().replacingOccurrences(of: "\"hi\"", with: "\"ho\"")
        XCTAssertThrowsError(try NostrEvent(json: tampered).verify()) { XCTAssertEqual($0 as? EventValidationError, .idMismatch) }
        let upper = e.jsonString().replacingOccurrences(of: e.id.hex, with: e.id.hex.uppercased())
        XCTAssertThrowsError(try NostrEvent(json: upper)) { XCTAssertEqual($0 as? EventDecodingError, .invalidHex(field: "id")) }
        let badKind = e.jsonString().replacingOccurrences(of: "\"kind\":1", with: "\"kind\":70000")
        XCTAssertThrowsError(try NostrEvent(json: badKind)) { XCTAssertEqual($0 as? EventDecodingError, .kindOutOfRange) }
        let floatTime = e.jsonString().replacingOccurrences(of: "1700000000", with: "1700000000.5")
        XCTAssertThrowsError(try NostrEvent(json: floatTime)) { XCTAssertEqual($0 as? EventDecodingError, .wrongType(field: "created_at", expected: "integer")) }
    }

    func testEveryClientMessageRoundTrips() throws {
        let key = SecretKey.generate()
        let e = UnsignedEvent(pubkey: key.publicKey, createdAt: 5, kind: 22242, tags: [["relay", "ws://127.0.0.1"], ["challenge", "c"]], content: "").signed(with: key)
        let filter = Filter(kinds: [1059], tags: ["p": [key.publicKey.hex]], since: 10, limit: 500)
        let messages: [ClientMessage] = [
            .event(e), .auth(e), .req(subscriptionID: "linkstr-giftwrap", filters: [filter, Filter(authors: [key.publicKey.hex], kinds: [3], limit: 1)]),
            .close(subscriptionID: "s"), .count(subscriptionID: "c", filters: [filter]),
        ]
        for m in messages { XCTAssertEqual(try ClientMessage.decode(m.encoded()), m) }
        XCTAssertEqual(ClientMessage.req(subscriptionID: "s", filters: [filter]).encoded(),
                       ##"["REQ","s",{"kinds":[1059],"#p":[""## + key.publicKey.hex + ##""],"since":10,"limit":500}]"##)
    }

    func testEveryRelayMessageDecodes() throws {
        let key = SecretKey.generate()
        let e = UnsignedEvent(pubkey: key.publicKey, createdAt: 5, kind: 1059, content: "x").signed(with: key)
        let id = e.id.hex
        let cases: [(String, RelayMessage)] = [
            (#"["EVENT","sub",\#(e.jsonString())]"#, .event(subscriptionID: "sub", event: e)),
            (#"["OK","\#(id)",true,""]"#, .ok(eventID: e.id, accepted: true, message: RelayStatusMessage(""))),
            (#"["OK","\#(id)",false,"auth-required: please authenticate"]"#, .ok(eventID: e.id, accepted: false, message: RelayStatusMessage("auth-required: please authenticate"))),
            (#"["EOSE","sub"]"#, .eose(subscriptionID: "sub")),
            (#"["CLOSED","sub","rate-limited: slow down"]"#, .closed(subscriptionID: "sub", message: RelayStatusMessage("rate-limited: slow down"))),
            (#"["NOTICE","hello"]"#, .notice("hello")),
            (#"["AUTH","challenge-1"]"#, .auth(challenge: "challenge-1")),
            (#"["COUNT","c",{"count":42}]"#, .count(subscriptionID: "c", count: 42, approximate: false)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try RelayMessage.decode(text), expected, text)
            XCTAssertEqual(try RelayMessage.decode(expected.encoded()), expected)
        }
    }

    func testMachineReadablePrefixes() {
        let all: [(String, MachineReadablePrefix)] = [
            ("auth-required: x", .authRequired), ("restricted: x", .restricted), ("rate-limited: x", .rateLimited),
            ("blocked: x", .blocked), ("invalid: x", .invalid), ("pow: x", .pow), ("duplicate: x", .duplicate), ("error: x", .error),
        ]
        for (raw, prefix) in all {
            let m = RelayStatusMessage(raw)
            XCTAssertEqual(m.prefix, prefix)
            XCTAssertEqual(m.text, "x")
        }
        XCTAssertNil(RelayStatusMessage("no prefix here").prefix)
        XCTAssertNil(RelayStatusMessage("weird: prefix").prefix)
    }

    func testFilterMatching() {
        let key = SecretKey.generate()
        let e = UnsignedEvent(pubkey: key.publicKey, createdAt: 100, kind: 1059, tags: [["p", "abc"]], content: "").signed(with: key)
        XCTAssertTrue(Filter(kinds: [1059], tags: ["p": ["abc"]], since: 50, until: 100).matches(e))
        XCTAssertFalse(Filter(kinds: [1059], tags: ["p": ["abd"]]).matches(e))
        XCTAssertFalse(Filter(since: 101).matches(e))
    }

    /// Output meant for a terminal (`--json`) escapes every control and format character — C0, DEL, C1
    /// (CSI U+009B, OSC U+009D), bidi overrides, line separators — so remote text cannot drive the terminal.
    func testTerminalSafeJSONEscapesControlsThatCanonicalJSONKeeps() throws {
        let hostile = "a\u{9B}31m\u{9D}8;;x\u{7F}\u{202E}b\u{2028}\u{1B}[2J✓"
        let out = JSONWriter.encodeTerminalSafe(.object(JSONObject([("note", .string(hostile))])))
        XCTAssertEqual(out, #"{"note":"a\u009b31m\u009d8;;x\u007f\u202eb\u2028\u001b[2J✓"}"#)
        XCTAssertFalse(out.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        XCTAssertEqual(try JSONParser.parse(Array(out.utf8)), .object(JSONObject([("note", .string(hostile))])), "still the same JSON value")
    }
}
