import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

/// A fresh data directory per test, removed afterwards.
class StorageTestCase: XCTestCase {
    var tmp: URL!
    var paths: DataPaths!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-storage-\(UUID().uuidString)")
        paths = DataPaths.resolve(home: tmp.path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    func message(_ payload: LinkstrPayload, by sender: Pubkey, at t: Int64, id: String) -> InboundMessage {
        InboundMessage(rumorID: id, wrapIDs: ["wrap-" + id], sender: sender, createdAt: t, payload: try! payload.validated(),
                       source: .historical, receivedAt: t)
    }

    func posixMode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue & 0o777
    }
}
