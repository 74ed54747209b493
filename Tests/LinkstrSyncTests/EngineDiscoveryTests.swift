import Foundation
import LinkstrDomain
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrStorage
@testable import LinkstrSync

/// Discovery's NIP-05 fallback (issue 52): people whose kind 0 names an identifier and whose lists we do
/// not know are read on the engine and their documents fetched beside it. The lazy chain that did this
/// ran off the actor and aborted the process: this test ended in SIGABRT before the fix.
final class EngineDiscoveryTests: XCTestCase {
    func testPeopleWithNIP05NamesAndNoListsAreLookedUpWithoutLeavingTheEngine() async throws {
        let t = try EngineUnderTest(delivery: InboxDelivery(allowPrivateAddresses: false, timeout: .milliseconds(500)))
        // More than one lookup fetches documents for (`nip05PerLookup`), one of them with a list on our relay.
        let keys = (0..<(SyncEngine.nip05PerLookup + 4)).map { _ in SecretKey.generate() }
        let people = keys.map(\.publicKey.hex)
        for (i, person) in people.enumerated() {
            try t.store.applyProfile(person, .apply(name: "person \(i)", stamp: LWWStamp(createdAt: 1_000, eventID: String(repeating: "0", count: 63) + "\(i % 10)")))
            try t.store.setProfileNIP05(person, "_@127.0.0.1")
            XCTAssertEqual(try t.store.profileNIP05(person), "_@127.0.0.1")
        }
        let list = UnsignedEvent(pubkey: keys[0].publicKey, createdAt: t.clock.start - 60, kind: InboxRelayRule.inboxKind,
                                 tags: [["relay", "wss://inbox.example.com"]], content: "").signed(with: keys[0])
        t.pool.state.withLock { $0.serving = ["ws://a.test": [list]] }

        let answered = await t.engine.discoverRelayLists(for: people)
        XCTAssertEqual(answered.count, 0, "no relay beyond ours was asked (no indexer; the documents' host is refused): \(answered)")
        let asked = t.pool.requests.flatMap { $0.filters.flatMap { $0.authors ?? [] } }
        XCTAssertEqual(Set(asked), Set(people), "everyone's lists were asked of our relay")
        XCTAssertEqual(try t.store.relayListRecord(people[0], kind: InboxRelayRule.inboxKind)?.relays, ["wss://inbox.example.com"])
        XCTAssertNil(try t.store.relayListRecord(people[1], kind: InboxRelayRule.inboxKind))
        // Looked up again within the hour only when asked for everyone.
        let again = await t.engine.discoverRelayLists(for: people, onlyMissingOrStale: true)
        XCTAssertEqual(again.count, 0)
    }
}
