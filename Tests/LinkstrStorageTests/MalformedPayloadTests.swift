import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

/// Every malformed payload is refused with a reason, and nothing of it reaches the database.
final class MalformedPayloadTests: StorageTestCase {
    struct Case {
        let name: String
        let content: [UInt8]
        let kind: Int
        let reason: String
        init(_ name: String, _ content: String, kind: Int = 44001, _ reason: String) {
            self.name = name; self.content = Array(content.utf8); self.kind = kind; self.reason = reason
        }
        init(_ name: String, bytes: [UInt8], _ reason: String) { self.name = name; content = bytes; kind = 44001; self.reason = reason }
    }

    func testEveryMalformedPayloadIsRefusedAndNothingIsStored() throws {
        let me = SecretKey.generate(), other = SecretKey.generate()
        let m = me.publicKey.hex, o = other.publicKey.hex
        func root(_ url: String) -> String { #"{"conversation_id":"S","root_id":"","kind":"root","url":"\#(url)"}"# }
        let big = String(repeating: "x", count: 1 << 20)
        let cases: [Case] = [
            // Wrong types.
            Case("array", "[]", "not a JSON object"),
            Case("string", "\"hi\"", "not a JSON object"),
            Case("conversation_id number", #"{"conversation_id":5,"root_id":"","kind":"root","url":"https://a.b"}"#, "conversation_id has the wrong type"),
            Case("conversation_id missing", #"{"root_id":"","kind":"root","url":"https://a.b"}"#, "no conversation_id"),
            Case("root_id missing", #"{"conversation_id":"S","kind":"root","url":"https://a.b"}"#, "no root_id"),
            Case("root_id null", #"{"conversation_id":"S","root_id":null,"kind":"root","url":"https://a.b"}"#, "no root_id"),
            Case("kind missing", #"{"conversation_id":"S","root_id":""}"#, "no kind"),
            Case("kind reply (removed)", #"{"conversation_id":"S","root_id":"r","kind":"reply","note":"hi"}"#, "unknown payload kind"),
            Case("kind number", #"{"conversation_id":"S","root_id":"","kind":1}"#, "kind has the wrong type"),
            Case("timestamp float", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","timestamp":1.5}"#, "timestamp has the wrong type"),
            Case("timestamp string", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","timestamp":"1"}"#, "timestamp has the wrong type"),
            Case("timestamp huge", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","timestamp":1e30}"#, "timestamp has the wrong type"),
            Case("reaction_active string", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":"👍","reaction_active":"true"}"#, "reaction_active has the wrong type"),
            Case("members not an array", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":"\#(m)"}"#, "member_pubkeys has the wrong type"),
            Case("members numbers", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":[1,2]}"#, "member_pubkeys has the wrong type"),
            Case("url number", #"{"conversation_id":"S","root_id":"","kind":"root","url":42}"#, "url has the wrong type"),
            Case("note object", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","note":{}}"#, "note has the wrong type"),
            Case("emoji array", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":["👍"],"reaction_active":true}"#, "emoji has the wrong type"),
            // Empty ids and missing per-kind fields.
            Case("empty conversation_id", #"{"conversation_id":"","root_id":"","kind":"root","url":"https://a.b"}"#, "conversation_id is empty"),
            Case("blank conversation_id", #"{"conversation_id":"   ","root_id":"","kind":"root","url":"https://a.b"}"#, "conversation_id is empty"),
            Case("root_delete without root_id", #"{"conversation_id":"S","root_id":"","kind":"root_delete"}"#, "root_delete has no root_id"),
            Case("reaction blank root_id", #"{"conversation_id":"S","root_id":"  ","kind":"reaction","emoji":"👍","reaction_active":true}"#, "reaction has no root_id"),
            Case("reaction empty emoji", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":"","reaction_active":true}"#, "reaction has no emoji"),
            Case("reaction without state", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":"👍"}"#, "reaction has no reaction_active"),
            Case("create without name", #"{"conversation_id":"S","root_id":"","kind":"session_create","member_pubkeys":["\#(m)"]}"#, "has no session_name"),
            Case("create blank name", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"  ","member_pubkeys":["\#(m)"]}"#, "has no session_name"),
            Case("create no members", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":[]}"#, "member_pubkeys missing, empty"),
            Case("create short key", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":["\#(m)","abcd"]}"#, "invalid key"),
            Case("members bad npub", #"{"conversation_id":"S","root_id":"","kind":"session_members","member_pubkeys":["npub1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"]}"#, "invalid key"),
            // Bad URLs.
            Case("root without url", #"{"conversation_id":"S","root_id":"","kind":"root"}"#, "not a valid http(s) URL"),
            Case("ftp", root("ftp://example.com/x"), "not a valid http(s) URL"),
            Case("javascript", root("javascript:alert(1)"), "not a valid http(s) URL"),
            Case("scheme only", root("https://"), "not a valid http(s) URL"),
            Case("not a url", root("not-a-url"), "not a valid http(s) URL"),
            Case("empty url", root(""), "not a valid http(s) URL"),
            Case("mailto", root("mailto:a@b.c"), "not a valid http(s) URL"),
            Case("space in host", root("https://exa mple.com"), "not a valid http(s) URL"),
            Case("escape sequence in url", root(#"https://a.b/\u001b[2J"#), "not a valid http(s) URL"),
            Case("data url", root("data:text/html,<script>alert(1)</script>"), "not a valid http(s) URL"),
            Case("file url", root("file:///etc/passwd"), "not a valid http(s) URL"),
            // Lookalike hosts.
            Case("cyrillic o in google", root("https://gооgle.com/login"), "mixes scripts"),
            Case("punycode of the same", root("https://xn--ggle-55da.com/login"), "mixes scripts"),
            Case("cyrillic a in paypal", root("https://pаypal.com/"), "mixes scripts"),
            // Sizes.
            Case("1 MB note", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","note":"\#(big)"}"#, "content is too large"),
            Case("70 KB url", root("https://a.b/" + String(repeating: "p", count: 70_000)), "content is too large"),
            Case("long conversation_id", #"{"conversation_id":"\#(String(repeating: "s", count: 300))","root_id":"","kind":"root","url":"https://a.b"}"#, "conversation_id is too large"),
            Case("long emoji", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":"\#(String(repeating: "👍", count: 30))","reaction_active":true}"#, "emoji is too large"),
            // Invalid UTF-8 and escapes.
            Case("invalid utf-8", bytes: Array(#"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","note":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), "invalid UTF-8"),
            Case("overlong utf-8", bytes: Array(#"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","note":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), "invalid UTF-8"),
            Case("lone surrogate", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","note":"\ud800"}"#, "unpaired UTF-16 surrogate"),
            // Control characters where values are matched verbatim.
            Case("bell in conversation_id", #"{"conversation_id":"S\u0007","root_id":"","kind":"root","url":"https://a.b"}"#, "conversation_id contains control characters"),
            Case("escape in root_id", #"{"conversation_id":"S","root_id":"r\u001b","kind":"root_delete"}"#, "root_id contains control characters"),
            Case("escape in emoji", #"{"conversation_id":"S","root_id":"r","kind":"reaction","emoji":"\u001b[31m!","reaction_active":true}"#, "emoji contains control characters"),
            // JSON structure.
            Case("duplicate keys", #"{"conversation_id":"S","root_id":"","kind":"root","kind":"reaction","url":"https://a.b"}"#, "duplicate object key"),
            Case("trailing garbage", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b"} x"#, "characters after the end"),
            Case("deep nesting", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b","x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}", "nested too deeply"),
            // Not linkstr at all.
            Case("NIP-17 chat rumor", #"{"conversation_id":"S","root_id":"","kind":"root","url":"https://a.b"}"#, kind: 14, "rumor kind 14 is not linkstr"),
            // Well-formed, but refused by the ingest rules before anything is stored.
            Case("create without self", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":["\#(o)"]}"#, "self-not-in-members"),
            Case("create without sender", #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"n","member_pubkeys":["\#(m)"]}"#, "sender-not-in-members"),
            Case("root_id not the rumor id", #"{"conversation_id":"S","root_id":"\#(String(repeating: "ab", count: 32))","kind":"root","url":"https://a.b"}"#, "root-id-mismatch"),
        ]
        XCTAssertGreaterThanOrEqual(cases.count, 40)

        let local = try LocalStore(paths: paths)
        let store = try local.account(me, now: 1)
        func rowCount() throws -> Int64 {
            try ["sessions", "snapshots", "posts", "reactions", "tombstones", "staged_messages", "session_deletions"].reduce(0) {
                $0 + (try local.db.scalar("SELECT count(*) FROM \($1)").int ?? 0)
            }
        }
        for c in cases {
            let rumor = UnsignedEvent(pubkey: other.publicKey, createdAt: 100, kind: c.kind, content: String(decoding: c.content, as: UTF8.self))
            let reason: String
            let decoded = c.kind == 44001 ? InboundDecoder.payload(fromUTF8: c.content).map {
                InboundMessage(rumorID: rumor.id.hex, wrapIDs: ["w"], sender: other.publicKey.hex, createdAt: 100, payload: $0, source: .live, receivedAt: 100)
            } : InboundDecoder.decode(rumor: rumor, rumorID: rumor.id, sender: other.publicKey, wrapID: "w", source: .live, receivedAt: 100)
            switch decoded {
            case .failure(let rejection):
                reason = rejection.description
            case .success(let message):
                let report = try store.ingest([message], now: 100)[0]
                guard case .ignored(let why) = report.outcome else { XCTFail("\(c.name): accepted (\(report.outcome))"); continue }
                reason = why.rawValue
            }
            XCTAssertTrue(reason.contains(c.reason), "\(c.name): got \"\(reason)\", expected \"\(c.reason)\"")
            XCTAssertEqual(try rowCount(), 0, "\(c.name) left rows behind")
        }
        print("malformed payloads: \(cases.count) cases refused with a reason, nothing stored")
    }

    /// Free text is bounded by the envelope alone (`MessageLimits`): what the iOS app can send — a name of
    /// 150 emoji, a 10 KB link with a 50 KB note — is accepted, stored and shown, never dropped silently.
    func testLargeButLegitimateFieldsAreAccepted() throws {
        let me = SecretKey.generate(), other = SecretKey.generate()
        let m = me.publicKey.hex, o = other.publicKey.hex
        let name = String(repeating: "🎬", count: 150)
        XCTAssertGreaterThan(name.utf8.count, 512)
        let local = try LocalStore(paths: paths)
        let store = try local.account(me, now: 1)
        func ingest(_ json: String, at t: Int64) throws -> IngestOutcome {
            let rumor = UnsignedEvent(pubkey: other.publicKey, createdAt: t, kind: 44001, content: json)
            let message = try InboundDecoder.decode(rumor: rumor, rumorID: rumor.id, sender: other.publicKey, wrapID: "w\(t)",
                                                    source: .live, receivedAt: t).get()
            return try store.ingest([message], now: t)[0].outcome
        }
        let create = #"{"conversation_id":"S","root_id":"","kind":"session_create","session_name":"\#(name)","member_pubkeys":["\#(o)","\#(m)"]}"#
        XCTAssertEqual(try ingest(create, at: 100), .applied)
        XCTAssertEqual(try store.sessionSummary("S")?.name, name)
        let url = "https://a.b/" + String(repeating: "p", count: 10_000)
        let note = String(repeating: "n", count: 50_000)
        XCTAssertEqual(try ingest(#"{"conversation_id":"S","root_id":"","kind":"root","url":"\#(url)","note":"\#(note)"}"#, at: 101), .applied)
        let posts = try store.postPage(in: "S")
        XCTAssertEqual(posts.map { $0.post.url }, [url])
        XCTAssertEqual(posts.first?.post.note?.count, 50_000)
    }
}
