import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `linkstr doctor` refused while the app ran (exit 69) though it only reads and refreshes caches. It
/// runs beside the app now, as the reading commands do (`posts`, `session list`, `search`, `media info`,
/// `cache usage`, `relays list`); a command that changes data still waits for the app.
final class BesideTheAppTests: XCTestCase {
    func testReadingCommandsAndTheDoctorRunBesideTheApp() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("beside-a", relay: relay.url)
        defer { home.remove() }
        // Bob's kind 10050 on the relay, for the doctor to look up.
        let bob = SecretKey.generate()
        try DirectPublish.events([UnsignedEvent(pubkey: bob.publicKey, createdAt: Int64(Date().timeIntervalSince1970) - 60, kind: 10050,
                                                tags: [["relay", relay.url]], content: "").signed(with: bob)], to: relay.url)
        let session = try home.ok(["session", "create", "Beside", "--member", bob.publicKey.npub]).trimmed
        let post = try home.ok(["post", session, "https://example.com/beside", "--note", "read beside the app"]).trimmed
        let tmux = try Tmux()
        try home.startApp(tmux, "app", relay: relay.url)
        try tmux.waitFor("app", text: "Beside", timeout: 30)

        let doctor = try home.run(["doctor", session, "--json"])
        XCTAssertEqual(doctor.status, 0, doctor.err)
        let report = try XCTUnwrap(try doctor.json() as? [String: Any])
        let members = try XCTUnwrap(report["members"] as? [[String: Any]])
        XCTAssertEqual(members.count, 1, "\(report)")
        XCTAssertEqual(members.first?["source"] as? String, "inbox", "Bob's list looked up beside the app: \(members)")
        for args in [["posts", session], ["session", "list"], ["search", "beside"], ["media", "info", post], ["cache", "usage"], ["relays", "list"]] {
            let run = try home.run(args)
            XCTAssertEqual(run.status, 0, "\(args): \(run.err)")
        }
        // A change still waits for the app.
        let change = try home.run(["session", "rename", session, "Elsewhere"])
        XCTAssertEqual(change.status, 69, change.err)
        XCTAssertTrue(change.err.contains("another linkstr (pid "), change.err)
        try tmux.keys("app", "C-c")
        try tmux.waitFor("app", "the app to quit") { !$0.contains("Beside") }
        // Alone, the doctor keeps what it found as before.
        XCTAssertEqual(try home.run(["doctor", session]).status, 0)
    }
}
