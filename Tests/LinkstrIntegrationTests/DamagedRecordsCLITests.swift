import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 32 (9), where a user meets it: one damaged sealed field made `posts` and `search` fail for its
/// whole session. Now the rest reads, a warning on stderr says so once, `repair` drops the damaged
/// record and the next `sync` brings it back from the relay; a damaged data key gets words and
/// `repair --rebuild`.
final class DamagedRecordsCLITests: XCTestCase {
    static let posts = 30

    private func device(_ key: SecretKey, relay: String) throws -> Home {
        let home = try Home("damaged", relays: [relay])
        try home.ok(["identity", "import", "--kdf-cost", "10"], stdin: key.revealNsec() + "\n")
        try home.writeConfig("link_previews = false\n")
        return home
    }

    /// A relay holding a stranger's session of `posts` posts to a new key, and a device that synced it.
    private func synced(posts: Int) async throws -> (TestRelay, SeededSender, Home) {
        let relay = try TestRelay()
        let me = SecretKey.generate(), friend = SeededSender()
        try await friend.seed(relay.url, to: me.publicKey, posts: 0..<posts)
        let home = try device(me, relay: relay.url)
        try home.ok(["sync", "--json"])
        return (relay, friend, home)
    }

    /// Overwrites one sealed value with random bytes of its length (as a bad sector would), with no
    /// linkstr process running.
    private func damage(_ home: Home, _ sql: String) throws {
        let local = try LocalStore(paths: DataPaths.resolve(home: home.directory.path))
        try local.db.run(sql)
    }

    func testADamagedPostCostsOnlyItselfAndComesBackAfterARepair() async throws {
        let (relay, friend, home) = try await synced(posts: Self.posts)
        defer { relay.stop(); home.remove() }
        let all = try home.allPostIDs(friend.session)
        XCTAssertEqual(all.count, Self.posts)
        let victim = all[7]
        try damage(home, "UPDATE posts SET url_enc = randomblob(length(url_enc)) WHERE post_id = '\(victim)'")

        let posts = try home.run(["posts", friend.session, "--json", "--limit", "5000"])
        XCTAssertEqual(posts.status, 0, posts.err)
        let shown = (try posts.json() as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        XCTAssertEqual(shown, all.filter { $0 != victim }, "every other post reads, in order")
        XCTAssertEqual(posts.err.components(separatedBy: "damaged").count - 1, 1, "said once: \(posts.err)")
        XCTAssertTrue(posts.err.contains("1 damaged record") && posts.err.contains("linkstr repair"), posts.err)

        let search = try home.run(["search", "example", "--json"])
        XCTAssertEqual(search.status, 0, search.err)
        XCTAssertTrue(search.err.contains("damaged record"), search.err)

        let check = try home.run(["repair", "--check", "--json"])
        XCTAssertEqual(check.status, 1, "--check says damage with its exit code")
        let found = try check.json() as? [String: Any]
        XCTAssertEqual(found?["total"] as? Int, 1, check.out)
        XCTAssertEqual((found?["damaged"] as? [String: Any])?["posts"] as? Int, 1, check.out)
        XCTAssertEqual(found?["dropped"] as? Bool, false)

        let repair = try home.ok(["repair"])
        XCTAssertTrue(repair.out.contains("dropped 1 damaged record (1 in posts)"), repair.out)
        XCTAssertEqual(try home.ok(["repair", "--check"]).trimmed, "no damaged records.")

        try home.ok(["sync", "--json"])
        let back = try home.run(["posts", friend.session, "--json", "--limit", "5000"])
        XCTAssertEqual((try back.json() as? [[String: Any]])?.compactMap { $0["id"] as? String }, all, "the relay brought it back")
        XCTAssertFalse(back.err.contains("damaged"), back.err)
    }

    func testADamagedDataKeyIsSaidInWordsAndRebuildFetchesEverythingAgain() async throws {
        let (relay, friend, home) = try await synced(posts: Self.posts)
        defer { relay.stop(); home.remove() }
        try damage(home, "UPDATE accounts SET wrapped_data_key = randomblob(length(wrapped_data_key))")

        let posts = try home.run(["posts", friend.session])
        XCTAssertEqual(posts.status, 74)
        XCTAssertTrue(posts.err.contains("data key on this device is damaged") && posts.err.contains("linkstr repair --rebuild"), posts.err)
        XCTAssertFalse(posts.err.contains("UNIQUE"), posts.err)
        let sync = try home.run(["sync"])
        XCTAssertEqual(sync.status, 74, "nothing is written over a key that does not open")
        XCTAssertTrue(sync.err.contains("data key on this device is damaged"), sync.err)

        XCTAssertTrue(try home.ok(["repair", "--rebuild"]).out.contains("local data was cleared"))
        try home.ok(["sync", "--json"])
        XCTAssertEqual(try home.allPostIDs(friend.session).count, Self.posts)
        let again = try home.run(["repair", "--rebuild"])
        XCTAssertEqual(again.status, 1, "a key that opens is never thrown away")
        XCTAssertTrue(again.err.contains("nothing to rebuild"), again.err)
    }

    /// The app: the feed opens without the damaged post, the status line says so, `:repair` drops it,
    /// and the next start brings it back (two TERM values).
    func testTheAppSaysSoOnceAndRepairs() async throws {
        let (relay, friend, home) = try await synced(posts: 5)
        defer { relay.stop(); home.remove() }
        try home.acceptRequests()
        for term in ["xterm-256color", "tmux-256color"] {
            let all = try home.allPostIDs(friend.session)
            XCTAssertEqual(all.count, 5)
            // The oldest post: the list row (a copy of the newest) still reads, the feed meets the damage.
            try damage(home, "UPDATE posts SET note_enc = randomblob(length(note_enc)) WHERE post_id = '\(all[4])'")
            let tmux = try Tmux()
            try home.startApp(tmux, "d", relay: relay.url, environment: ["TERM": term])
            try tmux.waitFor("d", text: "Sessions", timeout: 30)
            try tmux.keys("d", "Enter")
            let said = try tmux.waitFor("d", text: "1 damaged stored record", timeout: 20)
            XCTAssertTrue(said.contains("example.com/") && !said.contains("loading"), "the other posts show: \(said)")
            try tmux.keys("d", "Escape")
            try tmux.type("d", ":repair")
            try tmux.keys("d", "Enter")
            try tmux.waitFor("d", text: "drop the stored records", timeout: 10)
            try tmux.keys("d", "y")
            try tmux.waitFor("d", text: "dropped 1 damaged record", timeout: 10)
            try tmux.keys("d", "C-c")
            _ = try? tmux.waitFor("d", "the app to quit") { !$0.contains("Sessions") }
            try home.ok(["sync", "--json"])
            XCTAssertEqual(try home.allPostIDs(friend.session), all, "the relay brought it back")
        }
    }
}
