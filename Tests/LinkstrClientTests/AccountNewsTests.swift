import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import XCTest

@testable import LinkstrClient

/// The engine's updates made into news in one place (`AccountNewsReader`), with what the screen needs
/// read through the account: the app's runner only forwards each to its action.
final class AccountNewsTests: XCTestCase {
    func testUpdatesBecomeNewsWithTheirRowsRead() throws {
        let account = try AccountSession(.generate(), in: try LocalStore(), relayOverrides: [])
        let reader = AccountNewsReader(account: account, requests: SessionRequestPolicy()) { .active }
        guard case .profileNamesLoaded(let names)? = reader.news(.profilesChanged).first else { return XCTFail("the names are read") }
        XCTAssertEqual(names, [:])
        guard case .ownProfileNameLoaded(nil)? = reader.news(.profilesChanged).last else { return XCTFail("and our own name, none yet") }
        guard case .contactsLoaded(let contacts)? = reader.news(.contactsChanged).first else { return XCTFail("the contacts are read") }
        XCTAssertEqual(contacts, [])
        _ = try account.sessions.reload(.active, policy: SessionRequestPolicy())  // the screen read its list once
        guard case .messagesArrived(let touched, let notes, let listing, _)? = reader.news(.ingested(touchedSessions: ["s"], notifications: [])).first
        else { return XCTFail("a batch's news") }
        XCTAssertEqual(touched, ["s"])
        XCTAssertEqual(notes, [])
        XCTAssertNotNil(listing, "the list comes with the news")
    }

    func testFailuresAreTypedAndGoodNewsIsNotOne() throws {
        let account = try AccountSession(.generate(), in: try LocalStore(), relayOverrides: [])
        let reader = AccountNewsReader(account: account, requests: SessionRequestPolicy()) { .active }
        let full = StoreFailure(.incoming(messages: 3), what: "incoming messages", detail: "the disk is full.")
        guard case .failed(.storeIncoming, let error)? = reader.news(.storeFailed(full)).first else { return XCTFail("a store failure") }
        XCTAssertEqual(error, ClientError(.storage, full.description))
        guard case .failed(.storeIncoming, let unsynced)? = reader.news(.preferencesUnsynced).first else { return XCTFail("unsynced preferences") }
        XCTAssertEqual(unsynced.kind, .offline, "no relay took them: not a storage failure")
        XCTAssertTrue(reader.news(.storedAfterWaiting(3)).isEmpty, "good news is not shown as a failure")
        XCTAssertTrue(reader.news(.notice(relay: "wss://r", "hello")).isEmpty, "a relay's words are not the status line's")
        guard case .postDeleted("p", "s", ["kept"])? = reader.news(.deletionAnswered(action: .postDelete, sessionID: "s", postID: "p", lines: ["kept"])).first
        else { return XCTFail("a delete's answer") }
    }
}
