import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// The scenarios the iOS test suite names (wire document §11), and the corrections of §14/§15.
final class IngestScenarioTests: XCTestCase {
    typealias F = MessageFactory
    let me = F.me, alice = F.alice, bob = F.bob, carol = F.carol, mallory = F.mallory
    let sid = "3F2504E04F8911D39A0C0305E82C3301"

    func state(_ messages: [InboundMessage], restoringHistory: Bool = false) -> AccountState {
        var s = AccountState(me: me)
        for m in messages { _ = try! s.ingest(m, restoringHistory: restoringHistory) }
        return s
    }

    // MARK: sessions and snapshots

    func testSessionCreateNeedsSenderAndSelfInMembers() throws {
        var s = AccountState(me: me)
        XCTAssertEqual(try s.ingest(F.create(sid, by: alice, members: [me, bob], at: 10)).outcome, .ignored(.senderNotInMembers))
        XCTAssertEqual(try s.ingest(F.create(sid, by: alice, members: [alice, bob], at: 10)).outcome, .ignored(.selfNotInMembers))
        XCTAssertEqual(try s.ingest(F.create(sid, by: alice, members: [alice, me], at: 10)).outcome, .applied)
        XCTAssertEqual(s.sessionSummaries().map(\.name), ["Film club"])
        XCTAssertEqual(s.summary(of: sid)?.creator, alice)
    }

    /// wire-2026 §2: the creator renames with `session_members`; the snapshot that wins the ordering
    /// (newer second, then the greater rumor id) names the session, in any arrival order; a blank name
    /// keeps the old one; an older `session_create` cannot rename backwards; members stay.
    func testRenameFollowsTheWinningSnapshotInAnyOrder() throws {
        let create = F.create(sid, by: alice, members: [alice, me], at: 2000, name: "Current Name")
        let winning = F.members(sid, by: alice, members: [alice, me], at: 2010, name: "Winning Rename", id: "session-members-z")
        let losing = F.members(sid, by: alice, members: [alice, me], at: 2010, name: "Losing Rename", id: "session-members-a")
        let blank = F.members(sid, by: alice, members: [alice, me], at: 2020, name: "   ", id: "session-members-blank")
        let oldCreate = F.create(sid, by: alice, members: [alice, me], at: 1990, name: "Ancient Name", id: "create-old")
        let stranger = F.members(sid, by: bob, members: [bob, me], at: 2030, name: "Hijacked", id: "session-members-bob")
        for order in [[create, winning, losing, blank, oldCreate, stranger], [stranger, blank, losing, oldCreate, winning, create],
                      [losing, create, stranger, winning, oldCreate, blank]] {
            let st = state(order)
            XCTAssertEqual(st.summary(of: sid)?.name, "Winning Rename", "\(order.map(\.rumorID))")
            XCTAssertEqual(Set(st.summary(of: sid)?.members ?? []), [alice, me])
        }
        // Our rename as the planner builds it: the unchanged member list, to the members.
        var mine = state([F.create(sid, by: me, members: [me, bob], at: 10)])
        let record = try XCTUnwrap(mine.session(sid))
        let rumor = try OutboundPlanner.renameSession(session: record, me: me, name: "  weekend links ", now: 20, random: SeededRandom(seed: 1)).get()
        XCTAssertEqual(rumor.payload.kind, .sessionMembers)
        XCTAssertEqual(rumor.payload.sessionName, "weekend links")
        XCTAssertEqual(rumor.payload.memberPubkeys, [me, bob])
        XCTAssertEqual(Set(rumor.recipients), [me, bob])
        // Renamed in the second the session was created: one second later, so it wins whatever its id.
        let sameSecond = try OutboundPlanner.renameSession(session: record, me: me, name: "quick", now: 10, random: SeededRandom(seed: 2)).get()
        XCTAssertEqual(sameSecond.createdAt, 11)
        XCTAssertEqual(sameSecond.payload.timestamp, 11)
        _ = try mine.ingest(F.message(rumor.payload, by: me, at: 20, id: "rename-1"))
        XCTAssertEqual(mine.summary(of: sid)?.name, "weekend links")
        XCTAssertEqual(OutboundPlanner.renameSession(session: record, me: me, name: " ", now: 20, random: SeededRandom(seed: 1)).failureDescription,
                       SendRuleError.enterSessionName.description)
        let theirs = try XCTUnwrap(state([create]).session(sid))
        XCTAssertEqual(OutboundPlanner.renameSession(session: theirs, me: me, name: "x", now: 20, random: SeededRandom(seed: 1)).failureDescription,
                       "only the session creator can manage this session.", "the iOS wording (wire 2026 §2)")
    }

    func testNonCreatorSnapshotsAreIgnored() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        let r = try s.ingest(F.members(sid, by: bob, members: [bob, me], at: 20))
        XCTAssertEqual(r.outcome, .ignored(.nonCreator))
        XCTAssertEqual(s.summary(of: sid)?.members, [alice, me, bob])
        // A later session_create from someone else does not steal the session either.
        XCTAssertEqual(try s.ingest(F.create(sid, by: bob, members: [bob, me], at: 30, name: "Mine now")).outcome, .ignored(.nonCreator))
        XCTAssertEqual(s.summary(of: sid)?.name, "Film club")
    }

    func testSnapshotBeforeCreateIsStagedThenApplied() throws {
        var s = AccountState(me: me)
        XCTAssertEqual(try s.ingest(F.members(sid, by: alice, members: [alice, me, bob], at: 20)).outcome, .pending(.sessionUnknown))
        XCTAssertTrue(s.sessionSummaries().isEmpty)
        XCTAssertEqual(try s.ingest(F.create(sid, by: alice, members: [alice, me], at: 10)).outcome, .applied)
        XCTAssertEqual(s.summary(of: sid)?.members, [alice, me, bob], "the newer snapshot wins once the session exists")
    }

    func testSessionMembersBootstrapsAnUnknownSessionWhenItNamesUsAndCarriesAName() throws {
        var s = AccountState(me: me)
        XCTAssertEqual(try s.ingest(F.members(sid, by: alice, members: [alice, bob, me], at: 20)).outcome, .pending(.sessionUnknown),
                       "no name (iOS HEAD): cannot bootstrap")
        XCTAssertEqual(try s.ingest(F.members(sid, by: alice, members: [alice, bob, me], at: 21, name: "Late joiners")).outcome, .applied)
        XCTAssertEqual(s.summary(of: sid)?.name, "Late joiners")
        XCTAssertEqual(s.summary(of: sid)?.creator, alice)
    }

    func testMembershipSnapshotUsesEventIDTiebreakForEqualTimestamp() throws {
        let create = F.create(sid, by: alice, members: [alice, me], at: 10)
        let a = F.members(sid, by: alice, members: [alice, me, bob], at: 20, id: String(repeating: "1", count: 64))
        let z = F.members(sid, by: alice, members: [alice, me, carol], at: 20, id: String(repeating: "f", count: 64))
        XCTAssertEqual(state([create, a, z]).summary(of: sid)?.members, [alice, me, carol])
        XCTAssertEqual(state([create, z, a]).summary(of: sid)?.members, [alice, me, carol], "the greater id wins whatever the order")
    }

    func testRenamesAreOrderedByTime() throws {
        let first = F.create(sid, by: alice, members: [alice, me], at: 10, name: "Old")
        let rename = F.members(sid, by: alice, members: [alice, me], at: 30, name: "New")
        let lateOldCreate = F.create(sid, by: alice, members: [alice, me], at: 20, name: "Middle")
        XCTAssertEqual(state([first, rename, lateOldCreate]).summary(of: sid)?.name, "New", "iOS HEAD would rename back (§14.8)")
    }

    // MARK: the membership gate

    func testMembershipWindows() throws {
        let msgs = [F.create(sid, by: alice, members: [alice, me, bob], at: 1_010),
                    F.members(sid, by: alice, members: [alice, me], at: 1_020),
                    F.members(sid, by: alice, members: [alice, me, bob], at: 1_030)]
        var s = state(msgs)
        XCTAssertEqual(try s.ingest(F.root(sid, by: bob, at: 1_015)).outcome, .applied, "inside [1010, 1020)")
        XCTAssertEqual(try s.ingest(F.root(sid, by: bob, at: 1_025)).outcome, .pending(.membership), "removed during [1020, 1030)")
        XCTAssertEqual(try s.ingest(F.root(sid, by: bob, at: 1_030)).outcome, .applied, "re-added at 1030 (start inclusive)")
        XCTAssertEqual(try s.ingest(F.root(sid, by: bob, at: 409)).outcome, .pending(.membership), "over ten minutes before the session")
        XCTAssertEqual(try s.ingest(F.root(sid, by: carol, at: 1_035)).outcome, .pending(.membership), "never a member")
    }

    /// Issue 53 (2): a post, reaction or reply dated up to ten minutes before its sender's first membership
    /// began (a phone's clock a few seconds slow) is placed in time order; a removal stays exact, even
    /// just before a re-add; the result does not depend on the order things arrive in.
    func testASlowClockBeforeAFirstMembershipIsForgivenForTenMinutes() throws {
        let create = F.create(sid, by: alice, members: [alice, me, bob], at: 10_000)
        let addCarol = F.members(sid, by: alice, members: [alice, me, bob, carol], at: 20_000)
        let removeBob = F.members(sid, by: alice, members: [alice, me, carol], at: 30_000)
        let readdBob = F.members(sid, by: alice, members: [alice, me, bob, carol], at: 30_100)
        let slow = F.root(sid, by: bob, at: 9_995, url: "https://example.com/slow", id: "P-slow")
        let edge = F.root(sid, by: bob, at: 9_400, url: "https://example.com/edge", id: "P-edge")
        let early = F.root(sid, by: bob, at: 9_399, url: "https://example.com/early", id: "P-early")
        let carolsFirst = F.root(sid, by: carol, at: 19_990, url: "https://example.com/carol", id: "P-carol")
        let reaction = F.reaction(sid, post: "P-slow", by: carol, at: 19_991)
        let betweenRemovalAndReadd = F.root(sid, by: bob, at: 30_050, url: "https://example.com/gap", id: "P-gap")
        let all = [create, addCarol, removeBob, readdBob, slow, edge, early, carolsFirst, reaction, betweenRemovalAndReadd]
        for order in [all, Array(all.reversed()), [slow, reaction, carolsFirst, early, edge, betweenRemovalAndReadd, readdBob, removeBob, addCarol, create]] {
            let s = state(order)
            XCTAssertEqual(s.postViews(in: sid).map(\.id), ["P-carol", "P-slow", "P-edge"], "in time order (newest first), whatever the order they came in")
            XCTAssertEqual(s.reactionSummaries(postID: "P-slow").map(\.emoji), ["👍"])
        }
        var s = state([create])
        XCTAssertEqual(try s.ingest(slow).outcome, .applied)
        XCTAssertEqual(try s.ingest(early).outcome, .pending(.membership), "more than ten minutes early")
        // Live: dated and received a moment before the snapshot that adds its author.
        XCTAssertEqual(try s.ingest(F.root(sid, by: carol, at: 19_995, id: "P-live", source: .live, receivedAt: 19_996)).outcome, .pending(.membership))
        XCTAssertEqual(try s.ingest(addCarol).outcome, .applied)
        XCTAssertTrue(s.postViews(in: sid).map(\.id).contains("P-live"), "released when the snapshot that adds her comes")
    }

    func testBackdatedLiveEventsFromRemovedMembersAreRejected() throws {
        let msgs = [F.create(sid, by: alice, members: [alice, me, bob], at: 10), F.members(sid, by: alice, members: [alice, me], at: 20)]
        var s = state(msgs)
        // Bob, removed at 20, sends at 100 a post dated 15 (when he was a member).
        let backdated = F.root(sid, by: bob, at: 15, source: .live, receivedAt: 100)
        XCTAssertEqual(try s.ingest(backdated).outcome, .pending(.membership))
        XCTAssertTrue(s.postViews(in: sid).isEmpty)
        // The same post from backfill restores, as on iOS: history from since-removed members is kept.
        var restored = state(msgs)
        XCTAssertEqual(try restored.ingest(F.root(sid, by: bob, at: 15, source: .historical)).outcome, .applied)
        // And a genuinely live post from a current member passes.
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 99, source: .live, receivedAt: 100)).outcome, .applied)
    }

    func testAPostAcceptedUnderPartialKnowledgeIsStagedAgainWhenALateSnapshotShowsItsAuthorWasOut() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        XCTAssertEqual(try s.ingest(F.root(sid, by: bob, at: 25)).outcome, .applied)
        XCTAssertEqual(s.postViews(in: sid).count, 1)
        _ = try s.ingest(F.members(sid, by: alice, members: [alice, me], at: 20))
        XCTAssertTrue(s.postViews(in: sid).isEmpty, "bob was not a member at 25")
        _ = try s.ingest(F.members(sid, by: alice, members: [alice, me, bob], at: 22))
        XCTAssertEqual(s.postViews(in: sid).count, 1, "a snapshot at 22 re-adds him before 25")
    }

    func testRemovedSelfKeepsHistoryAndBecomesReadOnly() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me], at: 10), F.root(sid, by: alice, at: 15)])
        _ = try s.ingest(F.members(sid, by: alice, members: [alice], at: 20))
        XCTAssertEqual(s.postViews(in: sid).count, 1)
        XCTAssertEqual(s.summary(of: sid)?.isMember, false)
        XCTAssertEqual(OutboundPlanner.post(session: s.session(sid), me: me, url: "https://a.b", note: nil, now: 30), .failure(.message("you're no longer a member of this session.")))
    }

    // MARK: roots

    func testMismatchedRootIDIsIgnored() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me], at: 10)])
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 15, id: F.id("x"), rootID: F.id("y"))).outcome, .ignored(.rootIDMismatch))
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 16, id: F.id("z"), rootID: F.id("z"))).outcome, .applied, "a matching root_id is fine")
    }

    func testDuplicateRootsMergeWrapIDs() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me], at: 10)])
        let id = F.id("post")
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 15, id: id, wrap: "w1")).outcome, .applied)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 15, id: id, wrap: "w2")).outcome, .duplicate)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 15, id: id, wrap: "w1")).outcome, .duplicate)
        XCTAssertEqual(s.postViews(in: sid).count, 1)
        XCTAssertEqual(s.posts[id]?.wrapIDs, ["w1", "w2"])
    }

    func testRootBeforeSessionIsStagedAndAppliedWhenTheSessionArrives() throws {
        var s = AccountState(me: me)
        let root = F.root(sid, by: alice, at: 15)
        XCTAssertEqual(try s.ingest(root).outcome, .pending(.sessionUnknown))
        let report = try s.ingest(F.create(sid, by: alice, members: [alice, me], at: 10))
        XCTAssertEqual(report.outcome, .applied)
        XCTAssertEqual(s.postViews(in: sid).map(\.id), [root.rumorID])
        XCTAssertEqual(report.touchedSessions, [sid])
    }

    // MARK: reactions

    func testReactionBeforeRootIsStagedThenApplied() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        let root = F.root(sid, by: alice, at: 15)
        XCTAssertEqual(try s.ingest(F.reaction(sid, post: root.rumorID, by: bob, at: 16)).outcome, .pending(.rootMissing))
        _ = try s.ingest(root)
        XCTAssertEqual(s.postView(root.rumorID)?.reactions, [ReactionSummary(emoji: "👍", count: 1, mine: false, by: [bob])])
    }

    func testReactionStateUsesEventIDTiebreakForEqualTimestamp() throws {
        let root = F.root(sid, by: alice, at: 15)
        let base = [F.create(sid, by: alice, members: [alice, me, bob], at: 10), root]
        let on = F.reaction(sid, post: root.rumorID, by: bob, active: true, at: 20, id: String(repeating: "1", count: 64))
        let off = F.reaction(sid, post: root.rumorID, by: bob, active: false, at: 20, id: String(repeating: "f", count: 64))
        XCTAssertEqual(state(base + [on, off]).postView(root.rumorID)?.reactions, [])
        XCTAssertEqual(state(base + [off, on]).postView(root.rumorID)?.reactions, [], "the greater id (off) wins either way")
        let later = F.reaction(sid, post: root.rumorID, by: bob, active: true, at: 21)
        XCTAssertEqual(state(base + [later, off, on]).postView(root.rumorID)?.reactions.first?.count, 1, "newer wins")
    }

    func testReactionsAreKeyedBySessionPostEmojiAndSender() throws {
        let root = F.root(sid, by: alice, at: 15)
        let s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10), root,
                       F.reaction(sid, post: root.rumorID, by: bob, emoji: "👍", at: 16),
                       F.reaction(sid, post: root.rumorID, by: me, emoji: "👍", at: 17),
                       F.reaction(sid, post: root.rumorID, by: bob, emoji: "👀", at: 18),
                       F.reaction(sid, post: root.rumorID, by: alice, emoji: "👀", active: false, at: 19)])
        XCTAssertEqual(s.postView(root.rumorID)?.reactions, [
            ReactionSummary(emoji: "👍", count: 2, mine: true, by: [me, bob].sorted()),
            ReactionSummary(emoji: "👀", count: 1, mine: false, by: [bob]),
        ])
        XCTAssertTrue(s.isMyReactionActive(postID: root.rumorID, emoji: "👍"))
    }

    // MARK: deletes

    func testDeleteBeforeRootLeavesATombstoneThatBlocksTheRoot() throws {
        let root = F.root(sid, by: alice, at: 15)
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        XCTAssertEqual(try s.ingest(F.delete(sid, post: root.rumorID, by: alice, at: 20)).outcome, .pending(.rootMissing))
        XCTAssertEqual(try s.ingest(F.reaction(sid, post: root.rumorID, by: bob, at: 16)).outcome, .pending(.rootMissing))
        XCTAssertEqual(try s.ingest(root).outcome, .ignored(.postDeleted))
        XCTAssertTrue(s.postViews(in: sid).isEmpty)
        XCTAssertTrue(s.reactions.isEmpty, "the validated delete also dropped the staged reaction")
        XCTAssertEqual(try s.ingest(root).outcome, .ignored(.postDeleted), "backfill never resurrects it")
        XCTAssertEqual(try s.ingest(F.reaction(sid, post: root.rumorID, by: bob, at: 30)).outcome, .ignored(.postDeleted))
    }

    func testMismatchedDeleterIsIgnored() throws {
        let root = F.root(sid, by: alice, at: 15)
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10), root,
                       F.reaction(sid, post: root.rumorID, by: bob, at: 16)])
        XCTAssertEqual(try s.ingest(F.delete(sid, post: root.rumorID, by: bob, at: 20)).outcome, .ignored(.deleterMismatch))
        XCTAssertEqual(s.postViews(in: sid).count, 1)
        XCTAssertEqual(s.postView(root.rumorID)?.reactions.count, 1)
    }

    func testMismatchedDeleteBeforeRootDoesNotClearStagedReactions() throws {
        let root = F.root(sid, by: alice, at: 15)
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        XCTAssertEqual(try s.ingest(F.delete(sid, post: root.rumorID, by: mallory, at: 20)).outcome, .pending(.rootMissing))
        _ = try s.ingest(F.reaction(sid, post: root.rumorID, by: bob, at: 16))
        XCTAssertEqual(try s.ingest(root).outcome, .applied)
        XCTAssertEqual(s.postView(root.rumorID)?.reactions.count, 1)
        XCTAssertTrue(s.tombstones.isEmpty, "a notice that can never match is discarded")
    }

    func testDeleteAfterRootRemovesPostAndReactions() throws {
        let root = F.root(sid, by: alice, at: 15)
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10), root, F.reaction(sid, post: root.rumorID, by: bob, at: 16)])
        let report = try s.ingest(F.delete(sid, post: root.rumorID, by: alice, at: 20))
        XCTAssertEqual(report.outcome, .applied)
        XCTAssertEqual(report.touchedSessions, [sid])
        XCTAssertNil(s.post(root.rumorID))
        XCTAssertTrue(s.postViews(in: sid).isEmpty)
        XCTAssertTrue(s.reactions.isEmpty)
        XCTAssertEqual(s.tombstones.values.first?.validated, true)
    }

    func testSessionDeleteFromCreatorOnly() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10), F.root(sid, by: bob, at: 15)])
        XCTAssertEqual(try s.ingest(F.sessionDelete(sid, by: bob, at: 20)).outcome, .ignored(.nonCreator))
        XCTAssertEqual(s.sessionSummaries().count, 1)
        XCTAssertEqual(try s.ingest(F.sessionDelete(sid, by: alice, at: 21)).outcome, .applied)
        XCTAssertTrue(s.sessionSummaries().isEmpty)
        XCTAssertTrue(s.postViews(in: sid).isEmpty)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 30)).outcome, .ignored(.sessionDeleted))
    }

    /// Wire 2026 §1.4: our own delete of our own session purges its content for good (our create makes us
    /// the creator for good, so nothing can undo it); content that comes later is dropped, not kept.
    /// Another creator's delete hides the content (sealed) instead: a create dated earlier from someone
    /// else would make them the creator, and the content must then still be there.
    func testOurDeleteOfOurSessionPurgesItsContentOthersHideIt() throws {
        let post = F.root(sid, by: alice, at: 15), gone = F.root(sid, by: alice, at: 17, url: "https://example.com/gone")
        var s = state([F.create(sid, by: me, members: [me, alice], at: 10), post, F.reaction(sid, post: post.rumorID, by: me, at: 16),
                       gone, F.delete(sid, post: gone.rumorID, by: alice, at: 18), F.delete(sid, post: "not-here-yet", by: alice, at: 18)])
        XCTAssertEqual(s.tombstones.count, 2)
        XCTAssertEqual(try s.ingest(F.sessionDelete(sid, by: me, at: 20)).outcome, .applied)
        XCTAssertTrue(s.session(sid)!.derived.deletedForGood)
        XCTAssertNil(s.post(post.rumorID), "purged, not kept hidden")
        XCTAssertTrue(s.reactions.isEmpty)
        XCTAssertTrue(s.tombstones.isEmpty, "its post tombstones go too (wire 2026 §1.4)")
        XCTAssertEqual(try s.ingest(F.delete(sid, post: "later", by: alice, at: 25)).outcome, .ignored(.sessionDeleted))
        XCTAssertTrue(s.tombstones.isEmpty)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 30)).outcome, .ignored(.sessionDeleted))
        XCTAssertTrue(s.posts.isEmpty, "what comes later is dropped")

        let theirs = F.root("T", by: bob, at: 15)
        var t = state([F.create("T", by: alice, members: [alice, me, bob], at: 10), theirs, F.sessionDelete("T", by: alice, at: 20)])
        XCTAssertFalse(t.session("T")!.derived.deletedForGood)
        XCTAssertNotNil(t.post(theirs.rumorID), "hidden, kept sealed")
        // A create dated earlier by bob makes bob the creator: alice's delete no longer counts.
        _ = try t.ingest(F.create("T", by: bob, members: [bob, me], at: 5))
        XCTAssertEqual(t.postViews(in: "T").map(\.post.id), [theirs.rumorID])
    }

    func testASessionDeleteWithoutAnOperationIdIsInvalid() {
        XCTAssertThrowsError(try LinkstrPayload(conversationID: sid, rootID: "  ", kind: .sessionDelete, timestamp: 1).validated())
        XCTAssertNoThrow(try LinkstrPayload(conversationID: sid, rootID: "9B1DEB4D3B7D4BAD9BDD2B0D7B3DCB6D", kind: .sessionDelete, timestamp: 1).validated())
    }

    // MARK: unread, notifications, history restore

    func testUnreadPerInboundRootNeverFromReactions() throws {
        let mine = F.root(sid, by: me, at: 15)
        let theirs = F.root(sid, by: alice, at: 16)
        var s = state([F.create(sid, by: alice, members: [alice, me], at: 10), mine, theirs, F.reaction(sid, post: mine.rumorID, by: alice, at: 17)])
        XCTAssertEqual(s.postViews(in: sid).map(\.unread), [true, false])
        XCTAssertEqual(s.summary(of: sid)?.unread, true)
        s.markRead(postID: theirs.rumorID, at: 50)
        XCTAssertEqual(s.summary(of: sid)?.unread, false)
        _ = try s.ingest(F.reaction(sid, post: mine.rumorID, by: alice, emoji: "👀", at: 18))
        XCTAssertEqual(s.summary(of: sid)?.unread, false, "reactions never make a session unread")
    }

    func testOpeningASessionMarksItsPostsRead() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me], at: 10), F.root(sid, by: alice, at: 15), F.root(sid, by: alice, at: 16)])
        s.markSessionRead(sid, at: 20)
        XCTAssertEqual(s.postViews(in: sid).filter(\.unread).count, 0)
        XCTAssertFalse(s.summary(of: sid)!.unread)
    }

    func testHistoryRestoredIntoAnEmptyStoreArrivesRead() throws {
        let s = state([F.create(sid, by: alice, members: [alice, me], at: 10), F.root(sid, by: alice, at: 15)], restoringHistory: true)
        XCTAssertEqual(s.postViews(in: sid).first?.unread, false)
        XCTAssertEqual(s.summary(of: sid)?.unread, false)
    }

    func testNotificationsOnlyForLiveInboundRootsAndActiveReactions() throws {
        var s = state([F.create(sid, by: alice, members: [alice, me, bob], at: 10)])
        let live = F.root(sid, by: alice, at: 100, source: .live, receivedAt: 100)
        XCTAssertEqual(try s.ingest(live).notifications, [.post(postID: live.rumorID, sessionID: sid, author: alice)])
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 101, source: .live, receivedAt: 101)).notifications.count, 1)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 50)).notifications, [], "backfill does not notify")
        XCTAssertEqual(try s.ingest(F.root(sid, by: me, at: 102, source: .live, receivedAt: 102)).notifications, [], "self echo")
        XCTAssertEqual(try s.ingest(F.reaction(sid, post: live.rumorID, by: bob, at: 103, source: .live, receivedAt: 103)).notifications,
                       [.reaction(reactionID: F.id("react-\(live.rumorID)-\(bob)-👍-true-103"), postID: live.rumorID, sessionID: sid, author: bob, emoji: "👍")])
        XCTAssertEqual(try s.ingest(F.reaction(sid, post: live.rumorID, by: bob, active: false, at: 104, source: .live, receivedAt: 104)).notifications, [],
                       "deactivations do not notify")
        s.setArchived(sid, true)
        XCTAssertEqual(try s.ingest(F.root(sid, by: alice, at: 105, source: .live, receivedAt: 105)).notifications, [], "archived sessions do not notify")
        XCTAssertTrue(s.sessionSummaries(archived: false).isEmpty)
        XCTAssertEqual(s.sessionSummaries(archived: true).count, 1, "new posts do not unarchive")
    }

    // MARK: follow list

    func testFollowListReplacesContactsKeepsAliasesAndUsesTheWatermark() throws {
        var s = AccountState(me: me)
        XCTAssertEqual(try s.ingestFollowList(author: alice, createdAt: 10, eventID: "x", tags: [["p", bob]]), .notFromSelf)
        XCTAssertEqual(try s.ingestFollowList(author: me, createdAt: 10, eventID: "e1", tags: [["p", bob], ["p", carol], ["p", "junk"], ["e", alice]]), .applied)
        XCTAssertEqual(s.contactList.map(\.pubkey), [bob, carol])
        _ = try s.setAlias(bob, "Bobby")
        XCTAssertEqual(try s.ingestFollowList(author: me, createdAt: 20, eventID: "e2", tags: [["p", bob], ["p", alice]]), .applied)
        XCTAssertEqual(s.contactList, [Contact(pubkey: alice), Contact(pubkey: bob, alias: "Bobby")])
        XCTAssertEqual(try s.ingestFollowList(author: me, createdAt: 15, eventID: "old", tags: []), .stale)
        // NIP-01 (wire 2026 §7.1; the March rule was the reverse): equal time, the lower id wins.
        XCTAssertEqual(try s.ingestFollowList(author: me, createdAt: 20, eventID: "e3", tags: [["p", alice]]), .stale, "equal time, greater id loses")
        XCTAssertEqual(try s.ingestFollowList(author: me, createdAt: 20, eventID: "e1", tags: [["p", carol]]), .applied, "equal time, lower id wins")
        XCTAssertEqual(s.contactList.map(\.pubkey), [carol])
    }
}

private extension Result where Failure == DomainError {
    var failureDescription: String? { if case .failure(let e) = self { return e.description } else { return nil } }
}
