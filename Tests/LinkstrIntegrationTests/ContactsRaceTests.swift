import Foundation
import LinkstrTestSupport
import NostrProtocol
import Synchronization
import XCTest

/// Issue 32 (4): two devices on one key adding a contact at the same moment lost one of them (4 of 4
/// trials). Now the device whose list lost, or whose list won over one that arrived meanwhile, makes
/// its edit again on the other's list (wire 2026 §7.1, and better than iOS for the second case).
final class ContactsRaceTests: XCTestCase {
    func testTwoDevicesAddingAtOnceKeepBothContacts() throws {
        let nostrRelay = try TestRelay(), rustRelay = try RustRelay.start()
        defer { nostrRelay.stop(); rustRelay.stop() }
        for relay in [nostrRelay.url, rustRelay.url] {
            let phone = try Home("race-a", relays: [relay]), laptop = try Home("race-b", relays: [relay])
            defer { phone.remove(); laptop.remove() }
            let (_, me) = try phone.createIdentity()
            let nsec = try phone.ok(["identity", "export-secret", "--yes"]).trimmed
            try laptop.ok(["identity", "import", "--kdf-cost", "10"], stdin: nsec)
            var added = Set<String>()
            for trial in 0..<4 {
                let a = SecretKey.generate().publicKey.hex, b = SecretKey.generate().publicKey.hex
                let results = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    let r = try? (i == 0 ? phone : laptop).run(["contacts", "add", i == 0 ? a : b])
                    results.withLock { $0.append(r.map { "\($0.status) \($0.err)" } ?? "did not run") }
                }
                XCTAssertEqual(results.withLock { $0 }, ["0 ", "0 "], "\(relay) trial \(trial)")
                added.formUnion([a, b])
                let lists = try RustNostrPeer.query(relay: relay, filter: ["authors": [me], "kinds": [3]])
                let newest = try XCTUnwrap(lists.max { ($0["created_at"] as! Int64, $1["id"] as! String) < ($1["created_at"] as! Int64, $0["id"] as! String) })
                let keys = Set((newest["tags"] as? [[String]] ?? []).filter { $0.first == "p" }.map { $0[1] })
                XCTAssertEqual(keys, added, "\(relay) trial \(trial): every contact either device added is in the newest list")
            }
        }
    }
}

