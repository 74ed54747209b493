import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `.linkstrbackup` (wire 2026 §8): validation, restore through the ingest rules, export, the sealed form.
final class BackupTests: XCTestCase {
    typealias F = MessageFactory
    typealias B = IOSBackupFile
    let key = BackupTests.secret(7)
    var me: Pubkey { key.publicKey.hex }
    let bob = F.bob, carol = F.carol, dave = F.mallory
    let t0: Int64 = 1_700_000_000
    let url = "https://example.com/film"

    static func secret(_ n: Int) -> SecretKey { try! SecretKey(hex: String(repeating: "0", count: 62) + String(format: "%02x", n)) }

    func d(_ unix: Int64) -> Date { Date(unixSeconds: unix) }

    /// A session of ours with bob from t0, carol a member from t0+100 to t0+200; bob's session, archived;
    /// posts, a reaction, a deleted post, a contact with an alias.
    func sample() -> B {
        let s1 = B.Session(id: "S1", name: "Films", creator: me, createdAt: d(t0), updatedAt: d(t0 + 200), archived: false,
                           membershipDate: d(t0 + 200), membershipID: F.id("members-200"))
        let s2 = B.Session(id: "S2", name: "Bob's", creator: bob, createdAt: d(t0), updatedAt: d(t0), archived: true,
                           membershipDate: nil, membershipID: nil)
        return B(version: 1, createdAt: d(t0 + 1000), nsec: key.revealNsec(), owner: me,
                 settings: .init(loopLocalVideos: false, customRelays: true, relays: [.init(url: "ws://127.0.0.1:7777", enabled: true, createdAt: d(t0))]),
                 account: .init(followDate: d(t0 + 50), followID: F.id("follow"), followTags: try! JSONEncoder().encode([["p", bob], ["p", carol, "wss://hint"]]),
                                profileName: "me", profileContent: #"{"name":"me"}"#, profileDate: d(t0), profileID: F.id("profile"),
                                createdAt: d(t0), updatedAt: d(t0 + 1000)),
                 sessions: [s1, s2],
                 posts: [
                    .init(id: "P1", sessionID: "S1", sender: bob, receiver: me, url: url, note: "watch", timestamp: d(t0 + 10), archived: false,
                          readAt: d(t0 + 20), transportIDs: [F.id("w1")]),
                    .init(id: "P2", sessionID: "S1", sender: carol, receiver: me, url: url + "/2", note: nil, timestamp: d(t0 + 150), archived: false,
                          readAt: nil, transportIDs: []),
                    .init(id: "P3", sessionID: "S1", sender: me, receiver: me, url: url + "/3", note: nil, timestamp: d(t0 + 300), archived: false,
                          readAt: nil, transportIDs: [F.id("w3a"), F.id("w3b")]),
                    .init(id: "Q1", sessionID: "S2", sender: bob, receiver: me, url: url + "/q", note: nil, timestamp: d(t0 + 5), archived: false,
                          readAt: nil, transportIDs: []),
                 ],
                 members: [me, bob, carol].map { B.Member(sessionID: "S1", pubkey: $0, active: $0 != carol, createdAt: d(t0), updatedAt: d(t0 + 200)) }
                    + [me, bob].map { B.Member(sessionID: "S2", pubkey: $0, active: true, createdAt: d(t0), updatedAt: d(t0)) },
                 intervals: [.init(sessionID: "S1", pubkey: me, start: d(t0), end: nil), .init(sessionID: "S1", pubkey: bob, start: d(t0), end: nil),
                             .init(sessionID: "S1", pubkey: carol, start: d(t0 + 100), end: d(t0 + 200))],
                 reactions: [.init(sessionID: "S1", postID: "P3", pubkey: bob, emoji: "🔥", active: true, updatedAt: d(t0 + 310), eventID: F.id("r1"))],
                 deletions: [.init(sessionID: "S1", postID: "P9", pubkey: carol, updatedAt: d(t0 + 160), eventID: F.id("del9"))],
                 contacts: [.init(pubkey: bob, alias: "Bobby", createdAt: d(t0), profileName: "Robert", profileDate: d(t0), profileID: F.id("bobprofile")),
                            .init(pubkey: carol, alias: nil, createdAt: d(t0), profileName: nil, profileDate: nil, profileID: nil)],
                 follows: [], preferences: [])
    }

    func restored(_ file: B, into state: AccountState? = nil) throws -> (AccountState, BackupRestore.Outcome) {
        var s = state ?? AccountState(me: me)
        let outcome = try s.restore(try BackupValidation.validate(try file.encoded()), now: t0 + 2000)
        return (s, outcome)
    }

    // MARK: the format

    func testDatesAreSecondsSince2001AndDataIsBase64LikeTheIOSEncoder() throws {
        let json = String(decoding: try sample().encoded(), as: UTF8.self)
        // 1 700 000 000 (unix) is 721 692 800 seconds after 2001-01-01.
        XCTAssertTrue(json.contains(#""createdAt":721692800"#), json.prefix(300).description)
        XCTAssertTrue(json.contains(#""followTags":""#), "Data as a base64 string")
        XCTAssertFalse(json.contains("membershipID\":null"), "nil optionals are left out")
        let back = try B.decode(Data(json.utf8))
        XCTAssertEqual(back, sample())
        XCTAssertEqual(back.sessions[0].createdAt.unixSeconds, t0)
    }

    // MARK: restore

    func testRestoreGivesTheStateTheFileDescribes() throws {
        let (s, outcome) = try restored(sample())
        XCTAssertEqual(outcome.sessionsAdded, 2)
        XCTAssertEqual(outcome.postsAdded, 4)
        XCTAssertEqual(outcome.reactionsAdded, 1)
        XCTAssertEqual(s.summary(of: "S1")?.name, "Films")
        XCTAssertEqual(s.summary(of: "S1")?.creator, me)
        XCTAssertEqual(Set(s.summary(of: "S1")?.members ?? []), [me, bob])
        XCTAssertEqual(s.sessionSummaries().map(\.id), ["S1"], "S2 is archived, as the file says")
        XCTAssertEqual(s.sessionSummaries(archived: true).map(\.id), ["S2"])
        // Carol's post from while she was a member shows; the timeline came from the intervals.
        XCTAssertEqual(s.postViews(in: "S1").map(\.post.id), ["P3", "P2", "P1"])
        let derived = try XCTUnwrap(s.session("S1")).derived
        XCTAssertTrue(derived.isActive(carol, at: t0 + 150))
        XCTAssertFalse(derived.isActive(carol, at: t0 + 250))
        XCTAssertFalse(derived.isActive(carol, at: t0 + 50))
        XCTAssertEqual(derived.timeline.last?.rumorID, F.id("members-200"), "the winning snapshot keeps its id")
        // Read state, reactions, the wraps that carried a post.
        XCTAssertEqual(s.post("P1")?.readAt, t0 + 20)
        XCTAssertNil(s.post("P2")?.readAt)
        XCTAssertEqual(s.post("P3")?.wrapIDs, [F.id("w3a"), F.id("w3b")].sorted())
        XCTAssertEqual(s.reactionSummaries(postID: "P3").map(\.emoji), ["🔥"])
        // The tombstone waits for its post and wins when the post comes.
        var later = s
        XCTAssertEqual(try later.ingest(F.root("S1", by: carol, at: t0 + 160, id: "P9")).outcome, .ignored(.postDeleted))
        // Carol, removed at t0+200, cannot post live afterwards.
        XCTAssertEqual(try later.ingest(F.root("S1", by: carol, at: t0 + 260, source: .live)).outcome, .pending(.membership))
        // Contacts: the file's follow list, with its aliases.
        XCTAssertEqual(s.contacts(), [Contact(pubkey: bob, alias: "Bobby"), Contact(pubkey: carol)])
        XCTAssertEqual(s.followWatermark, LWWStamp(createdAt: t0 + 50, eventID: F.id("follow")))
        XCTAssertEqual(outcome.followTags, [["p", bob], ["p", carol, "wss://hint"]])
    }

    func testRestoreMergesWithWhatIsHereAndTwiceChangesNothingMore() throws {
        // Here already: the session (from relays), P1 read at another time, bob with a local alias, a newer follow list.
        var here = AccountState(me: me)
        _ = try here.ingest(F.create("S1", by: me, members: [me, bob], at: t0, name: "Films", id: F.id("real-create")))
        _ = try here.ingest(F.root("S1", by: bob, at: t0 + 10, url: url, note: "watch", id: "P1"))
        _ = try here.ingest(F.root("S1", by: bob, at: t0 + 12, url: url + "/local", id: "L1"))
        try here.setContacts([Contact(pubkey: bob, alias: "Local Bob"), Contact(pubkey: dave)], watermark: LWWStamp(createdAt: t0 + 60, eventID: F.id("newer")))
        var file = sample()
        file.sessions[0].archived = true
        file.posts[0].readAt = d(t0 + 20)
        let (s, outcome) = try restored(file, into: here)
        XCTAssertEqual(outcome.sessionsAdded, 1, "S2 only: S1 was here")
        XCTAssertEqual(s.session("S1")?.archived, false, "archive stays local for a session that was here")
        XCTAssertEqual(s.postViews(in: "S1").map(\.post.id), ["P3", "P2", "L1", "P1"], "both sides' posts")
        XCTAssertEqual(s.post("P1")?.readAt, t0 + 20, "unread here: the file's read time")
        XCTAssertEqual(s.contacts(), [Contact(pubkey: bob, alias: "Local Bob"), Contact(pubkey: dave)], "the newer list here wins; the local alias too")
        XCTAssertNil(outcome.followTags)
        // Again: nothing new.
        var again = s
        let second = try again.restore(try BackupValidation.validate(file), now: t0 + 3000)
        XCTAssertEqual(second.sessionsAdded, 0)
        XCTAssertEqual(second.postsAdded, 0)
        XCTAssertEqual(again, s)
    }

    func testAConflictRefusesTheWholeRestoreAndChangesNothing() throws {
        var here = AccountState(me: me)
        _ = try here.ingest(F.create("S1", by: dave, members: [dave, me], at: t0, name: "Films"))
        let before = here
        XCTAssertThrowsError(try restored(sample(), into: here)) { e in
            XCTAssertEqual(e as? BackupError, .conflict("session S1 has another creator here."))
            XCTAssertTrue("\(e)".hasSuffix("nothing was restored."))
        }
        XCTAssertEqual(here, before)

        var other = AccountState(me: me)
        _ = try other.ingest(F.create("S1", by: me, members: [me, bob], at: t0, name: "Films"))
        _ = try other.ingest(F.root("S1", by: bob, at: t0 + 10, url: url + "/different", id: "P1"))
        XCTAssertThrowsError(try restored(sample(), into: other)) { XCTAssertEqual($0 as? BackupError, .conflict("post P1 differs from the one here.")) }

        var forged = sample()
        forged.deletions = [.init(sessionID: "S1", postID: "P1", pubkey: carol, updatedAt: d(t0 + 30), eventID: F.id("x"))]
        XCTAssertThrowsError(try restored(forged)) { XCTAssertEqual($0 as? BackupError, .conflict("the deletion of post P1 is not from its author.")) }
        var hijack = sample()
        hijack.deletions = [.init(sessionID: "S2", postID: nil, pubkey: carol, updatedAt: d(t0 + 30), eventID: F.id("y"))]
        XCTAssertThrowsError(try restored(hijack)) { XCTAssertEqual($0 as? BackupError, .conflict("the deletion of session S2 is not from its creator.")) }
    }

    func testASessionTombstoneRemovesTheSessionAndWaitsWhenItIsNotHere() throws {
        var file = sample()
        file.deletions.append(.init(sessionID: "S2", postID: nil, pubkey: bob, updatedAt: d(t0 + 40), eventID: F.id("sdel")))
        file.deletions.append(.init(sessionID: "S7", postID: nil, pubkey: dave, updatedAt: d(t0 + 40), eventID: F.id("sdel7")))
        let (s, _) = try restored(file)
        XCTAssertNil(s.summary(of: "S2"))
        var later = s
        _ = try later.ingest(F.create("S7", by: dave, members: [dave, me], at: t0))
        XCTAssertNil(later.summary(of: "S7"), "the delete that came first applies when its session does")
    }

    // MARK: validation

    func testEveryBrokenRuleIsRefusedWithItsReason() throws {
        func refused(_ change: (inout B) -> Void, _ expected: String, line: UInt = #line) {
            var f = sample()
            change(&f)
            XCTAssertThrowsError(try BackupValidation.validate(try f.encoded()), line: line) { e in
                XCTAssertEqual("\(e)", expected, line: line)
            }
        }
        XCTAssertNoThrow(try BackupValidation.validate(try sample().encoded()))
        refused({ $0.version = 2 }, "update linkstr to restore this backup.")
        refused({ $0.owner = bob }, "invalid backup: owner is not the public key of nsec.")
        refused({ $0.nsec = "nsec1nope" }, "invalid backup: nsec is not a valid secret key.")
        refused({ $0.sessions.append($0.sessions[0]) }, "invalid backup: sessions[2].id appears twice.")
        refused({ $0.sessions[0].name = "  " }, "invalid backup: sessions[0].name is blank.")
        refused({ $0.sessions[0].id = " S1" }, "invalid backup: sessions[0].id has surrounding spaces.")
        refused({ $0.sessions[0].creator = bob.uppercased() }, "invalid backup: sessions[0].creator is not a public key in lowercase hex.")
        refused({ $0.sessions[1].id = String(repeating: "x", count: 1025) }, "invalid backup: sessions[1].id is longer than 1024 characters.")
        refused({ $0.posts[0].sessionID = "S9" }, "invalid backup: posts[0] belongs to a session the backup does not hold.")
        refused({ $0.posts[0].url = "HTTPS://example.com/ film" }, "invalid backup: posts[0].url is not a normalized web address.")
        refused({ $0.posts[0].url = "javascript:alert(1)" }, "invalid backup: posts[0].url is not a normalized web address.")
        refused({ $0.posts[1].id = "P1" }, "invalid backup: posts[1].id appears twice.")
        refused({ $0.intervals[2].end = self.d(self.t0 + 50) }, "invalid backup: intervals[2] ends before it starts.")
        refused({ $0.reactions[0].sessionID = "S2" }, "invalid backup: reactions[0] is about a post the backup does not hold in that session.")
        refused({ $0.reactions[0].emoji = " " }, "invalid backup: reactions[0].emoji is empty or too long.")
        refused({ $0.members.append($0.members[0]) }, "invalid backup: members[5] appears twice.")
        refused({ $0.settings.customRelays = false }, "invalid backup: relays are listed but customRelays is false.")
        refused({ $0.settings.relays[0].url = "wss://user:pw@relay.example" }, "invalid backup: settings.relays[0].url is not a ws:// or wss:// relay address.")
        refused({ $0.settings.relays[0].url = "https://relay.example" }, "invalid backup: settings.relays[0].url is not a ws:// or wss:// relay address.")
        refused({ $0.settings.relays = Array(repeating: $0.settings.relays[0], count: 101) }, "backup too large: 101 relays; a backup holds at most 100.")
        refused({ $0.account?.followTags = Data("{}".utf8) }, "invalid backup: account.followTags is not a JSON array of tags.")
        refused({ $0.contacts.append($0.contacts[0]) }, "invalid backup: contacts[2].pubkey appears twice.")
        refused({ $0.posts[0].timestamp = Date(timeIntervalSince1970: 1e15) }, "invalid backup: posts[0].timestamp holds a date outside 1970–9999.")
        refused({ $0.intervals += Array(repeating: $0.intervals[0], count: BackupLimits.records) },
                "backup too large: \(BackupLimits.records + 19) records; a backup holds at most \(BackupLimits.records).")
        // Preferences: forged, another account's, another app's, two for one key.
        let mine = try PrivatePreference.alias(pubkey: bob, name: "B").event(secretKey: key, createdAt: t0)
        let theirs = try PrivatePreference.alias(pubkey: bob, name: "B").event(secretKey: BackupTests.secret(9), createdAt: t0)
        let tampered = mine.jsonString().replacingOccurrences(of: "\"created_at\":\(t0)", with: "\"created_at\":\(t0 + 1)")
        XCTAssertNotEqual(tampered, mine.jsonString())
        refused({ $0.preferences = [.init(event: Data(theirs.jsonString().utf8), pending: false)] },
                "invalid backup: preferences[0] is refused: not a kind 30078 event of this account.")
        refused({ $0.preferences = [.init(event: Data(tampered.utf8), pending: false)] },
                "invalid backup: preferences[0] is refused: its id or signature is not valid.")
        refused({ $0.preferences = [.init(event: Data("[]".utf8), pending: false)] }, "invalid backup: preferences[0].event is not a Nostr event.")
        let again = try PrivatePreference.alias(pubkey: bob, name: "C").event(secretKey: key, createdAt: t0 + 1)
        refused({ $0.preferences = [.init(event: Data(mine.jsonString().utf8), pending: false), .init(event: Data(again.jsonString().utf8), pending: true)] },
                "invalid backup: preferences[1] is a second record for the same preference.")

        // Shape: missing keys (empty arrays are required too), wrong types, not JSON.
        func refusedJSON(_ mutate: (inout [String: Any]) -> Void, _ expected: String, line: UInt = #line) throws {
            var object = try JSONSerialization.jsonObject(with: try sample().encoded()) as! [String: Any]
            mutate(&object)
            XCTAssertThrowsError(try BackupValidation.validate(try JSONSerialization.data(withJSONObject: object)), line: line) {
                XCTAssertEqual("\($0)", expected, line: line)
            }
        }
        try refusedJSON({ $0["follows"] = nil }, "invalid backup: missing follows.")
        try refusedJSON({ $0["sessions"] = [["id": "S1"]] }, "invalid backup: missing sessions[0].name.")
        try refusedJSON({ $0["createdAt"] = "yesterday" }, "invalid backup: wrong type at createdAt.")
        try refusedJSON({ $0["version"] = nil }, "not a linkstr backup (no version).")
        XCTAssertThrowsError(try BackupValidation.validate(Data("PK\u{3}\u{4}".utf8))) { XCTAssertEqual("\($0)", "not a linkstr backup (no version).") }
    }

    /// Many short memberships beside many lasting ones would need a snapshot of everyone per change:
    /// refused once the history passes the budget, instead of growing without bound.
    func testAMembershipHistoryTooLargeToKeepIsRefused() throws {
        var file = sample()
        let lasting = (0..<200).map { String(format: "%064x", $0 + 1) }
        file.intervals += lasting.map { .init(sessionID: "S1", pubkey: $0, start: d(t0), end: nil) }
        file.intervals += (0..<6000).map { i in .init(sessionID: "S1", pubkey: String(format: "%064x", 10_000 + i), start: d(t0 + 1000 + Int64(i)), end: d(t0 + 1001 + Int64(i))) }
        XCTAssertThrowsError(try restored(file)) {
            XCTAssertEqual("\($0)", "backup too large: its membership history needs more than \(BackupRestore.memberEntryBudget) member entries.")
        }
    }

    func testHostileIdsAreQuotedOnOneLine() throws {
        var here = AccountState(me: me)
        let hostile = "S1\u{1b}]52;c;evil\u{7}\n" + String(repeating: "x", count: 100)
        _ = try here.ingest(F.create(hostile, by: dave, members: [dave, me], at: t0, name: "Films"))
        var file = sample()
        file.sessions[0].id = hostile
        file.posts = []; file.reactions = []; file.members = []; file.intervals = []
        XCTAssertThrowsError(try restored(file, into: here)) { e in
            let text = "\(e)"
            XCTAssertFalse(text.unicodeScalars.contains { $0.properties.generalCategory == .control }, text)
            XCTAssertLessThan(text.count, 200)
        }
    }

    // MARK: export

    func testExportThenRestoreGivesTheSameSessionsPostsReactionsAndContacts() throws {
        let (s, _) = try restored(sample())
        let contents = BackupExport.Contents(
            secretKey: key, accountCreatedAt: t0, sessions: Array(s.sessions.values), posts: s.posts.values.filter(\.status.isVisible),
            reactions: s.reactions.values.filter(\.status.isVisible), tombstones: Array(s.tombstones.values.filter(\.validated)),
            contacts: s.contacts(), followStamp: s.followWatermark, followTags: [["p", bob], ["p", carol, "wss://hint"]], profiles: [:],
            ownProfile: nil, ownProfileName: nil, preferences: [], relays: [("ws://127.0.0.1:7777", true, t0)])
        let exported = BackupExport.file(contents, now: t0 + 5000)
        XCTAssertEqual(exported.settings.customRelays, true)
        XCTAssertEqual(exported.sessions.first { $0.id == "S1" }?.membershipID, F.id("members-200"))
        XCTAssertEqual(Set(exported.intervals.filter { $0.sessionID == "S1" }.map { "\($0.pubkey.prefix(2))\($0.start.unixSeconds - t0)-\($0.end.map { "\($0.unixSeconds - t0)" } ?? "")" }),
                       ["\(me.prefix(2))0-", "b20-", "c3100-200"])
        let (back, _) = try restored(exported)
        XCTAssertEqual(back.sessionSummaries(archived: nil).map(\.id), s.sessionSummaries(archived: nil).map(\.id))
        XCTAssertEqual(back.sessionSummaries(archived: true).map(\.id), ["S2"])
        for sid in ["S1", "S2"] {
            XCTAssertEqual(back.postViews(in: sid), s.postViews(in: sid), sid)
            XCTAssertEqual(back.summary(of: sid)?.members, s.summary(of: sid)?.members, sid)
            XCTAssertEqual(back.summary(of: sid)?.name, s.summary(of: sid)?.name, sid)
        }
        XCTAssertEqual(back.contacts(), s.contacts())
        XCTAssertEqual(back.deletedPostIDs, s.deletedPostIDs)
    }

    func testTheDefaultRelaysExportAsNoCustomRelays() throws {
        let contents = BackupExport.Contents(secretKey: key, accountCreatedAt: t0, sessions: [], posts: [], reactions: [], tombstones: [], contacts: [],
                                             followStamp: nil, followTags: nil, profiles: [:], ownProfile: nil, ownProfileName: nil, preferences: [],
                                             relays: RelayURL.defaults.map { ($0, true, t0) })
        let file = BackupExport.file(contents, now: t0)
        XCTAssertFalse(file.settings.customRelays)
        XCTAssertEqual(file.settings.relays, [])
        XCTAssertNoThrow(try BackupValidation.validate(try file.encoded()))
    }

    // MARK: the sealed form

    func testTheSealedFormOpensOnlyWithItsPassphraseAndHidesEverything() throws {
        let sealed = try SealedBackup.seal(sample(), key: key, passphrase: "long walk on the beach", logN: 4, random: SeededRandom(seed: 3))
        let text = String(decoding: sealed, as: UTF8.self)
        XCTAssertTrue(SealedBackup.isSealed(sealed))
        XCTAssertFalse(SealedBackup.isSealed(try sample().encoded()))
        for secret in [key.revealNsec(), "Films", "example.com", "Bobby", bob] { XCTAssertFalse(text.contains(secret), secret) }
        XCTAssertEqual(try SealedBackup.open(sealed, passphrase: "long walk on the beach"), sample())
        XCTAssertThrowsError(try SealedBackup.open(sealed, passphrase: "short walk")) {
            XCTAssertEqual($0 as? BackupError, .cannotOpen("wrong passphrase, or the backup is damaged."))
        }
        // A changed byte in the sealed part, or another file's key: refused.
        var box = try JSONDecoder().decode(SealedBackup.self, from: sealed)
        box.sealed[box.sealed.count / 2] ^= 1
        XCTAssertThrowsError(try SealedBackup.open(try JSONEncoder().encode(box), passphrase: "long walk on the beach"))
        var swapped = try JSONDecoder().decode(SealedBackup.self, from: sealed)
        swapped.ncryptsec = try NIP49.encrypt(BackupTests.secret(11), password: "long walk on the beach", logN: 4)
        XCTAssertThrowsError(try SealedBackup.open(try JSONEncoder().encode(swapped), passphrase: "long walk on the beach")) {
            XCTAssertEqual($0 as? BackupError, .cannotOpen("wrong passphrase, or the backup is damaged."))
        }
    }
}
