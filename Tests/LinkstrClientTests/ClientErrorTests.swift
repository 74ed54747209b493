import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol
import XCTest

/// Every failure a use case throws reaches the front ends as a kind (what a person can do about it) and
/// the failing layer's words, on one line.
final class ClientErrorTests: XCTestCase {
    func testKindsFollowTheFailingLayer() {
        let cases: [(any Error, ClientError.Kind)] = [
            (PublishError.timeout, .timeout), (PublishError.reconnectTimeout, .timeout),
            (PublishError.rejected("blocked: spam"), .rejectedByRelays), (PublishError.tooLarge, .rejectedByRelays),
            (PublishError.offline, .offline), (PublishError.noRelaysEnabled, .offline), (PublishError.onlyReadOnly, .offline),
            (ConnectionError.timeout, .timeout), (ConnectionError.refused, .offline), (ConnectionError.invalidURL("x"), .invalid),
            (StorageError.sqlite(code: 13, message: "full"), .storage), (PrivateFile.Failure.writeFailed, .storage),
            (VaultError.unknownIdentity, .notFound), (VaultError.wrongPassphrase, .invalid), (VaultError.corrupt, .storage),
            (AccountActions.RequestError.noSuchSession, .notFound), (AccountActions.RequestError.notARequest, .invalid),
            (RelayList.Failure.notInList, .notFound), (RelayList.Failure.duplicate, .invalid),
            (SendRuleError.unknownPost, .notFound), (SendRuleError.notCreator, .invalid),
            (NIP19Error.truncatedTLV, .invalid), (CancellationError(), .unexpected),
        ]
        for (error, kind) in cases {
            let client = ClientError(error)
            XCTAssertEqual(client.kind, kind, "\(error)")
            XCTAssertEqual(client.detail, DisplayText.singleLine(String(describing: error)), "\(error)")
        }
    }

    func testTheRelaysWordsStayOnOneLineWithoutControls() {
        let error = ClientError(PublishError.rejected("blocked:\n\u{1b}[31mred\u{7}"))
        XCTAssertEqual(error.kind, .rejectedByRelays)
        XCTAssertFalse(error.detail.contains("\n"))
        XCTAssertFalse(error.detail.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f })
    }

    func testAClientErrorPassesThroughUnchanged() {
        let error = ClientError(.offline, "no relay")
        XCTAssertEqual(ClientError(error as any Error), error)
    }
}
