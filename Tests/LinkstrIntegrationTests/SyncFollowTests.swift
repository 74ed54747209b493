import Foundation
import LinkstrTestSupport
import XCTest

/// `linkstr sync --follow` says what arrives as the app announces it: one rule (nothing from a stranger's
/// session request), one wording, names by the app's naming rule (a contact's alias).
final class SyncFollowTests: XCTestCase {
    func testFollowPrintsTheAppsHeadlinesForContactsOnly() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("ann", relays: [relay.url]), bob = try Home("bob", relays: [relay.url]), eve = try Home("eve", relays: [relay.url])
        defer { [ann, bob, eve].forEach { $0.remove() } }
        let (annNpub, _) = try ann.createIdentity()
        let (bobNpub, _) = try bob.createIdentity()
        _ = try eve.createIdentity()
        try ann.ok(["contacts", "add", bobNpub, "--alias", "Bobby"])
        let films = try bob.ok(["session", "create", "Films", "--member", annNpub]).trimmed
        let spam = try eve.ok(["session", "create", "Free stuff", "--member", annNpub]).trimmed
        _ = try ann.sync()

        // Ann follows; news arrives live while she does.
        let followed = DispatchGroup()
        nonisolated(unsafe) var run: Home.Run?
        nonisolated(unsafe) var failure: Error?
        followed.enter()
        DispatchQueue.global().async {
            do { run = try ann.run(["sync", "--follow", "--timeout", "8"], timeout: 60) } catch { failure = error }
            followed.leave()
        }
        Thread.sleep(forTimeInterval: 3)  // her live subscription is up (the follow lasts 8 s more)
        try bob.ok(["post", films, "https://example.com/film", "--note", "tonight"])
        try eve.ok(["post", spam, "https://example.com/spam", "--note", "click"])
        XCTAssertEqual(followed.wait(timeout: .now() + 60), .success)
        if let failure { throw failure }
        let out = try XCTUnwrap(run).out
        let lines = out.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("relay ") }
        XCTAssertTrue(lines.contains("Bobby shared a post"), out)
        XCTAssertFalse(out.contains("click") || lines.filter { $0.hasSuffix("shared a post") }.count != 1,
                       "a stranger's session request is not announced: \(out)")
    }
}
