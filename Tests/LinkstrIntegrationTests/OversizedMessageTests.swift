import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (13): a relay that sends a message over linkstr's 4 MiB limit was reconnected every second
/// forever, shown only as "connection lost". The reason is said, and the reconnects back off (the
/// connection opening does not start the backoff over).
final class OversizedMessageTests: XCTestCase {
    func testAMessageOverTheLimitIsSaidAndReconnectsBackOff() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let counter = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-huge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: counter) }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "huge", argument: "\(5 << 20)|\(counter.path)")
        defer { proxy.stop() }
        let home = try Home.forApp("huge", relay: proxy.url)
        defer { home.remove() }
        let run = try home.run(["sync", "--json", "--timeout", "12"], timeout: 60)
        let relays = (try run.json() as? [String: Any])?["relays"] as? [[String: Any]] ?? []
        let error = relays.first?["error"] as? String ?? ""
        XCTAssertTrue(error.contains("a message larger than 4 MiB"), "\(run.out)\n\(run.err)")
        let connections = Int((try? String(contentsOf: counter, encoding: .utf8)) ?? "") ?? 0
        // Backing off 1, 2, 4, 8 s: at most five connections in 12 s (every second would be twelve).
        XCTAssertGreaterThanOrEqual(connections, 2)
        XCTAssertLessThanOrEqual(connections, 5, "reconnects back off")
    }
}
