import Foundation
import LinkstrTestSupport
import XCTest

/// `linkstr sync --follow --json` as an event stream (issue 51, item 3): peers' actions arrive as lines
/// in order, each valid JSON with its type and time; a reader that goes (`| head -1`) ends it cleanly;
/// SIGTERM ends it with exit 0 after the summary.
final class SyncEventStreamTests: XCTestCase {
    private func follow(_ home: Home, relay: String, seconds: Int, output: URL) throws -> Process {
        try home.start(["sync", "--follow", "--json", "--timeout", String(seconds)], relay: relay, stdout: output)
    }

    private func lines(_ file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw HarnessFailure(description: "not a JSON object: \(line)")
            }
            return object
        }
    }

    /// Waits until a line of `type` (and `where`) is in the file.
    private func waitForLine(_ file: URL, _ type: String, timeout: TimeInterval = 20, where match: ([String: Any]) -> Bool = { _ in true }) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let all = try? lines(file), all.contains(where: { $0["type"] as? String == type && match($0) }) { return }
            usleep(100_000)
        }
        throw HarnessFailure(description: "no \(type) line in \(timeout) s: \((try? String(contentsOf: file, encoding: .utf8)) ?? "")")
    }

    func testPeersActionsArriveAsTypedLinesInOrder() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("stream-ann", relays: [relay.url]), bob = try Home("stream-bob", relays: [relay.url]), eve = try Home("stream-eve", relays: [relay.url])
        defer { [ann, bob, eve].forEach { $0.remove() } }
        let (annNpub, _) = try ann.createIdentity()
        let (bobNpub, bobHex) = try bob.createIdentity()
        _ = try eve.createIdentity()
        try ann.ok(["contacts", "add", bobNpub])
        let own = try ann.ok(["session", "create", "Mine"]).trimmed
        // Queued while no relay answers: the follow's sync sends it ("sent").
        let queued = try ann.ok(["post", own, "https://example.com/queued", "--queue", "--json"], relays: ["ws://127.0.0.1:\(try TestRelay.freePort())"])
            .json() as! [String: Any]

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).ndjson")
        defer { removeTemporary(out) }
        let process = try follow(ann, relay: relay.url, seconds: 25, output: out)
        try waitForLine(out, "sent")
        let films = try bob.ok(["session", "create", "Films", "--member", annNpub]).trimmed
        try waitForLine(out, "session") { $0["id"] as? String == films && $0["change"] as? String == "created" }
        let post = try bob.ok(["post", films, "https://example.com/film", "--note", "tonight"]).trimmed
        try waitForLine(out, "post") { $0["id"] as? String == post }
        try bob.ok(["session", "rename", films, "Film club"])
        try waitForLine(out, "session") { $0["change"] as? String == "renamed" }
        try bob.ok(["react", post, "🔥"])
        try waitForLine(out, "reaction")
        let gone = try bob.ok(["post", films, "https://example.com/oops"]).trimmed
        try waitForLine(out, "post") { $0["id"] as? String == gone }
        try bob.ok(["delete", gone])
        try waitForLine(out, "post_deleted") { $0["id"] as? String == gone }
        let spam = try eve.ok(["session", "create", "Free stuff", "--member", annNpub]).trimmed
        try waitForLine(out, "request") { $0["id"] as? String == spam }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, "SIGTERM ends the follow cleanly")

        let all = try lines(out)
        XCTAssertNotNil(all.last?["complete"], "the summary is the last line: \(all.last ?? [:])")
        let events = all.dropLast().filter { $0["type"] as? String != "ingested" && $0["type"] as? String != "relay" }
        XCTAssertEqual(events.map { $0["type"] as! String }, ["sent", "session", "post", "session", "reaction", "post", "post_deleted", "request"],
                       "\(events)")
        for event in all.dropLast() { XCTAssertNotNil(event["at"] as? String ?? (event["type"] as? String == "ingested" ? "" : nil), "\(event)") }
        XCTAssertEqual(events[0]["post_id"] as? String, queued["post_id"] as? String)
        XCTAssertEqual(events[0]["kind"] as? String, "post")
        XCTAssertEqual(events[2]["url"] as? String, "https://example.com/film")
        XCTAssertEqual(events[2]["note"] as? String, "tonight")
        XCTAssertEqual(events[3]["name"] as? String, "Film club")
        XCTAssertEqual(events[4]["emoji"] as? String, "🔥")
        XCTAssertEqual(events[4]["author_pubkey"] as? String, bobHex)
        XCTAssertTrue(all.contains { $0["type"] as? String == "relay" && $0["status"] as? String == "connected" })
        let iso = try XCTUnwrap(events[2]["at"] as? String)
        XCTAssertNotNil(ISO8601DateFormatter().date(from: iso), iso)
    }

    /// `| head -1`: the reader goes after one line; the stream sees it gone (even with nothing more to
    /// write) and ends, exit 0, long before its deadline.
    func testAReaderThatGoesEndsTheStreamCleanly() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let ann = try Home("stream-head", relays: [relay.url])
        defer { ann.remove() }
        _ = try ann.createIdentity()
        let started = Date()
        let shell = "set -o pipefail; LINKSTR_PASSPHRASE='\(Home.passphrase)' '\(ann.binary.path)' --home '\(ann.directory.path)' --relay '\(relay.url)' sync --follow --json --timeout 120 | head -1"
        let r = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell], timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderrText)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "ended at the second line, not at its 120 s deadline")
        let first = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        XCTAssertNotNil(first?["type"], "one whole JSON line: \(String(decoding: r.stdout, as: UTF8.self))")
    }
}
