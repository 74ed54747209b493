import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrStorage
import XCTest

@testable import LinkstrClient
@testable import LinkstrTUI

/// Issue 28: the open account is one `AccountSession`. Switching identity in the middle of a search and
/// of a send leaves nothing of the first account: its session is closed and released (index, previews,
/// pool, engine), its tasks are cancelled, and its late answers never reach the app.
final class AccountSwitchTests: XCTestCase {
    func testSwitchingMidSearchAndMidSendLeavesNothingOfTheFirstAccount() async throws {
        let passphrase = "correct horse battery staple"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-pass-\(UUID().uuidString)")
        try Data(passphrase.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let harness = try EffectHarness(passphraseFile: file.path)
        defer { harness.close() }
        try harness.send(.boot) { $0.contains(.onboarding(.identityMissing)) }
        let ann = try harness.created(.onboarding(.createIdentity(name: "Ann", passphrase: passphrase)))
        let bob = try harness.created(.onboarding(.createIdentity(name: "Bob", passphrase: passphrase)))
        XCTAssertNotEqual(ann.pubkey, bob.pubkey)
        weak let first = await harness.runner.account
        let firstSession = try XCTUnwrap(first)
        XCTAssertEqual(firstSession.me, bob.pubkey)
        // Bob's relay is one that never answers: his sends wait at the gate.
        harness.runner.perform(.startSync)
        let connecting = Date().addingTimeInterval(10)
        while await firstSession.pool.snapshots().isEmpty, Date() < connecting { try await Task.sleep(for: .milliseconds(5)) }
        // Mid-search: Bob's index is built and held; mid-send: a contact (his follow list) waits at the gate
        // (a session or a post no longer waits: it is queued at once, issue 49).
        try harness.send(.search(.buildSearchIndex)) { _ in firstSession.search.holdsIndex }
        harness.runner.perform(.you(.addContact(ann.pubkey, alias: "Ann")))
        let deadline = Date().addingTimeInterval(10)
        while firstSession.tasks.running == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(firstSession.tasks.running, 1, "the send is under way")

        let switched = try harness.send(.you(.switchIdentity(ann.pubkey))) { got in got.contains { if case .identityReady = $0 { true } else { false } } }
        guard case .identityReady(let info, _)? = switched.last else { return XCTFail("\(switched)") }
        XCTAssertEqual(info.pubkey, ann.pubkey)
        XCTAssertFalse(switched.contains { if case .you(.contactSaveFailed) = $0 { true } else { false } }, "Bob's send never answers Ann's screen: \(switched)")
        XCTAssertTrue(firstSession.isClosed)
        XCTAssertFalse(firstSession.search.holdsIndex, "Bob's search index left memory")
        XCTAssertEqual(firstSession.tasks.running, 0, "Bob's tasks were cancelled")
        let bobsRelays = await firstSession.pool.snapshots()
        XCTAssertTrue(bobsRelays.allSatisfy { $0.status != .connected }, "Bob's pool is closed")
        let open = await harness.runner.account
        XCTAssertEqual(open?.me, ann.pubkey)
        try harness.expectNothingMore()
        // Nothing keeps Bob's session alive once the runner let it go.
        _ = consume firstSession
        let released = Date().addingTimeInterval(10)
        while first != nil, Date() < released { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertNil(first, "Bob's session was released")
    }
}
