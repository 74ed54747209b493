import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Two and three homes sharing sessions through a real relay, all through the CLI.
final class CLIFlowTests: XCTestCase {
    func testSessionLifecycleAcrossThreeHomes() throws {
        let relay = try TestRelay()
        let a = try Home("a", relays: [relay.url]), b = try Home("b", relays: [relay.url]), c = try Home("c", relays: [relay.url])
        defer { [a, b, c].forEach { $0.remove() } }
        let (_, aHex) = try a.createIdentity()
        let (bNpub, bHex) = try b.createIdentity()
        let (cNpub, cHex) = try c.createIdentity()

        // A creates a session with B.
        let session = try a.ok(["session", "create", "Film club", "--member", bNpub]).trimmed
        XCTAssertEqual(session.count, 32)
        _ = try b.sync()
        XCTAssertEqual(try b.acceptRequests(), [session], "A is not B's contact: the session waits as a request")
        let bSessions = try b.sessions()
        XCTAssertEqual(bSessions.map { $0["id"] as? String }, [session])
        XCTAssertEqual(bSessions.first?["name"] as? String, "Film club")
        XCTAssertEqual(bSessions.first?["creator"] as? String, aHex)
        XCTAssertEqual(Set(bSessions.first?["members"] as? [String] ?? []), [aHex, bHex])

        // B posts; A sees it unread.
        let post = try b.ok(["post", session, "https://www.tiktok.com/@u/video/7234567890123456789", "--note", "watch this"]).trimmed
        XCTAssertEqual(post.count, 64)
        _ = try a.sync()
        var aPosts = try a.posts(session)
        XCTAssertEqual(aPosts.count, 1)
        XCTAssertEqual(aPosts[0]["id"] as? String, post)
        XCTAssertEqual(aPosts[0]["author"] as? String, bHex)
        XCTAssertEqual(aPosts[0]["note"] as? String, "watch this")
        XCTAssertEqual(aPosts[0]["label"] as? String, "Video")
        XCTAssertEqual(aPosts[0]["unread"] as? Bool, true)
        XCTAssertEqual(try a.sessions().first?["unread"] as? Bool, true)
        try a.ok(["read", post])
        XCTAssertEqual(try a.sessions().first?["unread"] as? Bool, false)

        // React, un-react.
        try a.ok(["react", post, "👍"])
        _ = try b.sync()
        let reactions = try b.posts(session)[0]["reactions"] as! [[String: Any]]
        XCTAssertEqual(reactions.count, 1)
        XCTAssertEqual(reactions[0]["emoji"] as? String, "👍")
        XCTAssertEqual(reactions[0]["by"] as? [String], [aHex])
        XCTAssertEqual(reactions[0]["mine"] as? Bool, false)
        XCTAssertEqual(try b.posts(session)[0]["unread"] as? Bool, false, "own posts are never unread")
        try a.ok(["react", post, "👍", "--off"])
        _ = try b.sync()
        XCTAssertEqual((try b.posts(session)[0]["reactions"] as! [Any]).count, 0)

        // Only the author deletes.
        let notYours = try a.run(["delete", post])
        XCTAssertEqual(notYours.status, 65)
        XCTAssertEqual(notYours.err, "linkstr: you can only delete your own posts.\n")
        try b.ok(["delete", post])
        _ = try a.sync()
        aPosts = try a.posts(session)
        XCTAssertTrue(aPosts.isEmpty)

        // Members change: B out, C in.
        let nonCreator = try b.run(["session", "members", session, "--set", cNpub])
        XCTAssertEqual(nonCreator.err, "linkstr: only the session creator can manage members.\n")
        // Issue 33 (15): the iOS wording for a delete by someone else.
        XCTAssertEqual(try b.run(["session", "delete", session, "--yes"]).err, "linkstr: only the session creator can delete this session.\n")
        try a.ok(["session", "members", session, "--set", cNpub])
        _ = try c.sync()
        try c.acceptRequests()
        let cSessions = try c.sessions()
        XCTAssertEqual(cSessions.map { $0["id"] as? String }, [session], "an added member sees the session")
        XCTAssertEqual(Set(cSessions[0]["members"] as? [String] ?? []), [aHex, cHex])
        _ = try b.sync()
        XCTAssertEqual(try b.sessions().first?["is_member"] as? Bool, false, "B keeps the history, read-only")
        let refused = try b.run(["post", session, "https://example.com/late"])
        XCTAssertEqual(refused.err, "linkstr: you're no longer a member of this session.\n")

        let late = try a.ok(["post", session, "example.com/after-removal", "--note", "for C only"]).trimmed
        _ = try c.sync()
        XCTAssertEqual(try c.posts(session).map { $0["id"] as? String }, [late])
        XCTAssertEqual(try c.posts(session).first?["url"] as? String, "https://example.com/after-removal")
        _ = try b.sync()
        XCTAssertTrue(try b.posts(session).isEmpty, "a removed member stops receiving")

        // A restart never opens history again.
        for home in [a, b, c] {
            let again = try home.sync()
            XCTAssertEqual(again["decrypted"] as? Int, 0, "second sync of \(home.directory.lastPathComponent)")
            XCTAssertGreaterThan(again["already_processed"] as? Int ?? 0, 0)
        }
        print("CLI flow: 3 homes, session, post, react, un-react, delete, member change, warm re-sync with 0 decryptions")
    }

    /// wire-2026 §2 over a relay: the creator renames a session; the member sees the new name and keeps
    /// the members; a member who is not the creator is refused before anything is sent.
    func testTheCreatorRenamesASession() throws {
        let relay = try TestRelay()
        let a = try Home("rename-a", relays: [relay.url]), b = try Home("rename-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (_, aHex) = try a.createIdentity()
        let (bNpub, bHex) = try b.createIdentity()
        let session = try a.ok(["session", "create", "Film club", "--member", bNpub]).trimmed
        let renamed = try a.ok(["session", "rename", session, "  Weekend links ", "--json"]).json() as? [String: Any] ?? [:]
        XCTAssertEqual(renamed["name"] as? String, "Weekend links")
        _ = try b.sync()
        try b.acceptRequests()
        let seen = try b.sessions().first
        XCTAssertEqual(seen?["name"] as? String, "Weekend links")
        XCTAssertEqual(Set(seen?["members"] as? [String] ?? []), [aHex, bHex], "a rename keeps the members")
        let refused = try b.run(["session", "rename", session, "Mine now"])
        XCTAssertEqual(refused.status, 65)
        XCTAssertEqual(refused.err, "linkstr: only the session creator can manage this session.\n", "the iOS wording (wire 2026 §2)")
        // A later member change carries the current name.
        try a.ok(["session", "members", session, "--set", bNpub])
        _ = try b.sync()
        XCTAssertEqual(try b.sessions().first?["name"] as? String, "Weekend links")
    }

    /// Profile names (kind 0) of contacts arrive by sync, harmless to print, and the newest edit wins.
    func testContactsProfileNamesArriveSanitisedAndNewestWins() throws {
        let relay = try TestRelay()
        let a = try Home("pa", relays: [relay.url]), b = try Home("pb", relays: [relay.url])
        defer { [a, b].forEach { $0.remove() } }
        _ = try a.createIdentity()
        let (bNpub, bHex) = try b.createIdentity(name: "Bob\u{1B}[2J \u{1B}]52;c;aGk=\u{07}Builder")
        _ = try b.sync()  // publishes the kind 0 given at creation
        try a.ok(["contacts", "add", bNpub])
        _ = try a.sync()
        func listed() throws -> [String: Any]? {
            (try a.ok(["contacts", "list", "--json"]).json() as? [[String: Any]])?.first { $0["pubkey"] as? String == bHex }
        }
        XCTAssertEqual(try listed()?["name"] as? String, "Bob[2J ]52;c;aGk=Builder", "escape and bell characters are gone")
        XCTAssertTrue(try listed()?["alias"] is NSNull, "no alias yet")

        // An edit one second later replaces it; an alias is shown next to it, never replaced by it.
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertEqual(try b.ok(["identity", "name", "Robert"]).trimmed, "Robert")
        _ = try b.sync()
        try a.ok(["contacts", "add", bNpub, "--alias", "Bobby"])
        _ = try a.sync()
        XCTAssertEqual(try listed()?["name"] as? String, "Robert")
        XCTAssertEqual(try a.ok(["contacts", "list"]).trimmed, "\(bNpub)  Bobby  (Robert)")
        print("profile names: contact's kind 0 fetched by sync, sanitised, newest edit wins")
    }

    /// A name change keeps what other clients put in the profile (picture, about…): merged, not replaced.
    func testOwnProfileNameChangeKeepsOtherClientsFields() throws {
        let relay = try TestRelay()
        let b = try Home("own", relays: [relay.url])
        defer { b.remove() }
        let (_, bHex) = try b.createIdentity()
        let secret = try SecretKey.parse(b.ok(["identity", "export-secret", "--yes"]).trimmed)
        let now = Int64(Date().timeIntervalSince1970)
        let elsewhere = #"{"about":"films and more","lud16":"bob@example.com","name":"bob-old","picture":"https://example.com/p.png"}"#
        try RustNostrPeer.publish(relay: relay.url, [UnsignedEvent(pubkey: secret.publicKey, createdAt: now - 100, kind: 0, content: elsewhere)
            .signed(with: secret)])

        try b.ok(["identity", "name", "Robert"])
        _ = try b.sync()
        let profiles = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [0], "authors": [bHex]])
        let newest = try XCTUnwrap(profiles.max { ($0["created_at"] as! Int) < ($1["created_at"] as! Int) })
        XCTAssertGreaterThan(newest["created_at"] as! Int, Int(now - 100))
        let content = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((newest["content"] as! String).utf8)) as? [String: String])
        XCTAssertEqual(content, ["about": "films and more", "lud16": "bob@example.com", "picture": "https://example.com/p.png",
                                 "name": "Robert", "display_name": "Robert"])
        print("own profile: name change merged into the kind 0 another client wrote")
    }

    /// NIP-17: our kind 10050 names the relays we read from; published once, again only when they change.
    func testInboxRelayListIsPublishedForTheRelaysInUse() throws {
        let relay = try TestRelay(), second = try TestRelay()
        var home = try Home("inbox", relays: [relay.url])
        defer { home.remove() }
        let (_, hex) = try home.createIdentity()
        try home.storeRelays()  // what we publish as our lists follows our relays, never a --relay override
        func inbox(_ on: TestRelay) throws -> [[String: Any]] { try RustNostrPeer.query(relay: on.url, filter: ["kinds": [10050], "authors": [hex]]) }
        _ = try home.sync()
        var lists = try inbox(relay)
        XCTAssertEqual(lists.count, 1)
        XCTAssertEqual(lists.first?["tags"] as? [[String]], [["relay", relay.url]])
        let first = lists.first?["id"] as? String
        Thread.sleep(forTimeInterval: 1.1)
        _ = try home.sync()
        XCTAssertEqual(try inbox(relay).map { $0["id"] as? String }, [first], "unchanged relays: not published again")
        // Reading from two relays now: the list names both, on both.
        try home.ok(["relays", "add", second.url])
        try home.ok(["sync", "--json", "--timeout", "20"])
        lists = try inbox(second)
        XCTAssertEqual(Set((lists.first?["tags"] as? [[String]]) ?? []), [["relay", relay.url], ["relay", second.url]])
        XCTAssertEqual(try inbox(relay).first?["id"] as? String, lists.first?["id"] as? String)
        print("inbox relays: kind 10050 published for the relays in use, once per change")
    }

    /// Beyond iOS: wraps also go to the recipient's own inbox relays (kind 10050), so someone who reads
    /// only elsewhere still receives them; never to a private address someone else named (unless allowed).
    func testWrapsReachARecipientWhoReadsOnlyFromTheirInboxRelay() throws {
        let shared = try TestRelay(), bobsInbox = try TestRelay()
        let alice = try Home("outbox-a", relays: [shared.url])
        var bob = try Home("outbox-b", relays: [bobsInbox.url])
        defer { [alice, bob].forEach { $0.remove() } }
        _ = try alice.createIdentity()
        let (bobNpub, bobHex) = try bob.createIdentity()
        try bob.storeRelays()
        _ = try bob.sync()  // publishes Bob's kind 10050 naming only his inbox relay
        // Relay lists spread beyond the relays they name (indexers, other clients): copy it to the shared relay.
        let list = try XCTUnwrap(try RustNostrPeer.query(relay: bobsInbox.url, filter: ["kinds": [10050], "authors": [bobHex]]).first)
        XCTAssertEqual(list["tags"] as? [[String]], [["relay", bobsInbox.url]])
        _ = try RustNostrPeer.call("publish", ["relay": shared.url, "events": [list]])

        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        try alice.ok(["contacts", "add", bobNpub], environment: allow)
        try alice.ok(["sync", "--json"], environment: allow)  // learns where Bob reads
        let delivered = try alice.ok(["session", "create", "Outbox", "--member", bobNpub], environment: allow).trimmed
        // Without the test's permission the inbox relay is a loopback address someone else named: refused.
        let refused = try alice.ok(["session", "create", "Refused", "--member", bobNpub]).trimmed
        _ = try bob.sync()
        try bob.acceptRequests()
        XCTAssertEqual(try bob.sessions().compactMap { $0["id"] as? String }, [delivered],
                       "Bob reads only his inbox relay: the first session reached it, the second was not sent to a private address")
        XCTAssertNotEqual(delivered, refused)
        print("inbox delivery: wraps reach a recipient's kind 10050 relay outside ours; private addresses refused")
    }

    func testErrorsArePlainAndExitCodesHonest() throws {
        let relay = try TestRelay()
        let a = try Home("errors", relays: [relay.url])
        defer { a.remove() }
        let npubAsSecret = try a.run(["identity", "import", "--kdf-cost", "10"], stdin: "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg\n")
        XCTAssertEqual(npubAsSecret.status, 65)
        XCTAssertEqual(npubAsSecret.err, "linkstr: that is an npub, not a secret key.\n")
        let imported = try a.ok(["identity", "import", "--kdf-cost", "10"], stdin: "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5\n")
        XCTAssertEqual(imported.trimmed, "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg", "the NIP-19 example pair")
        XCTAssertEqual(try a.run(["identity", "export-secret"]).status, 64)
        XCTAssertEqual(try a.ok(["identity", "export-secret", "--yes"]).trimmed, "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5")

        var env = ProcessInfo.processInfo.environment
        env["LINKSTR_PASSPHRASE"] = "wrong"
        let wrong = try ProcessRunner.run(a.binary, ["--home", a.directory.path, "identity", "export-secret", "--yes"], environment: env)
        XCTAssertEqual(wrong.status, 65)
        XCTAssertEqual(wrong.stderrText, "linkstr: wrong passphrase.\n")

        XCTAssertEqual(try a.run(["relays", "add", "https://relay.example.com"]).err, "linkstr: enter a valid relay url (ws:// or wss://).\n")
        let session = try a.ok(["session", "create", "solo"]).trimmed
        XCTAssertEqual(try a.run(["post", session, "javascript:alert(1)"]).err, "linkstr: enter a valid url: a web address (http or https), such as https://example.com/page.\n")
        XCTAssertEqual(try a.run(["session", "create", "   "]).err, "linkstr: enter a session name.\n")
        for r in try a.ok(["relays", "list", "--json"]).json() as! [[String: Any]] { try a.ok(["relays", "disable", r["url"] as! String]) }
        let offline = try a.run(["post", session, "https://example.com"], relays: [])
        XCTAssertEqual(offline.err, "linkstr: no relays are enabled. enable at least one relay in settings.\n")
    }

    /// Field readiness 10–12: hostile arguments get a plain error (no crash, no silent skip), long notes
    /// come from a file or stdin and are refused with the size that fits, what iOS can send is accepted,
    /// and remote text in `--json` has its terminal controls escaped.
    func testHostileArgumentsLongNotesAndTerminalSafeJSON() throws {
        let relay = try TestRelay()
        let a = try Home("args-a", relays: [relay.url]), b = try Home("args-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        _ = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        for bad in ["nan", "inf", "1e300", "-1", "0", "ten"] {
            let r = try a.run(["sync", "--timeout", bad])
            XCTAssertEqual(r.status, 64, "sync --timeout \(bad): \(r.err)")
            XCTAssertTrue(r.err.contains("the timeout must"), "sync --timeout \(bad): \(r.err)")
        }
        let notAPoint = String(repeating: "f", count: 64)
        let contact = try a.run(["contacts", "add", notAPoint])
        XCTAssertEqual(contact.status, 65)
        XCTAssertEqual(contact.err, "linkstr: not a public key: ffffffff… is not a point on secp256k1.\n")
        XCTAssertEqual(try a.run(["session", "create", "x", "--member", notAPoint]).err, "linkstr: not a public key: ffffffff… is not a point on secp256k1.\n")

        // A 150-emoji name (about 600 bytes) is legitimate: it arrives and its posts show.
        let name = String(repeating: "🎬", count: 150)
        let session = try a.ok(["session", "create", name, "--member", bNpub]).trimmed
        let hostile = "x\u{9B}31m\u{9D}8;;y\u{7F}\u{202E}z"
        try a.ok(["post", session, "https://example.com/a", "--note", hostile])
        // 100 KB cannot travel: refused with what fits; 40 KB from a file and from stdin go out whole.
        let file = a.directory.appendingPathComponent("note.txt")
        try (String(repeating: "n", count: 100_000) + "\n").write(to: file, atomically: true, encoding: .utf8)
        let tooLong = try a.run(["post", session, "https://example.com/b", "--note-file", file.path])
        XCTAssertEqual(tooLong.status, 65)
        XCTAssertTrue(tooLong.err.hasPrefix("linkstr: the note is too long to send: 100,000 bytes, and one message carries "), tooLong.err)
        try (String(repeating: "m", count: 40_000) + "\n").write(to: file, atomically: true, encoding: .utf8)
        try a.ok(["post", session, "https://example.com/c", "--note-file", file.path])
        try a.ok(["post", session, "https://example.com/d", "--note-file", "-"], stdin: String(repeating: "s", count: 40_000))
        XCTAssertEqual(try a.run(["post", session, "https://example.com/e", "--note", "a", "--note-file", "-"]).status, 64)

        _ = try b.sync()
        try b.acceptRequests()
        XCTAssertEqual(try b.sessions().first?["name"] as? String, name)
        let raw = try b.ok(["posts", session, "--json"]).out
        XCTAssertTrue(raw.contains(#"x\u009b31m\u009d8;;y\u007f\u202ez"#), "controls escaped in --json")
        XCTAssertFalse(raw.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        let posts = try b.posts(session)
        XCTAssertEqual(Set(posts.compactMap { ($0["note"] as? String)?.count }), [hostile.count, 40_000])
        XCTAssertEqual(posts.count, 3)
    }

    /// Field readiness 14: an empty or foreign database file is a clear error, and the file is left as it was.
    func testAnEmptyOrForeignDatabaseFileIsReportedAndKept() throws {
        let home = try Home("db-edge", relays: ["ws://127.0.0.1:9"])
        defer { home.remove() }
        _ = try home.createIdentity()
        let database = home.directory.appendingPathComponent("linkstr.sqlite3")
        for (contents, words) in [(Data(), "the file is empty (0 bytes)"), (Data("not a database at all".utf8), "not an SQLite database")] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            XCTAssertTrue(FileManager.default.createFile(atPath: database.path, contents: contents))
            let r = try home.run(["session", "list"])
            XCTAssertEqual(r.status, 74)
            XCTAssertTrue(r.err.contains(words) && r.err.contains("left as it is"), r.err)
            XCTAssertEqual(FileManager.default.contents(atPath: database.path), contents, "never overwritten")
        }
    }

    /// The log (`state/linkstr.log` under `--home`): private, useful (connections, commands, counts), and
    /// after a full flow free of the secret key, notes, links, session names, aliases and profile names.
    func testTheLogHoldsNoSecretsOrContent() throws {
        let relay = try TestRelay()
        let a = try Home("log-a", relays: [relay.url]), b = try Home("log-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        _ = try a.createIdentity(name: "Alice Profilename")
        let (bNpub, bHex) = try b.createIdentity(name: "Bob Profilename")
        let nsec = try a.ok(["identity", "export-secret", "--yes"]).trimmed
        let session = try a.ok(["session", "create", "Hidden Session Name", "--member", bNpub]).trimmed
        let post = try a.ok(["post", session, "https://example.com/private-link-xyz", "--note", "a private note 123"]).trimmed
        try a.ok(["contacts", "add", bNpub, "--alias", "Bobby Alias"])
        _ = try b.sync()
        try b.acceptRequests()
        try b.ok(["react", post, "🔥"])
        try b.ok(["sync", "--log-level", "debug", "--timeout", "10"])
        _ = try a.sync()
        try a.ok(["delete", post])
        for home in [a, b] {
            let log = home.directory.appendingPathComponent("state/linkstr.log")
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertTrue(text.contains("cli: command finished command=sync"), text)
            XCTAssertTrue(text.contains("relay: connected"), text)
            for secret in [nsec, String(nsec.dropFirst(5).prefix(20)), "a private note", "private-link-xyz", "Hidden Session Name",
                           "Bobby Alias", "Alice Profilename", "Bob Profilename", "correct horse"] {
                XCTAssertFalse(text.contains(secret), "the log holds \(secret)")
            }
            XCTAssertFalse(text.contains(bHex) && home.directory == b.directory && text.contains("nsec"), "no key material")
            let mode = (try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as! NSNumber).intValue & 0o777
            XCTAssertEqual(mode, 0o600)
            let dirMode = (try FileManager.default.attributesOfItem(atPath: log.deletingLastPathComponent().path)[.posixPermissions] as! NSNumber).intValue & 0o777
            XCTAssertEqual(dirMode, 0o700)
        }
        XCTAssertEqual(try a.run(["session", "list", "--log-level", "loud"]).status, 64, "an unknown level is refused")
    }

    /// Logout keeps local data for a later import; account delete publishes an empty follow list and a
    /// NIP-62 request to vanish, then wipes the account here (shared `IdentityActions`).
    func testLogoutKeepsDataAndAccountDeleteVanishesThenWipes() throws {
        let relay = try TestRelay()
        let a = try Home("vanish", relays: [relay.url])
        defer { a.remove() }
        _ = try a.createIdentity()
        let nsec = try a.ok(["identity", "export-secret", "--yes"]).trimmed
        let session = try a.ok(["session", "create", "Kept"]).trimmed
        XCTAssertEqual(try a.ok(["logout"]).trimmed, "logged out; local data kept.")
        XCTAssertEqual(try a.run(["session", "list"]).status, 66)
        try a.ok(["identity", "import", "--kdf-cost", "10"], stdin: nsec + "\n")
        XCTAssertEqual(try a.sessions().map { $0["id"] as? String }, [session], "the data came back with the key")

        XCTAssertEqual(try a.run(["account", "delete"]).status, 64, "needs --yes")
        XCTAssertEqual(try a.ok(["account", "delete", "--yes"]).trimmed, "account deleted.")
        XCTAssertEqual((try a.ok(["identity", "list", "--json"]).json() as? [[String: Any]])?.count, 0)
        let db = relay.directory.appendingPathComponent("nostr.sqlite3").path
        let kinds = try ProcessRunner.run(try TestEnvironment.python(), ["-c", "import sqlite3,sys; print(sorted({k for (k,) in sqlite3.connect(sys.argv[1]).execute('select kind from events')}))", db])
        XCTAssertTrue(kinds.stdoutText.contains("3") && kinds.stdoutText.contains("62"), "the empty follow list and the request to vanish: \(kinds.stdoutText)")
        try a.ok(["identity", "import", "--kdf-cost", "10"], stdin: nsec + "\n")
        XCTAssertEqual(try a.sessions().count, 0, "wiped here")
    }

    /// Issue 18 (1): `wipe` erases every identity and all local data, network untouched; a copy of the
    /// database taken before cannot be opened afterwards.
    func testWipeErasesEverythingAndAnEarlierCopyCannotBeOpened() throws {
        let relay = try TestRelay()
        let a = try Home("wipe", relays: [relay.url]), b = try Home("wipe-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        _ = try a.createIdentity(name: "Ada")
        let (bNpub, _) = try b.createIdentity()
        try a.ok(["identity", "create", "--kdf-cost", "10"])
        let session = try a.ok(["session", "create", "Secret plans", "--member", bNpub]).trimmed
        try a.ok(["post", session, "https://example.com/plan", "--note", "the plan"])
        try a.ok(["contacts", "add", bNpub, "--alias", "B"])
        try a.writeConfig("link_previews = false\n")
        let database = a.directory.appendingPathComponent("linkstr.sqlite3")
        let copy = b.directory.appendingPathComponent("copy.sqlite3")
        try FileManager.default.copyItem(at: database, to: copy)

        let refused = try a.run(["wipe"])
        XCTAssertEqual(refused.status, 64, "not a terminal: --yes is needed")
        XCTAssertTrue(refused.err.contains("add --yes"), refused.err)
        XCTAssertEqual(try a.ok(["wipe", "--yes"]).trimmed, "wiped: 2 identities and all local data.")
        let left = FileManager.default.enumerator(atPath: a.directory.path)?.allObjects as? [String] ?? []
        XCTAssertEqual(left, [], "nothing of linkstr is left")

        // The earlier copy put back: no key can open it any more.
        try FileManager.default.createDirectory(at: a.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: copy, to: database)
        let reopened = try a.run(["session", "list"])
        XCTAssertEqual(reopened.status, 66)
        XCTAssertTrue(reopened.err.contains("no identity"), reopened.err)
        XCTAssertEqual(try b.sessions().count, 0, "b never synced; the network was not touched by the wipe")
    }
}
