import LinkstrApp
import LinkstrDomain
import NostrProtocol
import XCTest

/// Failures arrive typed; the reducer alone words them, naming the step where the reason alone would not.
final class ClientErrorWordingTests: XCTestCase {
    func testEveryKindHasWordsWhenTheLayerGaveNone() {
        var said = Set<String>()
        for kind in ClientError.Kind.allCases {
            var state = AppState()
            state.phase = .main
            _ = AppReducer.reduce(&state, .failed(.unexpected, ClientError(kind, "")))
            let text = try? XCTUnwrap(state.status?.text)
            XCTAssertEqual(state.status?.kind, .error)
            XCTAssertFalse(text?.isEmpty ?? true, "\(kind)")
            said.insert(text ?? "")
        }
        XCTAssertEqual(said.count, ClientError.Kind.allCases.count, "each kind says something of its own")
    }

    func testTheFailedStepIsNamedBeforeTheReason() {
        var h = ReducerHarness()
        let full = ClientError(.storage, "the disk is full")
        h.send(.failed(.wipe, full)) { $0.status = StatusLine("wipe incomplete: the disk is full", .error) }
        h.send(.failed(.forgetDeletedAccount, full)) { $0.status = StatusLine("account deleted on relays, but not wiped here: the disk is full", .error) }
        h.send(.failed(.startSync, full)) { $0.status = StatusLine("sync could not start: the disk is full", .error) }
        h.send(.failed(.readProfileName, full)) { $0.status = StatusLine("could not read your profile name: the disk is full", .error) }
        h.send(.failed(.storeIncoming, full)) { $0.status = StatusLine("the disk is full", .error) }
        h.send(.search(.indexReadFailed(full))) { $0.status = StatusLine("the search index could not be read: the disk is full", .error) }
    }

    func testARefusedEnvironmentPassphraseAsksForItHere() {
        var h = ReducerHarness()
        h.send(.onboarding(.passphraseNeeded(pubkey: Fixture.me, npub: "npub1me"))) {
            $0.phase = .unlock(UnlockState(pubkey: Fixture.me, npub: "npub1me"))
        }
        h.send(.onboarding(.environmentPassphraseRefused)) {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.error = "LINKSTR_PASSPHRASE did not unlock this key; type it here."
            $0.phase = .unlock(u)
        }
    }
}
