import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (6.7): with the disk full, what arrived was not stored and came back only with the next
/// sync (in the app: a restart), even after space was freed. Now the refused batches are kept and written
/// again on a timer. The disk is filled the way SQLite sees it: `max_page_count` at the file's size, so
/// every write that needs a page fails with "database or disk is full"; raising it frees the disk.
/// On nostr-relay and LocalRelay, live news.
final class StoreRetryTests: XCTestCase {
    func testWhatArrivedWhileTheDiskWasFullIsStoredOnceThereIsRoom() async throws {
        let nostrRelay = try TestRelay()
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        for (name, url) in [("nostr-relay", nostrRelay.url), ("LocalRelay", localRelay.url)] {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-store-retry-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
            let me = SecretKey.generate(), alice = SecretKey.generate()
            let store = try local.account(me, now: Int64(Date().timeIntervalSince1970))
            let sid = LinkstrID.make(SystemRandom()), now = Int64(Date().timeIntervalSince1970)
            func post(_ i: Int) throws -> NostrEvent {
                try PeerWraps.wrap(LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(i)",
                                                  note: String(repeating: "a note long enough to need pages ", count: 45), timestamp: now + Int64(i)),
                                   by: alice, at: now + Int64(i), to: me.publicKey, now: now)
            }
            let create = LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, timestamp: now - 60, sessionName: "Full disk",
                                        memberPubkeys: [alice.publicKey.hex, me.publicKey.hex])
            try await publish([try PeerWraps.wrap(create, by: alice, at: now - 60, to: me.publicKey, now: now), try post(0)], to: url)

            let pool = RelayPool(authSigner: SyncEngine.authSigner(for: me))
            await pool.setRelays([(url, true)])
            let engine = SyncEngine(identity: me, store: store, pool: pool)
            let updates = engine.updates
            try await engine.start()
            let backfilled = await engine.waitForBackfill(timeout: .seconds(60))
            XCTAssertTrue(backfilled, name)
            await engine.flush()
            XCTAssertEqual(try store.postCount(in: sid), 1, name)

            // The disk is full: what comes now cannot be stored.
            let pages = try local.db.scalar("PRAGMA page_count").int ?? 0
            try local.db.serialized { try $0.run("PRAGMA max_page_count = \(pages)") }
            let notices = Task { () -> [String] in
                var said = [String]()
                for await update in updates {
                    if let text = update.enginesWords, text.hasPrefix("could not store") || text.hasPrefix("stored ") { said.append(text) }
                    if said.contains(where: { $0.hasPrefix("stored ") }) { break }
                }
                return said
            }
            try await publish(try (1...40).map(post), to: url)
            try await until("\(name): the refusal") { await engine.stats.storeFailures > 0 }
            // A batch may still fit into the free room of pages the file has: some are refused, not all.
            let before = try store.postCount(in: sid)
            XCTAssertLessThan(before, 41, name)

            // Room again: stored without a new sync.
            try local.db.serialized { try $0.run("PRAGMA max_page_count = 1073741823") }
            try await until("\(name): the posts stored", within: 30) { (try? store.postCount(in: sid)) == 41 }
            let said = await notices.value
            XCTAssertTrue(said.first?.contains("they are kept and stored as soon as there is room.") == true, "\(name): \(said)")
            XCTAssertTrue(said.contains { $0.hasPrefix("stored ") && $0.hasSuffix("that had waited for room.") }, "\(name): \(said)")
            await engine.stop()
        }
    }

    private func until(_ what: String, within seconds: Double = 20, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("timed out waiting for \(what)")
    }

    private func publish(_ events: [NostrEvent], to url: String) async throws {
        let publisher = RelayPool()
        await publisher.setRelays([(url, true)])
        _ = await publisher.waitForWritableRelay()
        if case .failure(let e) = await publisher.publish(events, timeout: .seconds(30)) { XCTFail("publishing: \(e)") }
        await publisher.stop()
    }
}
