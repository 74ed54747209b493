import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `.linkstrbackup` files end to end (wire 2026 §8): a file written as the iOS app writes it (built by
/// the rust-nostr peer: its own JSON, dates, base64 and signed preference records) restored through the
/// CLI, the session going on over a real relay, and exports read back.
final class BackupInteropTests: XCTestCase {
    let phone = SecretKey.generate(), bob = SecretKey.generate(), carol = SecretKey.generate()
    var me: String { phone.publicKey.hex }
    let t0 = Int64(Date().timeIntervalSince1970) - 3600

    /// The phone's state: "Films" (ours, with bob; carol was a member for a while) with three posts, one
    /// read and one reacted to; "Bob's" (archived by a preference record); bob's alias on the phone.
    func iosBackup(relay: String, overrides: [String: Any] = [:], creatorOfFilms: String? = nil) throws -> [String: Any] {
        let b = bob.publicKey.hex, c = carol.publicKey.hex
        var request: [String: Any] = [
            "secret": phone.revealHex(), "created_at": t0 + 3000,
            "relays": [["url": relay, "enabled": true, "createdAt": t0]],
            "account": ["followDate": t0 + 5, "followID": String(repeating: "f", count: 64), "followTags": [["p", b], ["p", c, "wss://hint.example"]],
                        "profileName": "Phone me", "profileContent": #"{"name":"Phone me"}"#, "profileDate": t0, "profileID": String(repeating: "e", count: 64),
                        "createdAt": t0, "updatedAt": t0 + 3000],
            "sessions": [
                ["id": "FILMS-1", "name": "Films", "creator": creatorOfFilms ?? me, "createdAt": t0, "updatedAt": t0 + 200, "archived": false,
                 "membershipDate": t0 + 200, "membershipID": String(repeating: "a", count: 64)],
                ["id": "BOBS-2", "name": "Bob's", "creator": b, "createdAt": t0 + 1, "updatedAt": t0 + 1, "archived": false],
            ],
            "posts": [
                ["id": "POST-A", "sessionID": "FILMS-1", "sender": b, "receiver": me, "url": "https://example.com/a", "note": "from bob",
                 "timestamp": t0 + 10, "archived": false, "readAt": t0 + 20, "transportIDs": [String(repeating: "1", count: 64)]],
                ["id": "POST-B", "sessionID": "FILMS-1", "sender": c, "receiver": me, "url": "https://example.com/b",
                 "timestamp": t0 + 150, "archived": false, "transportIDs": []],
                ["id": "POST-C", "sessionID": "FILMS-1", "sender": me, "receiver": me, "url": "https://example.com/c",
                 "timestamp": t0 + 300, "archived": false, "transportIDs": []],
                ["id": "POST-Q", "sessionID": "BOBS-2", "sender": b, "receiver": me, "url": "https://example.com/q",
                 "timestamp": t0 + 30, "archived": false, "transportIDs": []],
            ],
            "members": [["sessionID": "FILMS-1", "pubkey": me, "active": true, "createdAt": t0, "updatedAt": t0],
                        ["sessionID": "FILMS-1", "pubkey": b, "active": true, "createdAt": t0, "updatedAt": t0],
                        ["sessionID": "FILMS-1", "pubkey": c, "active": false, "createdAt": t0 + 100, "updatedAt": t0 + 200],
                        ["sessionID": "BOBS-2", "pubkey": b, "active": true, "createdAt": t0 + 1, "updatedAt": t0 + 1],
                        ["sessionID": "BOBS-2", "pubkey": me, "active": true, "createdAt": t0 + 1, "updatedAt": t0 + 1]],
            "intervals": [["sessionID": "FILMS-1", "pubkey": me, "start": t0], ["sessionID": "FILMS-1", "pubkey": b, "start": t0],
                          ["sessionID": "FILMS-1", "pubkey": c, "start": t0 + 100, "end": t0 + 200],
                          ["sessionID": "BOBS-2", "pubkey": b, "start": t0 + 1], ["sessionID": "BOBS-2", "pubkey": me, "start": t0 + 1]],
            "reactions": [["sessionID": "FILMS-1", "postID": "POST-C", "pubkey": b, "emoji": "🔥", "active": true, "updatedAt": t0 + 310,
                           "eventID": String(repeating: "b", count: 64)]],
            "deletions": [],
            "contacts": [["pubkey": b, "alias": "Bobby", "createdAt": t0, "profileName": "Robert", "profileDate": t0, "profileID": String(repeating: "d", count: 64)],
                         ["pubkey": c, "createdAt": t0]],
            "follows": [["pubkey": b, "follows": true, "updatedAt": t0, "eventID": String(repeating: "c", count: 64)]],
            "preferences": [
                ["plaintext": #"{"alias":{"pubkey":"\#(b)","name":"Bob on the phone"}}"#, "key": "alias:" + b, "created_at": t0 + 400],
                ["plaintext": #"{"archive":{"sessionID":"BOBS-2","archived":true}}"#, "key": "archive:BOBS-2", "created_at": t0 + 401, "pending": true],
            ],
        ]
        request["overrides"] = overrides
        return try RustNostrPeer.call("ios-backup", request)
    }

    func write(_ object: [String: Any], _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).linkstrbackup")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url
    }

    func testAnIOSBackupRestoresHereAndTheSessionGoesOn() throws {
        let nostrRelay = try TestRelay(), rustRelay = try RustRelay.start()
        for relay in [nostrRelay.url, rustRelay.url] {
            let file = try write(try iosBackup(relay: relay), "ios")
            let home = try Home("restore", relays: [relay])
            defer { home.remove(); try? FileManager.default.removeItem(at: file) }
            let restored = try home.ok(["backup", "import", file.path, "--kdf-cost", "10", "--json"]).json() as! [String: Any]
            XCTAssertEqual(restored["pubkey"] as? String, me)
            XCTAssertEqual(restored["sessions_added"] as? Int, 2)
            XCTAssertEqual(restored["posts_added"] as? Int, 4)
            XCTAssertEqual(try home.ok(["identity", "show"]).trimmed.split(separator: "\n").last.map(String.init), me)

            // The phone's state, here.
            XCTAssertEqual(try home.sessions().compactMap { $0["name"] as? String }, ["Films"])
            XCTAssertEqual(try home.sessions(archived: true).compactMap { $0["name"] as? String }, ["Bob's"], "the archive record applies")
            let posts = try home.posts("FILMS-1")
            XCTAssertEqual(posts.compactMap { $0["id"] as? String }, ["POST-C", "POST-B", "POST-A"])
            XCTAssertEqual(posts.compactMap { $0["unread"] as? Bool }, [false, true, false], "read on the phone, read here")
            let contacts = try home.ok(["contacts", "list", "--json"]).json() as! [[String: Any]]
            XCTAssertEqual(contacts.first { $0["pubkey"] as? String == bob.publicKey.hex }?["alias"] as? String, "Bob on the phone")
            XCTAssertEqual((try home.ok(["relays", "list", "--json"], relays: []).json() as! [[String: Any]]).compactMap { $0["url"] as? String }, [relay])
            // Nothing was published by the restore.
            XCTAssertEqual(try RustNostrPeer.query(relay: relay, filter: ["authors": [me]]).count, 0)

            // The session goes on: bob posts from his phone; carol, removed on the phone, cannot.
            let post = #"{"conversation_id":"FILMS-1","root_id":"","kind":"root","url":"https://example.com/after","timestamp":\#(t0 + 3500)}"#
            try RustNostrPeer.send(relay: relay, sender: bob, to: [phone.publicKey], content: post, at: t0 + 3500)
            let late = #"{"conversation_id":"FILMS-1","root_id":"","kind":"root","url":"https://example.com/late","timestamp":\#(t0 + 3501)}"#
            try RustNostrPeer.send(relay: relay, sender: carol, to: [phone.publicKey], content: late, at: t0 + 3501)
            _ = try home.sync()
            let urls = try home.posts("FILMS-1").compactMap { $0["url"] as? String }
            XCTAssertEqual(urls.first, "https://example.com/after", relay)
            XCTAssertFalse(urls.contains("https://example.com/late"), "the restored timeline gates carol out")
        }
    }

    func testExportsReadBackAndTheSealedOneNeedsItsPassphrase() throws {
        let relay = try TestRelay()
        let source = try Home("export", relays: [relay.url])
        let fresh = try Home("export-ios", relays: [relay.url]), sealedHome = try Home("export-sealed", relays: [relay.url])
        let file = try write(try iosBackup(relay: relay.url), "ios")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("exports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { for h in [source, fresh, sealedHome] { h.remove() }; try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(at: dir) }
        try source.ok(["backup", "import", file.path, "--kdf-cost", "10"])

        // The iOS form: a warning, a private file, never written over.
        let ios = dir.appendingPathComponent("plain.linkstrbackup").path
        let written = try source.ok(["backup", "export", ios, "--format", "ios"])
        XCTAssertTrue(written.err.contains("holds your secret key (nsec) in plain text"), written.err)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: ios)[.posixPermissions] as! NSNumber).intValue & 0o777, 0o600)
        let again = try source.run(["backup", "export", ios, "--format", "ios"])
        XCTAssertEqual(again.status, 65)
        XCTAssertTrue(again.err.contains("exists already"), again.err)
        // It reads as the iOS app reads it: dates after 2001 as numbers, the owner, the relay list.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ios))) as! [String: Any]
        XCTAssertEqual(object["owner"] as? String, me)
        XCTAssertEqual((object["sessions"] as? [[String: Any]])?.first { $0["id"] as? String == "FILMS-1" }?["createdAt"] as? Double, Double(t0 - 978_307_200))
        try fresh.ok(["backup", "import", ios, "--kdf-cost", "10"])
        XCTAssertEqual(try fresh.posts("FILMS-1").compactMap { $0["id"] as? String }, try source.posts("FILMS-1").compactMap { $0["id"] as? String })
        XCTAssertEqual(try fresh.sessions(archived: true).compactMap { $0["id"] as? String }, ["BOBS-2"])

        // The sealed form: nothing readable; the wrong passphrase changes nothing.
        let sealed = dir.appendingPathComponent("sealed.linkstrbackup").path
        try source.ok(["backup", "export", sealed, "--kdf-cost", "10"], environment: ["LINKSTR_BACKUP_PASSPHRASE": "backup words"])
        let bytes = try String(contentsOfFile: sealed, encoding: .utf8)
        for secret in ["Films", "example.com", "Bob on the phone", phone.revealNsec(), bob.publicKey.hex] { XCTAssertFalse(bytes.contains(secret), secret) }
        let wrong = try sealedHome.run(["backup", "import", sealed, "--kdf-cost", "10"], environment: ["LINKSTR_BACKUP_PASSPHRASE": "other words"])
        XCTAssertEqual(wrong.status, 65)
        XCTAssertTrue(wrong.err.contains("wrong passphrase, or the backup is damaged."), wrong.err)
        XCTAssertEqual(try sealedHome.ok(["identity", "list"]).trimmed, "", "no identity left behind")
        try sealedHome.ok(["backup", "import", sealed, "--kdf-cost", "10"], environment: ["LINKSTR_BACKUP_PASSPHRASE": "backup words"])
        XCTAssertEqual(try sealedHome.posts("FILMS-1").compactMap { $0["id"] as? String }, try source.posts("FILMS-1").compactMap { $0["id"] as? String })
    }

    func testBrokenOrConflictingBackupsAreRefusedAndChangeNothing() throws {
        let relay = try TestRelay()
        let home = try Home("refused", relays: [relay.url])
        var files: [URL] = []
        defer { home.remove(); for f in files { try? FileManager.default.removeItem(at: f) } }
        func refused(_ object: [String: Any], _ expected: String, line: UInt = #line) throws {
            let file = try write(object, "bad")
            files.append(file)
            let r = try home.run(["backup", "import", file.path, "--kdf-cost", "10"])
            XCTAssertEqual(r.status, 65, line: line)
            XCTAssertTrue(r.err.contains(expected), "\(r.err)", line: line)
        }
        try refused(try iosBackup(relay: relay.url, overrides: ["version": 2]), "update linkstr to restore this backup.")
        // A preference record signed by someone else, and one whose content is not what its d tag says.
        let foreign = try RustNostrPeer.call("preference", ["secret": bob.revealHex(), "plaintext": "{}", "key": "alias:x", "created_at": t0])
        try refused(try iosBackup(relay: relay.url, overrides: ["preferences": [["event": Data(try JSONSerialization.data(withJSONObject: foreign)).base64EncodedString(), "pending": false]]]),
                    "preferences[0] is refused: not a kind 30078 event of this account.")
        try refused(try iosBackup(relay: relay.url, overrides: ["follows": [["pubkey": "NOT-HEX", "follows": true, "updatedAt": 1.0, "eventID": "x"]]]),
                    "follows[0].pubkey is not a public key in lowercase hex.")
        try refused(try iosBackup(relay: relay.url, overrides: ["posts": [["id": "P", "sessionID": "FILMS-1", "sender": bob.publicKey.hex, "receiver": me,
                                                                         "url": "linkstr://open?url=https://example.com", "timestamp": 1.0, "archived": false, "transportIDs": []]]]),
                    "posts[0].url is not a normalized web address.")
        XCTAssertEqual(try home.ok(["identity", "list"]).trimmed, "", "nothing was stored")
        // Over 128 MiB: refused before it is read (a sparse file).
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).linkstrbackup")
        files.append(huge)
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(BackupLimits.fileBytes) + 1)
        try handle.close()
        let big = try home.run(["backup", "import", huge.path])
        XCTAssertEqual(big.status, 65)
        XCTAssertTrue(big.err.contains("backup too large"), big.err)

        // A conflict with what is here: the same session with another creator. Nothing changes.
        try home.ok(["backup", "import", try write(try iosBackup(relay: relay.url), "ok").path, "--kdf-cost", "10"])
        let before = try home.posts("FILMS-1").count
        try refused(try iosBackup(relay: relay.url, creatorOfFilms: carol.publicKey.hex), "session FILMS-1 has another creator here. nothing was restored.")
        XCTAssertEqual(try home.posts("FILMS-1").count, before)
        XCTAssertEqual(try home.sessions().compactMap { $0["name"] as? String }, ["Films"])
    }

    /// The terminal app's onboarding restores a sealed backup: a wrong passphrase is said at once, the
    /// right one leads to the passphrase for the key here, then the restored sessions.
    func testTheAppRestoresASealedBackupAtOnboarding() throws {
        let relay = try TestRelay()
        let source = try Home("tui-source", relays: [relay.url]), target = try Home("tui-restore", relays: [relay.url])
        let file = try write(try iosBackup(relay: relay.url), "ios")
        let sealed = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString).linkstrbackup")
        defer { source.remove(); target.remove(); try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(at: sealed) }
        try source.ok(["backup", "import", file.path, "--kdf-cost", "10"])
        try source.ok(["backup", "export", sealed.path, "--kdf-cost", "10"], environment: ["LINKSTR_BACKUP_PASSPHRASE": "backup words"])
        try target.writeConfig("link_previews = false\n")

        let tmux = try Tmux()
        try target.startApp(tmux, "restore", relay: relay.url, passphrase: "")
        try tmux.waitFor("restore", text: "Restore a backup")
        try tmux.keys("restore", "b")
        try tmux.waitFor("restore", text: "The path of a .linkstrbackup file")
        try tmux.submit("restore", sealed.path)
        try tmux.waitFor("restore", text: "This backup is sealed")
        try tmux.submit("restore", "other words")
        var screen = try tmux.waitFor("restore", text: "wrong passphrase, or the backup is damaged.", timeout: 30)
        XCTAssertFalse(screen.contains("other words"), "the passphrase is never shown")
        try tmux.keys("restore", "C-u")
        try tmux.submit("restore", "backup words")
        screen = try tmux.waitFor("restore", text: "The backup is fine", timeout: 30)
        XCTAssertTrue(screen.contains(phone.publicKey.npub), screen)
        try tmux.submit("restore", Home.passphrase)
        try tmux.submit("restore", Home.passphrase)
        screen = try tmux.waitFor("restore", text: "backup restored: 2 new sessions, 4 new posts.", timeout: 30)
        XCTAssertTrue(screen.contains("Films"), screen)
        XCTAssertFalse(screen.contains("Bob's"), "archived on the phone, archived here")

        // And out again from the app: sealed (the passphrase twice), and the iOS file (after a warning).
        let sealedAgain = sealed.path + ".again", plain = sealed.path + ".ios"
        defer { try? FileManager.default.removeItem(atPath: sealedAgain); try? FileManager.default.removeItem(atPath: plain) }
        try tmux.keys("restore", ":")
        try tmux.submit("restore", "export " + sealedAgain)
        try tmux.waitFor("restore", text: "Export a sealed backup")
        try tmux.submit("restore", "other words")
        try tmux.submit("restore", "other words")
        try tmux.waitFor("restore", text: "backup written to", timeout: 30)
        try tmux.keys("restore", ":")
        try tmux.submit("restore", "export-ios " + plain)
        try tmux.waitFor("restore", text: "holds your secret key in plain text")
        try tmux.keys("restore", "y")
        try tmux.waitFor("restore", "the iOS file written", timeout: 30) { _ in
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plain)))) != nil
        }
        try tmux.keys("restore", "C-c")
        let third = try Home("tui-third", relays: [relay.url])
        defer { third.remove() }
        try third.ok(["backup", "import", sealedAgain, "--kdf-cost", "10"], environment: ["LINKSTR_BACKUP_PASSPHRASE": "other words"])
        XCTAssertEqual(try third.posts("FILMS-1").count, 3)
        let ios = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plain))) as! [String: Any]
        XCTAssertEqual(ios["owner"] as? String, me)
        XCTAssertEqual(try target.ok(["identity", "show"]).trimmed.split(separator: "\n").last.map(String.init), me)
        XCTAssertEqual(try target.posts("FILMS-1").compactMap { $0["id"] as? String }, ["POST-C", "POST-B", "POST-A"])
    }
}
