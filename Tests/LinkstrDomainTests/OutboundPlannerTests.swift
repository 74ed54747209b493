import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrDomain

/// Who receives what (wire document §6) and the send preconditions.
final class OutboundPlannerTests: XCTestCase {
    typealias F = MessageFactory
    let me = F.me, alice = F.alice, bob = F.bob, carol = F.carol
    let random = SeededRandom(seed: 1)

    func testCreateSessionGoesToEveryMemberSelfFirst() throws {
        XCTAssertEqual(OutboundPlanner.createSession(name: "  ", members: [], me: me, now: 1, random: random).map(\.sessionID),
                       .failure(.message("enter a session name.")))
        let new = try OutboundPlanner.createSession(name: " Film club ", members: [bob, "junk", bob.uppercased(), alice], me: me, now: 10, random: random).get()
        XCTAssertEqual(new.rumor.recipients, [me, bob, alice])
        XCTAssertEqual(new.rumor.payload.memberPubkeys, [me, bob, alice])
        XCTAssertEqual(new.rumor.payload.sessionName, "Film club")
        XCTAssertEqual(new.rumor.payload.kind, .sessionCreate)
        XCTAssertEqual(new.sessionID.count, 32)
        XCTAssertNotNil(try? new.rumor.payload.validated())
        let solo = try OutboundPlanner.createSession(name: "notes to self", members: [], me: me, now: 10, random: random).get()
        XCTAssertEqual(solo.rumor.recipients, [me])
    }

    private func session(createdBy creator: Pubkey, members: [Pubkey]) -> AccountState {
        var s = AccountState(me: me)
        _ = try! s.ingest(F.create("S", by: creator, members: members, at: 10))
        return s
    }

    func testEditMembersIsForTheCreatorAndReachesOldAndNewMembers() throws {
        XCTAssertEqual(OutboundPlanner.editMembers(session: session(createdBy: alice, members: [alice, me]).session("S"), me: me, members: [bob], now: 20, random: random),
                       .failure(.message("only the session creator can manage members.")))
        let s = session(createdBy: me, members: [me, alice, bob])
        let rumors = try OutboundPlanner.editMembers(session: s.session("S"), me: me, members: [alice, carol], now: 20, random: random).get()
        XCTAssertEqual(rumors.count, 2)
        XCTAssertEqual(rumors[0].payload.kind, .sessionMembers)
        XCTAssertEqual(rumors[0].payload.memberPubkeys, [me, alice, carol])
        XCTAssertEqual(rumors[0].payload.sessionName, "Film club", "the name rides along so added members can show the session")
        XCTAssertEqual(Set(rumors[0].recipients), Set([me, alice, bob, carol]), "old ∪ new: bob learns he was removed")
        XCTAssertEqual(rumors[1].payload.kind, .sessionCreate, "added members also get a session_create (older iOS builds need it)")
        XCTAssertEqual(rumors[1].recipients, [carol])
        XCTAssertEqual(rumors[1].payload.memberPubkeys, [me, alice, carol])
    }

    func testPostGoesToActiveMembersAndNeedsAValidURLAndMembership() throws {
        var s = session(createdBy: alice, members: [alice, me, bob])
        XCTAssertEqual(OutboundPlanner.post(session: s.session("S"), me: me, url: "mailto:x@y.z", note: nil, now: 20), .failure(.message("enter a valid url: a web address (http or https), such as https://example.com/page.")))
        let r = try OutboundPlanner.post(session: s.session("S"), me: me, url: "example.com/v", note: "  hi  ", now: 20).get()
        XCTAssertEqual(r.recipients, [me, alice, bob])
        XCTAssertEqual(r.payload.url, "https://example.com/v")
        XCTAssertEqual(r.payload.note, "hi")
        XCTAssertEqual(r.payload.rootID, "")
        XCTAssertNil(try OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b", note: "   ", now: 20).get().payload.note, "blank notes are omitted")
        _ = try s.ingest(F.members("S", by: alice, members: [alice, me], at: 30))
        XCTAssertEqual(try OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b", note: nil, now: 31).get().recipients, [me, alice], "removed members get nothing")
        _ = try s.ingest(F.members("S", by: alice, members: [alice], at: 40))
        XCTAssertEqual(OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b", note: nil, now: 41), .failure(.message("you're no longer a member of this session.")))
        XCTAssertEqual(OutboundPlanner.post(session: s.session("nope"), me: me, url: "https://a.b", note: nil, now: 41), .failure(SendRuleError.unknownSession))
    }

    func testReactionTogglesAndCarriesTheRootTag() throws {
        var s = session(createdBy: alice, members: [alice, me])
        let root = F.root("S", by: alice, at: 15)
        _ = try s.ingest(root)
        func react(_ postID: String) -> Result<OutboundRumor, DomainError> {
            OutboundPlanner.react(post: s.post(postID), session: s.session("S"), me: me, emoji: "👍",
                                  current: s.myReaction(postID: postID, emoji: "👍"), now: 21)
        }
        let on = try react(root.rumorID).get()
        XCTAssertEqual(on.payload.reactionActive, true)
        XCTAssertEqual(on.createdAt, 21)
        XCTAssertEqual(on.tags, [["e", root.rumorID, "", "root"]])
        XCTAssertEqual(on.recipients, [me, alice])
        _ = try s.ingest(on.localMessage(rumorID: "r1", wrapIDs: ["w"], me: me, now: 21))
        // Off in the same second: dated one second later, so it wins last-writer-wins on every device.
        let off = try react(root.rumorID).get()
        XCTAssertEqual(off.payload.reactionActive, false)
        XCTAssertEqual(off.createdAt, 22)
        XCTAssertEqual(off.payload.timestamp, 22)
        _ = try s.ingest(off.localMessage(rumorID: "r0", wrapIDs: ["w2"], me: me, now: 21))
        XCTAssertFalse(s.isMyReactionActive(postID: root.rumorID, emoji: "👍"), "the later one wins even with a smaller rumor id")
        XCTAssertEqual(react("missing"), .failure(SendRuleError.unknownPost))
    }

    func testDeleteIsForOwnPostsAndReachesFormerMembers() throws {
        var s = session(createdBy: me, members: [me, alice, bob])
        let mine = F.root("S", by: me, at: 15, wrap: "wrap-1")
        let theirs = F.root("S", by: alice, at: 16)
        _ = try s.ingest(mine)
        _ = try s.ingest(theirs)
        _ = try s.ingest(F.members("S", by: me, members: [me, alice], at: 20))
        XCTAssertEqual(OutboundPlanner.deletePost(post: s.post(theirs.rumorID), session: s.session("S"), me: me, now: 30), .failure(.message("you can only delete your own posts.")))
        let plan = try OutboundPlanner.deletePost(post: s.post(mine.rumorID), session: s.session("S"), me: me, now: 30).get()
        XCTAssertEqual(plan.deletionRequest?.kind, 5)
        XCTAssertEqual(plan.deletionRequest?.tags, [["e", "wrap-1"], ["k", "1059"]])
        XCTAssertEqual(plan.deletionRequest?.content, "linkstr post deletion request")
        XCTAssertEqual(Set(plan.notice.recipients), Set([me, alice, bob]), "bob was removed but had the post")
        XCTAssertEqual(plan.notice.payload.kind, .rootDelete)
        XCTAssertEqual(plan.notice.tags, [["e", mine.rumorID, "", "root"]])
    }

    func testPlainEventTemplates() throws {
        XCTAssertEqual(NostrEventTemplates.followList([carol, alice], now: 1).tags, [["p", alice], ["p", carol]])
        XCTAssertEqual(NostrEventTemplates.requestToVanish(relays: ["wss://b", " wss://a", "wss://b"], now: 1).tags, [["relay", "wss://a"], ["relay", "wss://b"]])
        XCTAssertEqual(NostrEventTemplates.requestToVanish(relays: [], now: 1).tags, [["relay", "ALL_RELAYS"]])
        XCTAssertEqual(NostrEventTemplates.profile(name: "Ann", existingContent: #"{"about":"x","name":"old"}"#, now: 1).content,
                       #"{"about":"x","display_name":"Ann","name":"Ann"}"#)
        XCTAssertEqual(NostrEventTemplates.profileName(fromContent: "{\"name\":\"  A\\u001b[2J  b \"}"), "A[2J b")
    }

    /// The envelope arithmetic matches real seals: one gift wrap carries the rumor exactly when the seal
    /// JSON computed here fits NIP-44, and what does not fit is refused with the field to shorten.
    func testMessageLimitsMatchRealSealsAndRefuseWhatCannotBeWrapped() throws {
        let sender = SecretKey.generate(), recipient = SecretKey.generate().publicKey
        for size in [1, 31, 32, 33, 200, 1_000, 20_000, 47_000] {
            let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1_700_000_000, kind: 44001, content: String(repeating: "x", count: size))
            let seal = try NIP59.seal(rumor: rumor, sender: sender, recipient: recipient, now: 1_700_000_000, random: SystemRandom())
            XCTAssertEqual(NIP59.sealJSONBytes(rumorJSONBytes: rumor.rumorJSON().utf8.count), seal.jsonString().utf8.count, "rumor content \(size)")
        }
        let s = session(createdBy: alice, members: [alice, me, bob])
        let note = String(repeating: "n", count: 100_000)
        guard case .failure(let why) = OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b", note: note, now: 1_700_000_000) else {
            return XCTFail("a 100 KB note was planned")
        }
        XCTAssertTrue(why.description.hasPrefix("the note is too long to send: 100,000 bytes, and one message carries "), why.description)
        let fitting = MessageLimits.fittingPrefixBytes(of: note, in: OutboundRumor(payload: LinkstrPayload(conversationID: "S", rootID: "", kind: .root, url: "https://a.b", note: note, timestamp: 1_700_000_000), tags: [], recipients: [me], createdAt: 1_700_000_000))
        XCTAssertGreaterThan(fitting, 40_000)
        let longest = try OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b", note: String(note.prefix(fitting)), now: 1_700_000_000).get()
        XCTAssertTrue(MessageLimits.fits(longest))
        // Real wrap of the longest note that fits opens again.
        let wrap = try NIP59.giftWrap(rumor: longest.rumor(author: sender.publicKey), sender: sender, recipient: recipient, now: 1_700_000_000, random: SystemRandom())
        XCTAssertGreaterThan(wrap.content.utf8.count, 60_000)
        XCTAssertEqual(OutboundPlanner.post(session: s.session("S"), me: me, url: "https://a.b/" + String(repeating: "p", count: 70_000), note: nil, now: 1_700_000_000).map(\.createdAt),
                       .failure(.message("the link is too long to send (70,012 bytes do not fit in one message).")))
        XCTAssertEqual(OutboundPlanner.createSession(name: String(repeating: "n", count: 70_000), members: [], me: me, now: 1_700_000_000, random: random).map(\.sessionID),
                       .failure(.message("the session name is too long to send (70,000 bytes do not fit in one message).")))
        XCTAssertNoThrow(try OutboundPlanner.createSession(name: String(repeating: "🎬", count: 150), members: [], me: me, now: 1_700_000_000, random: random).get())
    }
}
