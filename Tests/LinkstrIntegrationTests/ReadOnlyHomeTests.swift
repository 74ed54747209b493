import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 32 (13): a read-only home (a read-only mount, a backup disk, permissions) refused reading
/// commands too. Reading works; a change is refused in words, and nothing is lost.
final class ReadOnlyHomeTests: XCTestCase {
    func testReadingCommandsWorkOnAReadOnlyHomeAndChangesAreRefusedInWords() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let disk = try SmallFileSystem(kilobytes: 16_384)
        defer { disk.remove() }
        let (home, friend, _) = try await disk.homeSynced(from: relay.url, posts: 20)
        let posts = try home.allPostIDs(friend.session)
        XCTAssertEqual(posts.count, 20)

        try disk.setReadOnly(true)
        for command in [["session", "list", "--requests", "--json"], ["posts", friend.session, "--json"], ["search", "example", "--json"],
                        ["contacts", "list", "--json"], ["identity", "list", "--json"], ["relays", "list", "--json"], ["repair", "--check"]] {
            let r = try home.run(command)
            XCTAssertEqual(r.status, 0, "\(command.joined(separator: " ")) reads a read-only home: \(r.err)")
        }
        XCTAssertEqual(try home.allPostIDs(friend.session), posts)
        let change = try home.run(["contacts", "add", friend.key.publicKey.npub])
        XCTAssertEqual(change.status, 74)
        XCTAssertTrue(change.err.contains("read-only"), "said in words: \(change.err)")
        XCTAssertFalse([132, 133, 134, 139].contains(change.status))

        try disk.setReadOnly(false)
        try home.ok(["contacts", "add", friend.key.publicKey.npub])
        XCTAssertEqual(try home.allPostIDs(friend.session), posts, "nothing was lost")
    }
}
