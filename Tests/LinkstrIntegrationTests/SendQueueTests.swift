import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// The sealed send queue (issue 49) on real relays: what is done while no relay answers is applied
/// here, queued as the events that will go, survives every process ending, and goes once a relay is
/// back, in order per session, with the ids first built; refused for good goes to failed with the
/// relay's words while the rest drains.
final class SendQueueTests: XCTestCase {
    /// The queue's items as `queue list --json` prints them.
    private func queue(_ home: Home) throws -> [[String: Any]] {
        try home.ok(["queue", "list", "--json"]).json() as! [[String: Any]]
    }

    private func queued(_ home: Home, _ args: [String]) throws -> [String: Any] {
        let out = try home.ok(args + ["--queue", "--json"]).json() as! [String: Any]
        XCTAssertEqual(out["state"] as? String, "queued", "\(args): \(out)")
        return out
    }

    /// Every id of every queued item's events, in queue order.
    private func eventIDs(_ items: [[String: Any]]) -> [String] { items.flatMap { $0["events"] as! [String] } }

    /// On nostr-relay: relay down → a post, a second post, a reaction, a rename and a delete queued (each
    /// command its own process, so every one was a restart); a sync while it is down sends nothing and
    /// loses nothing; relay up → one sync sends all of it once, with the ids built at queueing, and the
    /// other member sees the session as if A had been online.
    func testWhatIsDoneOfflineGoesOnceTheRelayIsBackWithTheSameIDs() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home("queue-a", relays: [relay.url]), b = try Home("queue-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        _ = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        let session = try a.ok(["session", "create", "Train", "--member", bNpub]).trimmed
        relay.stop()

        let first = try queued(a, ["post", session, "https://example.com/one", "--note", "written offline"])
        let firstID = first["post_id"] as! String
        let second = try queued(a, ["post", session, "https://example.com/two"])
        let secondID = second["post_id"] as! String
        _ = try queued(a, ["react", firstID, "👍"])
        _ = try queued(a, ["session", "rename", session, "Train home"])
        _ = try queued(a, ["delete", secondID])
        // Applied here at once: the first post with our reaction, the second gone, the new name.
        let posts = try a.posts(session)
        XCTAssertEqual(posts.map { $0["id"] as! String }, [firstID])
        XCTAssertEqual(((posts[0]["reactions"] as! [[String: Any]]).first)?["emoji"] as? String, "👍")
        XCTAssertEqual(try a.sessions().first { $0["id"] as? String == session }?["name"] as? String, "Train home")

        let items = try queue(a)
        XCTAssertEqual(items.map { $0["kind"] as! String }, ["post", "post", "reaction", "session-rename", "post-delete"])
        XCTAssertEqual(Set(items.map { $0["state"] as! String }), ["queued"])
        let ids = eventIDs(items)
        XCTAssertEqual(ids.count, 10, "two wraps (B and us) per action")

        // Still down: the sync says what waits and keeps it, the same events.
        let offline = try a.run(["sync", "--json", "--timeout", "3"])
        XCTAssertEqual(offline.status, 75, offline.err)
        XCTAssertEqual(eventIDs(try queue(a)), ids, "nothing lost, nothing rebuilt")

        try relay.start()
        let synced = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(synced["queue_sent"] as? Int, 5, "\(synced)")
        XCTAssertEqual(synced["queue_waiting"] as? Int, 0)
        XCTAssertEqual(synced["queue_failed"] as? Int, 0)
        XCTAssertEqual(try queue(a).count, 0)
        let onRelay = try RustNostrPeer.query(relay: relay.url, filter: ["ids": ids])
        XCTAssertEqual(Set(onRelay.map { $0["id"] as! String }), Set(ids), "every event as first built, once")

        _ = try b.sync()
        XCTAssertEqual(try b.acceptRequests(), [session])
        XCTAssertEqual(try b.posts(session).map { $0["id"] as! String }, [firstID], "the second post was deleted after it")
        XCTAssertEqual(((try b.posts(session)[0]["reactions"] as! [[String: Any]]).first)?["emoji"] as? String, "👍")
        XCTAssertEqual(try b.sessions().first { $0["id"] as? String == session }?["name"] as? String, "Train home")
        // A second sync sends nothing more.
        let again = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(again["queue_sent"] as? Int, 0)
    }

    /// On rust-nostr's LocalRelay, with a session made offline: the session's create goes before the post
    /// in it, and rust-nostr (the iOS-shaped peer) opens both as the iOS app would.
    func testASessionMadeOfflineGoesBeforeItsPostsOnLocalRelay() throws {
        let relay = try RustRelay.start()
        let dead = "ws://127.0.0.1:\(try TestRelay.freePort())"
        let a = try Home("queue-rust", relays: [dead])
        defer { a.remove() }
        let (_, aHex) = try a.createIdentity()
        let peer = SecretKey.generate()
        let made = try queued(a, ["session", "create", "Offline club", "--member", peer.publicKey.npub])
        let session = made["session_id"] as! String
        let post = try queued(a, ["post", session, "https://example.com/first", "--note", "made on a train"])["post_id"] as! String
        let ids = eventIDs(try queue(a))
        let refused = try a.run(["sync", "--json", "--timeout", "3"])
        XCTAssertEqual(refused.status, 75)
        let synced = try a.ok(["sync", "--json"], relays: [relay.url]).json() as! [String: Any]
        XCTAssertEqual(synced["queue_sent"] as? Int, 2, "\(synced)")
        let onRelay = try RustNostrPeer.query(relay: relay.url, filter: ["ids": ids])
        XCTAssertEqual(Set(onRelay.map { $0["id"] as! String }), Set(ids))
        let seen = try RustNostrPeer.fetch(relay: relay.url, recipient: peer)
        XCTAssertEqual(seen.errors, [])
        XCTAssertTrue(seen.gifts.allSatisfy { $0["sender"] as? String == aHex })
        let kinds = try seen.gifts.map { gift -> String in
            let rumor = gift["rumor"] as! [String: Any]
            let payload = try JSONSerialization.jsonObject(with: Data((rumor["content"] as! String).utf8)) as! [String: Any]
            return payload["kind"] as! String
        }
        XCTAssertEqual(Set(kinds), ["session_create", "root"])
        XCTAssertTrue(seen.gifts.contains { ($0["rumor"] as! [String: Any])["id"] as? String == post })
        // The create went before the post: the relay saw the create's wraps first.
        let createdAt = Dictionary(uniqueKeysWithValues: onRelay.map { ($0["id"] as! String, $0) })
        XCTAssertEqual(createdAt.count, 4)
    }

    /// A relay that refuses one queued item with `invalid:`: that item goes to failed with the relay's
    /// words and is never tried again by itself; everything after it goes; retry and cancel act on it.
    func testAnItemRefusedForGoodFailsWithTheReasonAndTheRestDrains() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let refusals = FileManager.default.temporaryDirectory.appendingPathComponent("refuse-\(UUID().uuidString)")
        defer { removeTemporary(refusals) }
        try Data().write(to: refusals)
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "refuse", argument: refusals.path)
        let a = try Home("queue-refused", relays: [proxy.url])
        defer { a.remove() }
        _ = try a.createIdentity()
        let session = try a.ok(["session", "create", "Refusals"]).trimmed
        let bad = try queued(a, ["post", session, "https://example.com/refused"])["post_id"] as! String
        let good = try queued(a, ["post", session, "https://example.com/fine"])["post_id"] as! String
        let items = try queue(a)
        try ((items[0]["events"] as! [String]).joined(separator: "\n") + "\n").write(to: refusals, atomically: true, encoding: .utf8)

        let synced = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(synced["queue_sent"] as? Int, 1, "\(synced)")
        XCTAssertEqual(synced["queue_failed"] as? Int, 1)
        let left = try queue(a)
        XCTAssertEqual(left.count, 1)
        XCTAssertEqual(left[0]["post_id"] as? String, bad)
        XCTAssertEqual(left[0]["state"] as? String, "failed")
        XCTAssertTrue((left[0]["last_reason"] as? String ?? "").contains("invalid: this event is not allowed here"), "\(left)")
        let onRelay = try RustNostrPeer.query(relay: relay.url, filter: ["ids": items[1]["events"] as! [String]])
        XCTAssertEqual(onRelay.count, 1, "the good post went (its self-copy; no other member)")
        XCTAssertTrue(try a.ok(["doctor"]).out.contains("send queue: 1 item was refused for good"))
        // A failed item waits for the user: a sync does not try it again.
        let quiet = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(quiet["queue_sent"] as? Int, 0)
        XCTAssertEqual(try queue(a)[0]["attempts"] as? Int, 1)
        // Retried while the relay still refuses it: failed again, one more attempt.
        try a.ok(["queue", "retry", String(left[0]["id"] as! Int), "--now"])
        XCTAssertEqual(try queue(a)[0]["attempts"] as? Int, 2)
        // Cancelled: gone from the queue and from the feed; the good post stays.
        let cancelled = try a.ok(["queue", "cancel", String(left[0]["id"] as! Int)]).trimmed
        XCTAssertEqual(cancelled, "cancelled: the post will not be sent, and is gone from this device.")
        XCTAssertEqual(try queue(a).count, 0)
        XCTAssertEqual(try a.posts(session).map { $0["id"] as! String }, [good])
        let missing = try a.run(["queue", "cancel", "99"])
        XCTAssertEqual(missing.status, 66)
    }

    /// `linkstr sync` SIGKILLed at several points of a drain of 16 queued posts through a relay that takes
    /// 150 ms to confirm each: after each kill, what is on the relay and what is still queued make up every
    /// event as first built, and some kill landed mid-drain; the sync after the last kill sends the rest;
    /// the relay never holds a wrap of ours that was not built at queueing.
    func testSIGKILLMidDrainLosesNothingAndSendsNothingUnderNewIDs() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home("queue-kill", relays: [relay.url])
        defer { a.remove() }
        try a.writeConfig("link_previews = false\n")
        let me = try a.createIdentity()
        let session = try a.ok(["session", "create", "Kill"]).trimmed
        let before = Set(try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [1059], "#p": [me.hex]]).map { $0["id"] as! String })
        let dead = "ws://127.0.0.1:\(try TestRelay.freePort())"
        for i in 0..<16 { _ = try a.ok(["post", session, "https://example.com/\(i)", "--queue", "--json"], relays: [dead]) }
        let all = Set(eventIDs(try queue(a)))
        XCTAssertEqual(all.count, 16)
        let slow = try FaultProxy.start(upstream: relay.url, mode: "slow", argument: "150")

        var kills = 0, midDrain = 0
        for delay in [0.8, 1.2, 1.6, 2.0, 2.4] {
            let process = try a.startSync(at: a.directory, relay: slow.url)
            usleep(UInt32(delay * 1_000_000))
            guard process.isRunning else { process.waitUntilExit(); break }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += 1
            let onRelay = Set(try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [1059], "#p": [me.hex]]).map { $0["id"] as! String })
            let sent = onRelay.subtracting(before), waiting = Set(eventIDs(try queue(a)))
            XCTAssertTrue(sent.isSubset(of: all), "nothing under new ids after kill \(kills)")
            XCTAssertEqual(sent.union(waiting), all, "nothing lost after kill \(kills)")
            if !sent.isEmpty && !waiting.isEmpty { midDrain += 1 }
        }
        XCTAssertGreaterThan(midDrain, 0, "some kill landed mid-drain (\(kills) kills)")
        let finished = try a.ok(["sync", "--json"], relays: [slow.url]).json() as! [String: Any]
        XCTAssertEqual(finished["queue_waiting"] as? Int, 0, "\(finished)")
        let onRelay = Set(try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [1059], "#p": [me.hex]]).map { $0["id"] as! String })
        XCTAssertEqual(onRelay.subtracting(before), all, "every post once, as first built, after \(kills) kills")
        XCTAssertEqual(try a.posts(session).count, 16)
        print("send queue kills: \(kills) SIGKILLs, \(midDrain) mid-drain, during a drain of 16 posts at 150 ms a confirmation")
    }

    /// One key on two devices, each queuing while offline, then both online (on LocalRelay): both sets
    /// arrive on both devices and at the other member, each once.
    func testTwoDevicesWithOneKeyQueuingOfflineBothArriveOnce() throws {
        let relay = try RustRelay.start()
        let phone = try Home("queue-one", relays: [relay.url]), laptop = try Home("queue-two", relays: [relay.url])
        let b = try Home("queue-member", relays: [relay.url])
        defer { phone.remove(); laptop.remove(); b.remove() }
        _ = try phone.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        let nsec = try phone.ok(["identity", "export-secret", "--yes"]).trimmed
        try laptop.ok(["identity", "import", "--kdf-cost", "10"], stdin: nsec + "\n")
        let session = try phone.ok(["session", "create", "Both", "--member", bNpub]).trimmed
        _ = try laptop.sync()
        let dead = "ws://127.0.0.1:\(try TestRelay.freePort())"
        var mine = [String]()
        for (home, name) in [(phone, "phone"), (laptop, "laptop")] {
            for i in 0..<2 {
                let out = try home.ok(["post", session, "https://example.com/\(name)/\(i)", "--queue", "--json"], relays: [dead]).json()
                mine.append((out as! [String: Any])["post_id"] as! String)
            }
        }
        // Both online at the same moment.
        let syncs = try [phone, laptop].map { try $0.startSync(at: $0.directory, relay: relay.url) }
        for process in syncs {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        XCTAssertEqual(try queue(phone).count + queue(laptop).count, 0, "both queues drained")
        _ = try b.sync()
        _ = try b.acceptRequests()
        for home in [phone, laptop, b] {
            _ = try home.sync()
            XCTAssertEqual(try home.allPostIDs(session).sorted(), mine.sorted(), "each post once, everywhere")
        }
    }

    /// A contact added and removed while the relay is down: each edit is made when it goes, on the newest
    /// list the relay holds (never on a list built offline), and the contact appears once it went.
    func testContactEditsQueuedOfflineAreMadeOnTheNewestListWhenTheyGo() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home("queue-contacts", relays: [relay.url]), b = try Home("queue-contact-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (_, aHex) = try a.createIdentity()
        let (bNpub, bHex) = try b.createIdentity()
        relay.stop()
        let added = try queued(a, ["contacts", "add", bNpub, "--alias", "Bob"])
        XCTAssertNotNil(added["id"] as? Int)
        let items = try queue(a)
        XCTAssertEqual(items.map { $0["kind"] as? String }, ["contact-add"])
        XCTAssertEqual(items.first?["contact"] as? String, bHex)
        XCTAssertTrue(items.first?["session_id"] is NSNull)
        XCTAssertEqual(try a.run(["read", "--queue", "nothing-such"]).status, 66, "read takes --queue (a missing id: 66, not a usage error)")

        try relay.start()
        let synced = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(synced["queue_sent"] as? Int, 1, "\(synced)")
        let contacts = try a.ok(["contacts", "list", "--json"]).json() as! [[String: Any]]
        XCTAssertEqual(contacts.map { $0["pubkey"] as? String }, [bHex])
        XCTAssertEqual(contacts.first?["alias"] as? String, "Bob")
        let lists = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [3], "authors": [aHex]])
        XCTAssertEqual(lists.count, 1)
        XCTAssertTrue((lists.first?["tags"] as? [[String]] ?? []).contains(["p", bHex]))

        _ = try queued(a, ["contacts", "remove", bNpub])
        XCTAssertEqual((try a.ok(["contacts", "list", "--json"]).json() as! [[String: Any]]).count, 1, "removed once it went")
        let again = try a.ok(["sync", "--json"]).json() as! [String: Any]
        XCTAssertEqual(again["queue_sent"] as? Int, 1, "\(again)")
        XCTAssertEqual((try a.ok(["contacts", "list", "--json"]).json() as! [[String: Any]]).count, 0)
    }
}
