import LinkstrApp
import LinkstrClient
import LinkstrDomain
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrTUI

/// Every effect that goes to relays, run by the real runner against an account client: one shaped like
/// the live one (it answers as the use cases do, and records what it was asked), and one that fails.
/// Each effect answers exactly its actions, with the client's results or its typed error.
final class SendingEffectsTests: XCTestCase {
    /// What the recording client was asked, in order.
    final class Calls: Sendable {
        private let list = Mutex<[String]>([])
        func add(_ call: String) { list.withLock { $0.append(call) } }
        var all: [String] { list.withLock { $0 } }
    }

    var harness: EffectHarness!
    override func setUpWithError() throws { harness = try EffectHarness() }
    override func tearDown() { harness.close() }

    static let bob = String(repeating: "b", count: 64), carol = String(repeating: "c", count: 64)
    static let contact = Contact(pubkey: carol, alias: "Carol")

    func openAccount() throws {
        try harness.send(.boot) { $0.contains(.onboarding(.identityMissing)) }
        _ = try harness.created(.onboarding(.createIdentity(name: "Ann", passphrase: "correct horse battery staple")))
        try harness.expectNothingMore()
    }

    /// A client that answers like the live one and writes down each call.
    static func recording(_ calls: Calls) -> AccountClient {
        AccountClient(
            sendPost: { sid, url, note, now in calls.add("send \(sid) \(url) \(note ?? "-") \(now)"); return .init(postID: "P9", sessionID: sid) },
            react: { id, emoji, _ in calls.add("react \(id) \(emoji)"); return ("S1", emoji == "👎") },
            deletePost: { id, _ in calls.add("delete \(id)"); return ("S1", ["wss://r kept a copy"]) },
            createSession: { name, members, _ in calls.add("create \(name) \(members.count)"); return "S2" },
            setMembers: { sid, members, _ in calls.add("members \(sid) \(members.count)") },
            renameSession: { sid, name, _ in calls.add("rename \(sid) \(name)") },
            deleteSession: { sid, _ in calls.add("delete session \(sid)"); return [] },
            setArchived: { sid, archived in calls.add("archive \(sid) \(archived)") },
            decideRequest: { sid, decision in calls.add("decide \(sid) \(decision)") },
            addContact: { pk, alias in calls.add("add \(pk.prefix(4)) \(alias ?? "-")") },
            setAlias: { pk, alias in calls.add("alias \(pk.prefix(4)) \(alias ?? "-")") },
            removeContact: { pk in calls.add("remove \(pk.prefix(4))"); return [contact] },
            publishProfileName: { name in calls.add("name \(name ?? "-")") },
            addedYou: { calls.add("added you"); return ([bob], false) },
            watchAddedYou: { on in calls.add("watch \(on)") })
    }

    func testEachSendingEffectAnswersWithWhatTheClientDid() throws {
        let calls = Calls()
        harness.clients.accountClient.withLock { $0 = Self.recording(calls) }
        try openAccount()
        let bob = Self.bob, carol = Self.carol
        try harness.expect(.post(.sendPost(sessionID: "S1", url: "https://example.com/a", note: "look")), [.post(.postSent(postID: "P9", sessionID: "S1"))])
        try harness.expect(.post(.react(postID: "P1", emoji: "🔥")), [.post(.reactionSent(postID: "P1", sessionID: "S1", emoji: "🔥", removed: false))])
        try harness.expect(.post(.react(postID: "P1", emoji: "👎")), [.post(.reactionSent(postID: "P1", sessionID: "S1", emoji: "👎", removed: true))])
        try harness.expect(.post(.deletePost("P1")), [.post(.postDeleted(postID: "P1", sessionID: "S1", warnings: ["wss://r kept a copy"]))])
        try harness.expect(.sessions(.createSession(name: "Films", members: [bob])), [.sessions(.sessionCreated(sessionID: "S2"))])
        try harness.expect(.sessions(.saveMembers(sessionID: "S2", members: [bob, carol])), [.sessions(.membersSaved(sessionID: "S2"))])
        try harness.expect(.sessions(.renameSession(sessionID: "S2", name: "Movies")), [.sessions(.sessionRenamed(sessionID: "S2", name: "Movies"))])
        try harness.expect(.sessions(.deleteSession(sessionID: "S2")), [.sessions(.sessionDeleted(sessionID: "S2", warnings: []))])
        try harness.expect(.sessions(.setArchived(sessionID: "S1", archived: true)), [])
        try harness.expect(.sessions(.decideRequest(sessionID: "S3", .accepted)), [])
        try harness.expect(.you(.addContact(carol, alias: "Carol")), [.you(.contactSaved(carol))])
        try harness.expect(.you(.setAlias(carol, alias: nil)), [.you(.contactSaved(carol))])
        try harness.expect(.you(.removeContact(bob)), [.you(.contactsLoaded([Self.contact])), .you(.contactRemoved(bob))])
        try harness.expect(.you(.setProfileName("Ann B")), [.you(.profileNameSaved("Ann B"))])
        try harness.expect(.you(.loadAddedYou), [.you(.addedYouLoaded([bob], complete: false))])
        try harness.expect(.you(.watchAddedYou(true)), [])
        XCTAssertEqual(calls.all, [
            "send S1 https://example.com/a look 1700000000", "react P1 🔥", "react P1 👎", "delete P1", "create Films 1", "members S2 2",
            "rename S2 Movies", "delete session S2", "archive S1 true", "decide S3 accepted", "add cccc Carol", "alias cccc -",
            "remove bbbb", "name Ann B", "added you", "watch true",
        ])
    }

    func testEachSendingEffectAnswersAFailureWithItsTypedError() throws {
        let refused = ClientError(.rejectedByRelays, "blocked: not today")
        harness.clients.accountClient.withLock { $0 = .failing(refused) }
        try openAccount()
        let bob = Self.bob
        try harness.expect(.post(.sendPost(sessionID: "S1", url: "https://example.com/a", note: nil)), [.post(.postSendFailed(refused))])
        try harness.expect(.post(.react(postID: "P1", emoji: "🔥")), [.failed(.react(postID: "P1"), refused)])
        try harness.expect(.post(.deletePost("P1")), [.failed(.deletePost("P1"), refused)])
        try harness.expect(.sessions(.createSession(name: "Films", members: [bob])), [.sessions(.sessionCreateFailed(refused))])
        try harness.expect(.sessions(.saveMembers(sessionID: "S2", members: [bob])), [.sessions(.membersSaveFailed(refused))])
        try harness.expect(.sessions(.renameSession(sessionID: "S2", name: "Movies")), [.failed(.renameSession("S2"), refused)])
        try harness.expect(.sessions(.deleteSession(sessionID: "S2")), [.failed(.deleteSession("S2"), refused)])
        try harness.expect(.sessions(.setArchived(sessionID: "S1", archived: true)), [.failed(.archive("S1"), refused)])
        try harness.expect(.sessions(.decideRequest(sessionID: "S3", .declined)), [.failed(.sessionRequest("S3"), refused)])
        try harness.expect(.you(.addContact(bob, alias: nil)), [.you(.contactSaveFailed(refused))])
        try harness.expect(.you(.setAlias(bob, alias: "B")), [.you(.contactSaveFailed(refused))])
        try harness.expect(.you(.removeContact(bob)), [.failed(.removeContact(bob), refused)])
        try harness.expect(.you(.setProfileName(nil)), [.failed(.profileName, refused)])
        try harness.expect(.you(.loadAddedYou), [.you(.addedYouFailed(refused))])
    }

    /// The live client's refusals arrive typed: a post into a session that does not exist is "not found",
    /// worded by the domain, with no relay involved.
    func testTheLiveClientsRefusalsAreClassified() throws {
        try openAccount()
        let got = try harness.send(.post(.sendPost(sessionID: String(repeating: "0", count: 32), url: "https://example.com", note: nil))) { !$0.isEmpty }
        XCTAssertEqual(got, [.post(.postSendFailed(ClientError(SendRuleError.unknownSession)))])
        XCTAssertEqual(ClientError(SendRuleError.unknownSession).kind, .notFound)
        try harness.expectNothingMore()
    }
}

/// News is pushed into the list the screen asked for last, in the order it asked: a throttled load
/// that runs late must not make the news go to a list no longer shown.
final class ShownListTests: XCTestCase {
    func testTheLastListAskedForIsTheOneNewsIsPushedInto() throws {
        let harness = try EffectHarness()
        defer { harness.close() }
        XCTAssertEqual(harness.runner.shownList.value, .active)
        harness.runner.perform(.sessions(.loadSessions(.archived)))
        harness.runner.perform(.sessions(.loadSessions(.requests)))
        XCTAssertEqual(harness.runner.shownList.value, .requests, "decided when asked, not when the load runs")
    }
}
