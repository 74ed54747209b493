import Foundation
import LinkstrTestSupport
import NostrProtocol

/// The rust-nostr peer (Tests/Interop/rust_nostr_peer.py): an independent client for interop tests.
enum RustNostrPeer {
    static func call(_ command: String, _ request: [String: Any]) throws -> [String: Any] {
        let input = try JSONSerialization.data(withJSONObject: request)
        let r = try ProcessRunner.run(try TestEnvironment.python(), [TestEnvironment.interopScript("rust_nostr_peer.py").path, command], stdin: input)
        guard r.status == 0 else { throw HarnessFailure(description: "rust-nostr peer \(command) failed: \(r.stderrText)") }
        return try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
    }

    /// Gift wraps addressed to `recipient` on the relay, opened by rust-nostr.
    static func fetch(relay: String, recipient: SecretKey, timeout: Int = 10) throws -> (gifts: [[String: Any]], errors: [String]) {
        let out = try call("fetch", ["relay": relay, "recipient_secret": recipient.revealHex(), "timeout": timeout])
        return (out["gifts"] as! [[String: Any]], out["errors"] as! [String])
    }

    /// Events matching `filter` (NIP-01 JSON), as the relay returns them.
    static func query(relay: String, filter: [String: Any]) throws -> [[String: Any]] {
        try call("query", ["relay": relay, "filter": filter])["events"] as! [[String: Any]]
    }

    /// Publishes signed events as they are; every one must be accepted.
    static func publish(relay: String, _ events: [NostrEvent]) throws {
        let objects = try events.map { try JSONSerialization.jsonObject(with: Data($0.jsonString().utf8)) }
        let out = try call("publish", ["relay": relay, "events": objects])
        guard (out["ok"] as! [Bool]).allSatisfy({ $0 }) else { throw HarnessFailure(description: "relay refused: \(out["messages"] ?? "")") }
    }

    /// A plain event built and signed by rust-nostr, published as it is (it must be accepted).
    @discardableResult
    static func publishEvent(relay: String, secret: String, kind: Int, tags: [[String]], content: String = "", at: Int64) throws -> [String: Any] {
        let event = try call("event", ["secret": secret, "kind": kind, "tags": tags, "content": content, "created_at": at])
        let out = try call("publish", ["relay": relay, "events": [event]])
        guard (out["ok"] as! [Bool]).allSatisfy({ $0 }) else { throw HarnessFailure(description: "relay refused: \(out["messages"] ?? "")") }
        return event
    }

    /// A private preference (kind 30078) built by rust-nostr exactly as the iOS app builds it, published.
    @discardableResult
    static func publishPreference(relay: String, secret: String, plaintext: String, key: String, at: Int64) throws -> [String: Any] {
        let event = try call("preference", ["secret": secret, "plaintext": plaintext, "key": key, "created_at": at])
        let out = try call("publish", ["relay": relay, "events": [event]])
        guard (out["ok"] as! [Bool]).allSatisfy({ $0 }) else { throw HarnessFailure(description: "relay refused: \(out["messages"] ?? "")") }
        return event
    }

    /// NIP-44 v2 content encrypted to self, opened by rust-nostr.
    static func decryptToSelf(secret: String, content: String) throws -> String {
        try call("decrypt-self", ["secret": secret, "content": content])["plaintext"] as! String
    }

    /// Wraps `content` (kind 44001) from `sender` to each recipient with rust-nostr and publishes them.
    static func send(relay: String, sender: SecretKey, to recipients: [PublicKey], content: String, tags: [[String]] = [], at: Int64) throws {
        var wraps = [Any]()
        for r in recipients {
            wraps.append(try call("wrap", ["sender_secret": sender.revealHex(), "recipient_pubkey": r.hex, "kind": 44001, "content": content,
                                           "created_at": at, "tags": tags]))
        }
        let out = try call("publish", ["relay": relay, "events": wraps])
        guard (out["ok"] as! [Bool]).allSatisfy({ $0 }) else { throw HarnessFailure(description: "relay refused: \(out["messages"] ?? "")") }
    }
}
