import LinkstrDomain
import LinkstrRelay
import NostrProtocol
import XCTest

@testable import LinkstrSync

/// The engine's decisions as pure values, no actor, no clock: which parts of people are read
/// (`ProfileParts`) and where a profiles event goes (`ProfileEventRoute`), when preferences seed and
/// upload (`PreferenceSync`, `InitialPreferenceBackup`), whose relay lists are looked up and where
/// (`RelayListLookup`), and when the history is settled and read (`HistoryState`, over `HistoryPager`).
final class EngineCoordinatorTests: XCTestCase {
    private let me = String(repeating: "0", count: 64)
    private func person(_ n: Int) -> Pubkey { String(format: "%064x", n) }

    // MARK: profiles

    func testProfilePartsGrowWithNewcomersAndAreRemadeWhenSomeoneGoes() {
        var parts = ProfileParts(perPart: 2)
        XCTAssertEqual(parts.take([person(1), person(2), person(3)]), .remade, "the first set makes every part")
        XCTAssertEqual(parts.parts, [0: [person(1), person(2)], 1: [person(3)]])
        XCTAssertEqual(parts.take([person(1), person(2), person(3)]), .unchanged)
        XCTAssertEqual(parts.take([person(1), person(2), person(3), person(4), person(5)]), .grew(newParts: [2]), "only the newcomers make a part")
        XCTAssertEqual(parts.parts[2], [person(4), person(5)])
        XCTAssertEqual(parts.partOf[person(1)], 0, "the parts read so far stand")
        XCTAssertEqual(parts.take([person(1), person(5)]), .remade)
        XCTAssertEqual(parts.parts, [3: [person(1), person(5)]], "numbers are never reused")
        XCTAssertNil(parts.partOf[person(2)])
    }

    func testProfileFiltersAskForOursThenEachPartSinceTheGivenTime() {
        var parts = ProfileParts(perPart: 1)
        _ = parts.take([person(2), person(1)])
        let filters = parts.filters(me: me, ownListKinds: [10006, 10002], kinds: [0, 10050, 10002], since: 500)
        XCTAssertEqual(filters, [Filter(authors: [me], kinds: [0], limit: 1), Filter(authors: [me], kinds: [10006, 10002], limit: 2),
                                 Filter(authors: [person(1)], kinds: [0, 10050, 10002], since: 500),
                                 Filter(authors: [person(2)], kinds: [0, 10050, 10002], since: 500)])
    }

    func testProfileEventsGoWhereTheyBelongBeforeAnySignatureIsChecked() {
        func route(_ kind: Int, _ author: Pubkey) -> ProfileEventRoute {
            .of(kind: kind, author: author, me: me, ownListKinds: [10006, 10002], relayListKinds: [10050, 10002], wanted: [person(1)])
        }
        XCTAssertEqual(route(10006, me), .ownList)
        XCTAssertEqual(route(10002, me), .ownList)
        XCTAssertEqual(route(10050, me), .ignore, "our inbox list is our own lists' business")
        XCTAssertEqual(route(10050, person(1)), .theirRelayList)
        XCTAssertEqual(route(10002, person(9)), .theirRelayList, "whether it was asked for is the list's check")
        XCTAssertEqual(route(0, me), .ownProfile)
        XCTAssertEqual(route(0, person(1)), .theirProfile)
        XCTAssertEqual(route(0, person(9)), .ignore, "a stranger's profile is not verified")
        XCTAssertEqual(route(1, person(1)), .ignore)
    }

    // MARK: preferences

    func testPreferencesSeedOnceAfterTheStoredRecordsAndUploadOneAtATime() {
        var sync = PreferenceSync()
        XCTAssertEqual(sync.uploadWanted(), [.startUpload], "a change made here goes out before any record arrived")
        XCTAssertEqual(sync.uploadWanted(), [], "one pass at a time")
        XCTAssertEqual(sync.historyAnswered(), [.seedInitialBackup], "the backup waits for the stored records; the running pass takes its upload")
        XCTAssertTrue(sync.uploadPassEnded(cancelled: false), "saved meanwhile: another pass")
        XCTAssertFalse(sync.uploadPassEnded(cancelled: false))
        XCTAssertEqual(sync.historyAnswered(), [.startUpload], "the backup is made once a run")
        _ = sync.uploadWanted()
        XCTAssertFalse(sync.uploadPassEnded(cancelled: true), "a stopped engine runs no other pass")
        XCTAssertEqual(sync.uploadWanted(), [.startUpload])
        XCTAssertEqual(sync.uploadWanted(), [], "asked again before the pass began")
        sync.uploadPassBegins()
        XCTAssertFalse(sync.uploadPassEnded(cancelled: false), "the pass read what was pending then: no second pass, no second wait")
    }

    func testTheInitialBackupDatesRecordsAtTheirOriginAndSkipsStoredOnes() {
        let contacts = [Contact(pubkey: person(1), alias: "Ann"), Contact(pubkey: person(2), alias: nil), Contact(pubkey: person(3), alias: "Bo")]
        let archived = [InitialPreferenceBackup.Archived(sessionID: "s1", since: 1_700), InitialPreferenceBackup.Archived(sessionID: "s2", since: nil)]
        let stored = PrivatePreference.alias(pubkey: person(3), name: "Bo")
        let records = InitialPreferenceBackup.records(contacts: contacts, archived: archived) { $0 == stored }
        XCTAssertEqual(records.map(\.0), [.alias(pubkey: person(1), name: "Ann"), .archive(sessionID: "s1", archived: true),
                                          .archive(sessionID: "s2", archived: true)])
        XCTAssertEqual(records.map(\.createdAt), [1, 1_700, 1], "never dated after an edit made elsewhere")
    }

    // MARK: discovery

    func testLookupsAreDueOnceAnHourForMissingOrStaleListsOnly() {
        var lookup = RelayListLookup()
        let known: [Pubkey: RelayListLookup.Known] = [person(1): .init(hasList: true, listedAt: 9_000), person(2): .init(hasList: true, listedAt: 1_000),
                                                      person(3): .init(hasList: false, listedAt: nil)]
        let first = lookup.due([person(3), person(1), person(2), me, person(3)], me: me, onlyMissingOrStale: true, known: known, now: 10_000,
                               staleAfter: 5_000, interval: 3_600)
        XCTAssertEqual(first, [person(2), person(3)], "a fresh list waits; ours is never looked up; each once")
        let soon = lookup.due([person(2), person(3)], me: me, onlyMissingOrStale: true, known: known, now: 12_000, staleAfter: 5_000, interval: 3_600)
        XCTAssertEqual(soon, [], "looked up within the hour")
        let asked = lookup.due([person(1)], me: me, onlyMissingOrStale: false, known: known, now: 12_000, staleAfter: 5_000, interval: 3_600)
        XCTAssertEqual(asked, [person(1)], "asked for by name: looked up whatever is known")
        let later = lookup.due([person(2), person(3)], me: me, onlyMissingOrStale: true, known: known, now: 13_700, staleAfter: 5_000, interval: 3_600)
        XCTAssertEqual(later, [person(2), person(3)])
    }

    func testLookupFiltersAndTheRelaysAskedBesideOurs() {
        let filters = RelayListLookup.filters(for: [person(1), person(2), person(3)], perFilter: 2, kinds: [10050, 10002])
        XCTAssertEqual(filters, [Filter(authors: [person(1), person(2)], kinds: [10050, 10002], limit: 4),
                                 Filter(authors: [person(3)], kinds: [10050, 10002], limit: 2)])
        var lookup = RelayListLookup()
        lookup.indexers = ["wss://z.idx", "wss://a.idx", "wss://ours"]
        let asked = lookup.relaysToAsk(hints: ["wss://hint", "wss://bad", "wss://ours"], fromNIP05: ["wss://nip05", "wss://hint"],
                                       ours: ["wss://ours"], blocked: ["wss://bad"], cap: 4)
        XCTAssertEqual(asked, ["wss://z.idx", "wss://a.idx", "wss://hint", "wss://nip05"], "indexers first in their order; never ours or blocked")
        XCTAssertEqual(lookup.relaysToAsk(hints: ["wss://hint"], fromNIP05: [], ours: [], blocked: [], cap: 1), ["wss://z.idx"], "bounded")
    }

    // MARK: history

    func testTheHistoryIsSettledWhenAGiftWrapChainSettledAndNoRelayStillConnects() {
        var history = HistoryState()
        XCTAssertFalse(history.settled, "nothing read yet")
        let a = HistoryKey(relay: "wss://a", chain: .giftWraps), b = HistoryKey(relay: "wss://b", chain: .giftWraps)
        history.pagers[a] = finished()
        history.relayStatus = ["wss://a": .connected, "wss://b": .connecting]
        XCTAssertFalse(history.settled, "a relay still connecting may bring more")
        history.relayStatus["wss://b"] = .failed
        XCTAssertTrue(history.settled)
        XCTAssertFalse(history.read, "the preferences chain is not read anywhere")
        history.pagers[HistoryKey(relay: "wss://b", chain: .preferences)] = finished()
        XCTAssertTrue(history.read, "each chain read to its end on some relay")
        var running = HistoryPager()
        _ = running.start()
        history.pagers[b] = running
        XCTAssertFalse(history.settled, "a page still running")
        history.pagers[b] = finished()
        history.awaitingRetry["wss://b"] = false
        XCTAssertFalse(history.settled, "a relay cut short waits for its next attempt")
    }

    /// A pager whose one page ended empty: read to its end.
    private func finished() -> HistoryPager {
        var pager = HistoryPager()
        _ = pager.start()
        _ = pager.ended(.eose, page: 0)
        XCTAssertEqual(pager.outcome, .finished)
        return pager
    }
}
