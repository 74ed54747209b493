import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// Other people's profile names (kind 0): which events count, and how names are cleaned.
final class ProfileRuleTests: XCTestCase {
    typealias F = MessageFactory
    let bob = F.bob

    private func decide(kind: Int = 0, author: Pubkey? = nil, at: Int64 = 1_000, id: String = "bb", _ content: String,
                        current: LWWStamp? = nil, now: Int64 = 1_000) -> ProfileRule.Decision {
        ProfileRule.decide(kind: kind, author: author ?? bob, createdAt: at, eventID: id, content: content, known: [bob], current: current, now: now)
    }

    func testDisplayNameThenNameCleanedAndCapped() {
        XCTAssertEqual(decide(#"{"name":"bob","display_name":"Bob B."}"#), .apply(name: "Bob B.", stamp: LWWStamp(createdAt: 1_000, eventID: "bb")))
        XCTAssertEqual(decide(#"{"name":"bob","display_name":"  "}"#), .apply(name: "bob", stamp: LWWStamp(createdAt: 1_000, eventID: "bb")))
        XCTAssertEqual(decide(#"{"name":"Bob\u001b[2J\u001b]52;c;aGk=\u0007  \n Builder\u202e"}"#),
                       .apply(name: "Bob[2J]52;c;aGk= Builder", stamp: LWWStamp(createdAt: 1_000, eventID: "bb")))
        let long = String(repeating: "é", count: 200)
        XCTAssertEqual(decide(#"{"name":"\#(long)"}"#), .apply(name: String(repeating: "é", count: 80), stamp: LWWStamp(createdAt: 1_000, eventID: "bb")))
        // No usable name (or not JSON at all): applied as "no name", which clears an older one.
        for content in ["{}", #"{"name":5}"#, "not json", "[]", #"{"name":"\u0000\u001b"}"#] {
            XCTAssertEqual(decide(content), .apply(name: nil, stamp: LWWStamp(createdAt: 1_000, eventID: "bb")), content)
        }
    }

    func testOnlyNewerProfilesOfPeopleWeKnowCount() {
        XCTAssertEqual(decide(kind: 3, "{}"), .ignore(.notAProfile))
        XCTAssertEqual(decide(author: F.carol, #"{"name":"Carol"}"#), .ignore(.notSomeoneWeKnow))
        XCTAssertEqual(decide(at: 1_000 + 601, #"{"name":"Future"}"#), .ignore(.fromTheFuture))
        XCTAssertEqual(decide(at: 1_000 + 600, #"{"name":"Skewed"}"#), .apply(name: "Skewed", stamp: LWWStamp(createdAt: 1_600, eventID: "bb")))
        let stored = LWWStamp(createdAt: 1_000, eventID: "bb")
        XCTAssertEqual(decide(at: 999, id: "ff", #"{"name":"Old"}"#, current: stored), .ignore(.older))
        XCTAssertEqual(decide(#"{"name":"Same event again"}"#, current: stored), .ignore(.older))
        XCTAssertEqual(decide(id: "aa", #"{"name":"Smaller id"}"#, current: stored), .ignore(.older))
        XCTAssertEqual(decide(id: "cc", #"{"name":"Greater id"}"#, current: stored), .apply(name: "Greater id", stamp: LWWStamp(createdAt: 1_000, eventID: "cc")))
        XCTAssertEqual(decide(at: 1_001, id: "00", #"{"name":"Newer"}"#, current: stored), .apply(name: "Newer", stamp: LWWStamp(createdAt: 1_001, eventID: "00")))
    }

    func testWhoseProfilesWeAskFor() {
        let authors = ProfileRule.interestingAuthors(contacts: [Contact(pubkey: bob), Contact(pubkey: "not a key")],
                                                     sessionMembers: [[F.me, F.alice], [F.carol, F.alice]], me: F.me)
        XCTAssertEqual(authors, [bob, F.alice, F.carol])
    }
}
