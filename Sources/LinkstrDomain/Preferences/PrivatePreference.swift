import NostrProtocol

/// A private preference (wire 2026 §3): a contact's alias or a session's archive state, shared between
/// one user's devices as a NIP-78 kind 30078 event, encrypted to self. Pure: the codec, the `d` tag,
/// the validation on read and the conflict rule.
public enum PrivatePreference: Equatable, Sendable {
    case alias(pubkey: Pubkey, name: String?)
    case archive(sessionID: String, archived: Bool)

    public static let kind = 30078
    public static let namespace = "linkstr/preferences/v1/"

    /// What the record is about, not its value: setting and clearing share one `d` (one addressable event).
    public var key: String {
        switch self {
        case .alias(let pubkey, _): return "alias:" + pubkey
        case .archive(let sessionID, _): return "archive:" + sessionID
        }
    }

    /// wire 2026 §3.1: an alias's key is 64 lowercase hex that parses as a key, its name absent or not blank;
    /// a session id is not empty and has no surrounding space.
    public var isValid: Bool {
        switch self {
        case .alias(let pubkey, let name):
            guard pubkey.utf8.count == 64, PubkeyNormalizer.fromAnyForm(pubkey) == pubkey else { return false }
            return name.map { !$0.trimmingWhitespace().isEmpty } ?? true
        case .archive(let sessionID, _):
            return !sessionID.isEmpty && sessionID.trimmingWhitespace() == sessionID
        }
    }

    /// The plaintext as the iOS app's encoder writes it: one key named after the case, a nil name left out.
    public var json: String {
        switch self {
        case .alias(let pubkey, let name):
            var inner: [(key: String, value: JSONValue)] = [("pubkey", .string(pubkey))]
            if let name { inner.append(("name", .string(name))) }
            return JSONWriter.encode(.object(JSONObject([("alias", .object(JSONObject(inner)))])))
        case .archive(let sessionID, let archived):
            return JSONWriter.encode(.object(JSONObject([("archive", .object(JSONObject([("sessionID", .string(sessionID)),
                                                                                           ("archived", .bool(archived))])))])))
        }
    }

    /// Decodes as Swift's synthesized `Codable` does (wire 2026 §3.1): exactly one outer key, `alias` or
    /// `archive`; `pubkey`, `sessionID` and `archived` required with their types; `name` absent, null
    /// or a string; other inner keys ignored. nil: rejected.
    public static func decode(_ text: String) -> PrivatePreference? {
        guard let value = try? JSONParser.parse(text, limits: .init(maxBytes: 64 << 10, maxDepth: 8)),
              let outer = value.objectValue, outer.members.count == 1, let inner = outer.members[0].value.objectValue else { return nil }
        switch outer.members[0].key {
        case "alias":
            guard let pubkey = inner["pubkey"]?.stringValue else { return nil }
            let name = inner["name"]
            guard name == nil || name!.isNull || name!.stringValue != nil else { return nil }
            return .alias(pubkey: pubkey, name: name?.stringValue)
        case "archive":
            guard let sessionID = inner["sessionID"]?.stringValue, let archived = inner["archived"]?.boolValue else { return nil }
            return .archive(sessionID: sessionID, archived: archived)
        default:
            return nil
        }
    }

    /// `d` = namespace + hex(HMAC-SHA256(the 32 secret-key bytes, namespace + key)): other accounts get
    /// other tags for the same target, and the tag tells nobody what it is about.
    public static func dTag(for key: String, secretKey: SecretKey) -> String {
        let message = Array((namespace + key).utf8)
        let mac = secretKey.withUnsafeSecretBytes { secret in
            message.withUnsafeBytes { m in HMACSHA256.authenticate(key: UnsafeRawBufferPointer(start: secret, count: 32), parts: [m]) }
        }
        return namespace + mac.hex
    }

    /// The first `d` tag's value of an event, if it has one.
    public static func dTag(in event: NostrEvent) -> String? {
        event.tags.first { $0.first == "d" }.flatMap { $0.count >= 2 ? $0[1] : nil }
    }

    /// The signed event: NIP-44 v2 to ourselves, tags exactly `[["d", D]]`.
    public func event(secretKey: SecretKey, createdAt: Int64, random: any RandomSource = SystemRandom()) throws -> NostrEvent {
        let conversation = try NIP44.conversationKey(secretKey: secretKey, publicKey: secretKey.publicKey)
        let content = try NIP44.encrypt(json, conversationKey: conversation, random: random)
        return UnsignedEvent(pubkey: secretKey.publicKey, createdAt: createdAt, kind: Self.kind,
                             tags: [["d", Self.dTag(for: key, secretKey: secretKey)]], content: content).signed(with: secretKey, random: random)
    }

    /// Why an event is not a preference of ours (wire 2026 §3.3); such an event changes nothing.
    public enum Rejection: String, Error, Sendable {
        case notOurs = "not a kind 30078 event of this account"
        case otherApp = "another app's record (its d tag is not in linkstr's namespace)"
        case invalidEvent = "its id or signature is not valid"
        case undecryptable = "it does not decrypt to this account"
        case malformed = "its content is not a preference linkstr knows"
        case invalidValue = "its value is not valid (key, name or session id)"
        case dTagMismatch = "its d tag does not match its content"
    }

    /// wire 2026 §3.3: ours, with a valid id and signature, our namespace's `d` (other apps' are not decrypted),
    /// decrypting to a valid preference whose recomputed `d` matches. nil: ignored, changing nothing.
    public static func open(_ event: NostrEvent, secretKey: SecretKey) -> PrivatePreference? {
        try? check(event, secretKey: secretKey).get()
    }

    /// `open`, saying why a refused event was refused.
    public static func check(_ event: NostrEvent, secretKey: SecretKey) -> Result<PrivatePreference, Rejection> {
        guard event.kind == kind, event.pubkey == secretKey.publicKey else { return .failure(.notOurs) }
        guard let d = dTag(in: event), d.hasPrefix(namespace) else { return .failure(.otherApp) }
        guard event.isValid else { return .failure(.invalidEvent) }
        guard let conversation = try? NIP44.conversationKey(secretKey: secretKey, publicKey: secretKey.publicKey),
              let plaintext = try? NIP44.decrypt(event.content, conversationKey: conversation) else { return .failure(.undecryptable) }
        guard let preference = decode(plaintext) else { return .failure(.malformed) }
        guard preference.isValid else { return .failure(.invalidValue) }
        guard dTag(for: preference.key, secretKey: secretKey) == d else { return .failure(.dTagMismatch) }
        return .success(preference)
    }

    /// wire 2026 §3.4, per `d`: the newer second wins; within a second the lower id (an equal id is a replay and
    /// applies again).
    public static func shouldApply(_ incoming: LWWStamp, over current: LWWStamp?) -> Bool {
        FollowListRule.shouldApply(incoming, over: current)
    }

    /// wire 2026 §3.5: a new record is dated after the one it replaces.
    public static func publicationTime(now: Int64, after current: LWWStamp?) -> Int64 {
        FollowListRule.publicationTime(now: now, after: current)
    }
}
