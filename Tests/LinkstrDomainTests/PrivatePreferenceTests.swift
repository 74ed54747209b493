import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Private preferences (wire 2026 §3), with the spec's literal examples and `d` vectors.
final class PrivatePreferenceTests: XCTestCase {
    let one = try! SecretKey(hex: String(repeating: "0", count: 63) + "1")
    let g = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    let sid = "3F2504E04F8911D39A0C0305E82C3301"

    func testTheDTagVectors() {
        XCTAssertEqual(one.publicKey.hex, g)
        XCTAssertEqual(PrivatePreference.dTag(for: "alias:" + g, secretKey: one),
                       "linkstr/preferences/v1/50feef8b5f1ce5a6fd854504a330bdeeb34654e178bdb95124df5a7f1f216a54")
        XCTAssertEqual(PrivatePreference.dTag(for: "archive:" + sid, secretKey: one),
                       "linkstr/preferences/v1/989ff13bd3a765c93b40e2b5d8fd5d4dfa31c1b8122ecf73f1f564e2d977f7af")
        XCTAssertEqual(PrivatePreference.alias(pubkey: g, name: "Bob").key, PrivatePreference.alias(pubkey: g, name: nil).key,
                       "set and clear share one d")
        XCTAssertNotEqual(PrivatePreference.dTag(for: "alias:" + g, secretKey: SecretKey.generate()), PrivatePreference.dTag(for: "alias:" + g, secretKey: one))
    }

    func testTheLiteralPlaintextsDecodeAndOursEncodeTheSame() {
        let literals: [(String, PrivatePreference)] = [
            (#"{"alias":{"pubkey":"\#(g)","name":"Bob"}}"#, .alias(pubkey: g, name: "Bob")),
            (#"{"alias":{"pubkey":"\#(g)"}}"#, .alias(pubkey: g, name: nil)),
            (#"{"archive":{"sessionID":"\#(sid)","archived":true}}"#, .archive(sessionID: sid, archived: true)),
            (#"{"archive":{"sessionID":"\#(sid)","archived":false}}"#, .archive(sessionID: sid, archived: false)),
        ]
        for (text, value) in literals {
            XCTAssertEqual(PrivatePreference.decode(text), value, text)
            XCTAssertEqual(value.json, text, "the iOS encoder's form")
        }
        // Key order is free, a null name is absent, extra inner keys are ignored, `\/` is `/`.
        XCTAssertEqual(PrivatePreference.decode(#"{"alias":{"name":null,"pubkey":"\#(g)","x":1}}"#), .alias(pubkey: g, name: nil))
        XCTAssertEqual(PrivatePreference.decode(#"{"alias":{"pubkey":"\#(g)","name":"a\/b"}}"#), .alias(pubkey: g, name: "a/b"))
    }

    func testMalformedPreferencesAreRefused() {
        for text in [#"{"alias":{"pubkey":"\#(g)"},"archive":{"sessionID":"x","archived":true}}"#,  // two keys
                     #"{"theme":{"name":"dark"}}"#, #"{"alias":{"name":"Bob"}}"#, #"{"archive":{"sessionID":"x","archived":"yes"}}"#,
                     #"{"archive":{"sessionID":"x"}}"#, #"{"alias":{"pubkey":"\#(g)","name":5}}"#, "[]", "null", "not json", ""] {
            XCTAssertNil(PrivatePreference.decode(text), text)
        }
        XCTAssertFalse(PrivatePreference.alias(pubkey: g.uppercased(), name: nil).isValid, "not the normalized form")
        XCTAssertFalse(PrivatePreference.alias(pubkey: g, name: "   ").isValid)
        XCTAssertFalse(PrivatePreference.archive(sessionID: " \(sid)", archived: true).isValid)
        XCTAssertFalse(PrivatePreference.archive(sessionID: "", archived: true).isValid)
        XCTAssertTrue(PrivatePreference.alias(pubkey: g, name: " Bob ").isValid, "stored untrimmed")
    }

    func testOnlyOurOwnValidEventsOpen() throws {
        let p = PrivatePreference.archive(sessionID: sid, archived: true)
        let event = try p.event(secretKey: one, createdAt: 100)
        XCTAssertEqual(event.kind, 30078)
        XCTAssertEqual(event.tags, [["d", PrivatePreference.dTag(for: p.key, secretKey: one)]])
        XCTAssertEqual(PrivatePreference.open(event, secretKey: one), p)
        // Someone else's key cannot open it; a `d` that does not match the content is refused.
        XCTAssertNil(PrivatePreference.open(event, secretKey: SecretKey.generate()))
        let wrongD = UnsignedEvent(pubkey: one.publicKey, createdAt: 100, kind: 30078,
                                   tags: [["d", PrivatePreference.dTag(for: "archive:OTHER", secretKey: one)]], content: event.content).signed(with: one)
        XCTAssertNil(PrivatePreference.open(wrongD, secretKey: one))
        let otherApp = UnsignedEvent(pubkey: one.publicKey, createdAt: 100, kind: 30078, tags: [["d", "someapp/settings"]], content: event.content).signed(with: one)
        XCTAssertNil(PrivatePreference.open(otherApp, secretKey: one))
        let forged = NostrEvent(id: event.id, pubkey: event.pubkey, createdAt: 101, kind: event.kind, tags: event.tags, content: event.content, sig: event.sig)
        XCTAssertNil(PrivatePreference.open(forged, secretKey: one), "a changed event no longer matches its id")
        let garbage = UnsignedEvent(pubkey: one.publicKey, createdAt: 100, kind: 30078, tags: event.tags, content: "AgAAAA==").signed(with: one)
        XCTAssertNil(PrivatePreference.open(garbage, secretKey: one))
        // Each refusal has its reason.
        XCTAssertEqual(PrivatePreference.check(wrongD, secretKey: one), .failure(.dTagMismatch))
        XCTAssertEqual(PrivatePreference.check(otherApp, secretKey: one), .failure(.otherApp))
        XCTAssertEqual(PrivatePreference.check(forged, secretKey: one), .failure(.invalidEvent))
        XCTAssertEqual(PrivatePreference.check(garbage, secretKey: one), .failure(.undecryptable))
        XCTAssertEqual(PrivatePreference.check(event, secretKey: SecretKey.generate()), .failure(.notOurs))
        let conversation = try NIP44.conversationKey(secretKey: one, publicKey: one.publicKey)
        func sealed(_ text: String) throws -> NostrEvent {
            UnsignedEvent(pubkey: one.publicKey, createdAt: 100, kind: 30078, tags: event.tags,
                          content: try NIP44.encrypt(text, conversationKey: conversation)).signed(with: one)
        }
        XCTAssertEqual(PrivatePreference.check(try sealed(#"{"theme":{}}"#), secretKey: one), .failure(.malformed))
        XCTAssertEqual(PrivatePreference.check(try sealed(#"{"archive":{"sessionID":" x","archived":true}}"#), secretKey: one), .failure(.invalidValue))
    }

    func testTheConflictRuleKeepsTheLowestIdWithinASecond() {
        let stored = LWWStamp(createdAt: 100, eventID: "b")
        XCTAssertTrue(PrivatePreference.shouldApply(LWWStamp(createdAt: 100, eventID: "a"), over: stored))
        XCTAssertFalse(PrivatePreference.shouldApply(LWWStamp(createdAt: 100, eventID: "c"), over: stored))
        XCTAssertTrue(PrivatePreference.shouldApply(stored, over: stored), "a replay applies again")
        XCTAssertTrue(PrivatePreference.shouldApply(LWWStamp(createdAt: 101, eventID: "z"), over: stored))
        XCTAssertEqual(PrivatePreference.publicationTime(now: 50, after: stored), 101)
    }
}
