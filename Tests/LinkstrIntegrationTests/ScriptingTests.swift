import Foundation
import LinkstrStorage
import LinkstrTestSupport
import XCTest

/// Issue 33 (9, 10), where scripts meet the CLI: under `--json` every command prints exactly one JSON
/// document (`post` and `session create` printed a bare id, `react` nothing), and failures exit with
/// codes a script can tell apart (every failure was 1).
final class ScriptingTests: XCTestCase {
    /// stdout as one JSON document, or a failure naming the command.
    @discardableResult
    private func document(_ home: Home, _ args: [String], stdin: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let run = try home.run(["--json"] + args, stdin: stdin)
        XCTAssertEqual(run.status, 0, "\(args.joined(separator: " ")): \(run.err)", file: file, line: line)
        do { return try JSONSerialization.jsonObject(with: Data(run.out.utf8)) } catch {
            XCTFail("\(args.joined(separator: " ")) printed no single JSON document: \(run.out)", file: file, line: line)
            throw error
        }
    }

    func testEveryCommandPrintsOneJSONDocument() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home("json-a", relays: [relay.url]), b = try Home("json-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let created = try document(a, ["identity", "create", "--kdf-cost", "10", "--name", "Ann"]) as? [String: Any]
        XCTAssertNotNil(created?["npub"])
        let (bNpub, _) = try b.createIdentity()
        let contact = try document(a, ["contacts", "add", bNpub, "--alias", "Bob"]) as? [String: Any]
        XCTAssertEqual(contact?["npub"] as? String, bNpub)
        let session = try XCTUnwrap((try document(a, ["session", "create", "Films", "--member", bNpub]) as? [String: Any])?["id"] as? String)
        let post = try document(a, ["post", session, "https://example.com/film", "--note", "friday?"]) as? [String: Any]
        let postID = try XCTUnwrap(post?["id"] as? String)
        XCTAssertEqual(post?["url"] as? String, "https://example.com/film")
        XCTAssertEqual(post?["session_id"] as? String, session)
        let reaction = try document(a, ["react", postID, "👍"]) as? [String: Any]
        XCTAssertEqual(reaction?["changed"] as? Bool, true)
        XCTAssertEqual((try document(a, ["react", postID, "👍"]) as? [String: Any])?["changed"] as? Bool, false, "already reacted")
        for args in [["read", postID], ["session", "archive", session], ["session", "unarchive", session], ["identity", "name", "Ann L."],
                     ["relays", "list"], ["contacts", "list"], ["session", "list"], ["posts", session], ["identity", "list"],
                     ["identity", "show"], ["repair", "--check"], ["sync", "--timeout", "10"]] {
            try document(a, args)
        }
        XCTAssertEqual((try document(a, ["delete", postID]) as? [String: Any])?["deleted"] as? Bool, true)
        let export = a.directory.appendingPathComponent("a.linkstrbackup").path
        try document(a, ["backup", "export", export, "--format", "ios"])
        XCTAssertEqual((try document(a, ["identity", "export-secret", "--yes"]) as? [String: Any])?["npub"] as? String, created?["npub"] as? String)
        XCTAssertEqual((try document(a, ["logout"]) as? [String: Any])?["local_data"] as? String, "kept")
    }

    func testFailuresExitWithCodesScriptsCanTellApart() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("codes", relays: [relay.url])
        defer { home.remove() }
        func status(_ args: [String], relays: [String]? = nil) throws -> Int32 { try home.run(args, relays: relays, timeout: 90).status }

        XCTAssertEqual(try status(["posts", "NOSUCHSESSION"]), 66, "no identity yet: not found")
        let (npub, _) = try home.createIdentity()
        XCTAssertEqual(try status(["posts", "NOSUCHSESSION"]), 66, "no such session")
        XCTAssertEqual(try status(["contacts", "add", "npub1notakey"]), 65, "invalid input")
        XCTAssertEqual(try status(["wipe"]), 64, "a missing --yes is a usage error")
        XCTAssertEqual(try status(["no-such-command"]), 64)
        let session = try home.ok(["session", "create", "Codes"]).trimmed
        XCTAssertEqual(try status(["post", session, "not a url"]), 65)

        // Relays that cannot be reached, or that refuse.
        let dead = "ws://127.0.0.1:\(try TestRelay.freePort())"
        XCTAssertEqual(try status(["post", session, "https://example.com/a"], relays: [dead]), 75, "unreachable: retry later")
        XCTAssertEqual(try status(["sync", "--timeout", "2"], relays: [dead]), 75)
        let blocked = try FaultProxy.start(upstream: relay.url, mode: "blocked")
        defer { blocked.stop() }
        XCTAssertEqual(try status(["post", session, "https://example.com/b"], relays: [blocked.url]), 76, "refused by relays")

        // Another linkstr holds the data directory.
        let lock = try DataLock.acquire(DataPaths.resolve(home: home.directory.path))
        XCTAssertEqual(try status(["contacts", "add", npub]), 69, "locked")
        lock.release()
    }
}
