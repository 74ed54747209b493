import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// The two accounts in `Fixtures/schema-13.sqlite3`: a database written by linkstr at schema 13
/// (commit aa6f325, owners stored as 64-character hex), before migration 14 numbered the accounts.
/// The file was made once by `apply` on that code; the migration test expects what these calls stored.
enum SchemaThirteenFixture {
    static let first = SecretKey.generate(using: SeededRandom(seed: 1_313))
    static let second = SecretKey.generate(using: SeededRandom(seed: 1_314))
    static func messages(_ key: SecretKey, count: Int, seed: UInt64) -> [InboundMessage] {
        ScenarioGenerator.stream(count: count, seed: seed, me: key.publicKey.hex)
    }
    static let firstMessages = messages(first, count: 300, seed: 1_313)
    static let secondMessages = messages(second, count: 80, seed: 1_314)
    static let relays = ["ws://127.0.0.1:4001", "ws://127.0.0.1:4002"]
    static let draft = AccountStore.StoredDraft(link: "https://example.com/draft", note: "not sent yet")
    static let inboxList = ["ws://127.0.0.1:4003"]
    static let hints = ["ws://127.0.0.1:4004"]
    static let profile = #"{"name":"fixture"}"#

    /// Wraps with their `created_at` (NIP-77's local set), one per message wrap.
    static func wraps(_ messages: [InboundMessage]) -> [ProcessedWrap] {
        messages.flatMap { m in m.wrapIDs.map { ProcessedWrap(id: $0, createdAt: m.createdAt + 7) } }
    }

    static func apply(first a: AccountStore, second b: AccountStore) throws {
        _ = try a.ingest(firstMessages, wraps: wraps(firstMessages), now: 1_000)
        _ = try a.ingestFollowList(author: first.publicKey.hex, createdAt: 5, eventID: "f1", tags: [["p", MessageFactory.bob]], now: 1_000)
        _ = try a.setAlias(MessageFactory.bob, "Bob at schema 13")
        let listed = try a.sessionSummaries(archived: nil).map(\.id).sorted()
        try a.setArchived(listed[0], true)
        try a.markSessionRead(listed[1], now: 1_001)
        for url in relays { _ = try a.addRelay(url, now: 1_002) }
        _ = try a.setRelayEnabled(relays[1], false)
        try a.setDraft(draft, for: listed[2], now: 1_003)
        try a.setNegentropyRefused(relays[0], at: 1_004)
        try a.storeRelayList(MessageFactory.bob, kind: 10_050, relays: inboxList, stamp: LWWStamp(createdAt: 9, eventID: "r1"),
                             fetchedAt: 1_005, foundOn: relays[0])
        try a.setRelayHints(MessageFactory.carol, hints)
        try a.recordDeliveries([MessageFactory.bob: (rumors: ["rumor-1"], outcome: .inbox(relay: inboxList[0]))], now: 1_006)
        try a.setOwnProfile(content: profile, stamp: LWWStamp(createdAt: 11, eventID: "p1"))

        _ = try b.ingest(secondMessages, wraps: wraps(secondMessages), now: 1_100)
        _ = try b.addRelay(relays[0], now: 1_101)
    }

    static func reference(_ key: SecretKey, _ messages: [InboundMessage], choices: Bool) throws -> AccountState {
        var s = AccountState(me: key.publicKey.hex)
        for m in messages { _ = try s.ingest(m, restoringHistory: false) }
        guard choices else { return s }
        _ = try s.ingestFollowList(author: key.publicKey.hex, createdAt: 5, eventID: "f1", tags: [["p", MessageFactory.bob]])
        _ = try s.setAlias(MessageFactory.bob, "Bob at schema 13")
        let listed = s.sessionSummaries(archived: nil).map(\.id).sorted()
        s.setArchived(listed[0], true)
        s.markSessionRead(listed[1], at: 1_001)
        return s
    }
}
