/// NIP-59 gift wraps: rumor (unsigned) → seal (kind 13, signed by the sender) → wrap (kind 1059,
/// signed by a one-time key, addressed with one `p` tag).
public enum NIP59 {
    public static let sealKind = 13
    public static let giftWrapKind = 1059
    /// Seal and wrap timestamps are each moved back by a random 0…2 days to blur timing.
    public static let maxTimestampTweak: Int64 = 172_800

    public struct UnwrappedGift: Sendable {
        /// The author, proven by the seal signature (and equal to the rumor's pubkey).
        public let sender: PublicKey
        public let rumor: UnsignedEvent
        public let rumorID: EventID
        public let seal: NostrEvent
        public let wrap: NostrEvent
    }

    // MARK: creating

    public static func seal(rumor: UnsignedEvent, sender: SecretKey, recipient: PublicKey, now: Int64,
                            random: any RandomSource, cache: ConversationKeyCache? = nil) throws(NIP44Error) -> NostrEvent {
        precondition(rumor.pubkey == sender.publicKey, "the rumor must be authored by the sealing key")
        let key = try cachedKey(cache, secret: sender, peer: recipient)
        let content = try NIP44.encrypt(rumor.rumorJSON(), conversationKey: key, random: random)
        let template = UnsignedEvent(pubkey: sender.publicKey, createdAt: tweaked(now, random), kind: sealKind, tags: [], content: content)
        return template.signed(with: sender, random: random)
    }

    public static func wrap(seal: NostrEvent, recipient: PublicKey, now: Int64, random: any RandomSource) throws(NIP44Error) -> NostrEvent {
        let oneTime = SecretKey.generate(using: random)
        let key = try NIP44.conversationKey(secretKey: oneTime, publicKey: recipient)
        let content = try NIP44.encrypt(seal.jsonString(), conversationKey: key, random: random)
        let template = UnsignedEvent(pubkey: oneTime.publicKey, createdAt: tweaked(now, random), kind: giftWrapKind,
                                     tags: [["p", recipient.hex]], content: content)
        return template.signed(with: oneTime, random: random)
    }

    /// Seal and wrap `rumor` for one recipient.
    public static func giftWrap(rumor: UnsignedEvent, sender: SecretKey, recipient: PublicKey, now: Int64,
                                random: any RandomSource = SystemRandom(), cache: ConversationKeyCache? = nil) throws(NIP44Error) -> NostrEvent {
        let s = try seal(rumor: rumor, sender: sender, recipient: recipient, now: now, random: random, cache: cache)
        return try wrap(seal: s, recipient: recipient, now: now, random: random)
    }

    // MARK: size

    /// Bytes of the seal JSON that carries a rumor of `rumorJSONBytes` (its NIP-44 payload in base64, plus
    /// the seal's fixed fields with a `created_at` of `createdAtDigits` digits). The wrap encrypts exactly
    /// this, so it must not exceed `NIP44.maxPlaintextSize` either.
    public static func sealJSONBytes(rumorJSONBytes: Int, createdAtDigits: Int = 10) -> Int {
        let payload = 1 + 32 + 2 + NIP44.paddedLength(rumorJSONBytes) + 32  // version, nonce, length, padded text, MAC
        let base64 = (payload + 2) / 3 * 4
        let fixed = "{\"id\":\"".utf8.count + 64 + "\",\"pubkey\":\"".utf8.count + 64 + "\",\"created_at\":".utf8.count
            + createdAtDigits + ",\"kind\":13,\"tags\":[],\"content\":\"".utf8.count + "\",\"sig\":\"".utf8.count + 128 + "\"}".utf8.count
        return fixed + base64
    }

    /// Whether one gift wrap can carry a rumor whose JSON has `rumorJSONBytes` bytes, sealed at `now`
    /// (both layers are NIP-44 encryptions, each limited to 65 535 bytes of plaintext).
    public static func carries(rumorJSONBytes: Int, now: Int64) -> Bool {
        guard rumorJSONBytes >= NIP44.minPlaintextSize, rumorJSONBytes <= NIP44.maxPlaintextSize else { return false }
        return sealJSONBytes(rumorJSONBytes: rumorJSONBytes, createdAtDigits: String(max(now, 1)).count) <= NIP44.maxPlaintextSize
    }

    static func tweaked(_ now: Int64, _ random: any RandomSource) -> Int64 {
        max(0, now - Int64(random.uniform(upTo: UInt64(maxTimestampTweak))))
    }

    // MARK: opening

    /// Opens a gift wrap addressed to `recipient`, checking every layer: wrap kind, id and signature; its
    /// one-time key a point; decryption (NIP-44's MAC); seal kind, tags, id and signature; rumor unsigned,
    /// rumor id, and seal author == rumor author.
    ///
    /// The wrap's own signature is checked, as the iOS app's strict decoder does (wire 2026
    /// §9) and rust-nostr's pool does on receipt: it binds the wrap's date and tags to the one-time key,
    /// so nobody but the sender (a relay included) can mint variants of a genuine wrap that would each cost
    /// a full unwrap. The cheap checks come first and the verify before any ECDH, on the same lifted key
    /// the ECDH then uses: a bad signature costs one verify and is refused as junk.
    public static func unwrap(_ wrap: NostrEvent, recipient: SecretKey, cache: ConversationKeyCache? = nil) throws(GiftWrapError) -> UnwrappedGift {
        guard wrap.kind == giftWrapKind else { throw .notGiftWrap(kind: wrap.kind) }
        guard wrap.unsigned.id == wrap.id else { throw .invalidWrap(.idMismatch) }
        let addressed = wrap.tagValues("p")
        if !addressed.isEmpty && !addressed.contains(recipient.publicKey.hex) { throw .notRecipient }
        // The content's form first: what is not a NIP-44 payload costs no ECDH.
        let sealed: NIP44.Payload
        do { sealed = try NIP44.Payload(wrap.content) } catch { throw .cannotDecrypt(error) }
        let oneTimeKey: LiftedPublicKey
        do { oneTimeKey = try LiftedPublicKey(wrap.pubkey) } catch { throw .cannotDecrypt(.invalidKey(error)) }
        guard Schnorr.verify(signature: wrap.sig, message: wrap.id.raw, publicKey: oneTimeKey) else { throw .invalidWrap(.invalidSignature) }

        let outerKey: ConversationKey
        do { outerKey = try NIP44.conversationKey(secretKey: recipient, publicKey: oneTimeKey) } catch { throw .cannotDecrypt(error) }
        let sealBytes: [UInt8]
        do { sealBytes = try NIP44.open(sealed, conversationKey: outerKey) } catch {
            throw error == .invalidMAC ? .notRecipient : .cannotDecrypt(error)
        }
        let seal: NostrEvent
        do {
            let json = try JSONParser.parse(sealBytes)
            seal = try NostrEvent(json: json)
        } catch let e as JSONError { throw .malformedSeal(.json(e)) } catch let e as EventDecodingError { throw .malformedSeal(e) } catch {
            throw .malformedSeal(.notAnObject)
        }
        guard seal.kind == sealKind else { throw .sealNotKind13(kind: seal.kind) }
        guard seal.tags.isEmpty else { throw .sealHasTags }
        // `seal.verify()`, with the sender's key lifted once per sender (it is cached).
        guard seal.unsigned.id == seal.id else { throw .invalidSeal(.idMismatch) }
        guard let signer = try? cachedLift(cache, secret: recipient, peer: seal.pubkey),
              Schnorr.verify(signature: seal.sig, message: seal.id.raw, publicKey: signer) else { throw .invalidSeal(.invalidSignature) }

        let innerKey: ConversationKey
        do { innerKey = try cachedKey(cache, secret: recipient, peer: seal.pubkey) } catch { throw .cannotDecrypt(error) }
        let rumorBytes: [UInt8]
        do { rumorBytes = try NIP44.decryptToBytes(seal.content, conversationKey: innerKey) } catch { throw .cannotDecryptSeal(error) }
        let fields: EventFields
        do {
            guard case .object(let o) = try JSONParser.parse(rumorBytes) else { throw EventDecodingError.notAnObject }
            fields = try EventFields(o, requireSignature: false)
        } catch let e as JSONError { throw .malformedRumor(.json(e)) } catch let e as EventDecodingError { throw .malformedRumor(e) } catch {
            throw .malformedRumor(.notAnObject)
        }
        guard !fields.hasSignatureField else { throw .rumorIsSigned }
        guard fields.pubkey == seal.pubkey else { throw .senderMismatch(seal: seal.pubkey, rumor: fields.pubkey) }
        let rumor = UnsignedEvent(pubkey: seal.pubkey, createdAt: fields.createdAt, kind: fields.kind, tags: fields.tags, content: fields.content)
        let computed = rumor.id
        if let claimed = fields.id, claimed != computed { throw .rumorIDMismatch }
        return UnwrappedGift(sender: seal.pubkey, rumor: rumor, rumorID: computed, seal: seal, wrap: wrap)
    }

    private static func cachedLift(_ cache: ConversationKeyCache?, secret: SecretKey, peer: PublicKey) throws(KeyError) -> LiftedPublicKey {
        if let cache, cache.secretKey.publicKey == secret.publicKey { return try cache.lifted(peer) }
        return try LiftedPublicKey(peer)
    }

    private static func cachedKey(_ cache: ConversationKeyCache?, secret: SecretKey, peer: PublicKey) throws(NIP44Error) -> ConversationKey {
        if let cache, cache.secretKey.publicKey == secret.publicKey {
            return try cache.conversationKey(with: peer)
        }
        return try NIP44.conversationKey(secretKey: secret, publicKey: peer)
    }
}

public enum GiftWrapError: Error, Equatable, Sendable, CustomStringConvertible {
    case notGiftWrap(kind: Int)
    case invalidWrap(EventValidationError)
    case notRecipient
    case cannotDecrypt(NIP44Error)
    case malformedSeal(EventDecodingError)
    case sealNotKind13(kind: Int)
    case sealHasTags
    case invalidSeal(EventValidationError)
    case cannotDecryptSeal(NIP44Error)
    case malformedRumor(EventDecodingError)
    case rumorIsSigned
    case senderMismatch(seal: PublicKey, rumor: PublicKey)
    case rumorIDMismatch

    public var description: String {
        switch self {
        case .notGiftWrap(let k): return "not a gift wrap (kind \(k), expected 1059)"
        case .invalidWrap(let e): return "gift wrap: \(e.description)"
        case .notRecipient: return "cannot decrypt: not the recipient"
        case .cannotDecrypt(let e): return "cannot decrypt gift wrap: \(e.description)"
        case .malformedSeal(let e): return "malformed seal: \(e.description)"
        case .sealNotKind13(let k): return "seal has kind \(k), expected 13"
        case .sealHasTags: return "seal has tags (NIP-59 requires none)"
        case .invalidSeal(let e): return "seal: \(e.description)"
        case .cannotDecryptSeal(let e): return "cannot decrypt seal: \(e.description)"
        case .malformedRumor(let e): return "malformed rumor: \(e.description)"
        case .rumorIsSigned: return "rumor carries a signature (NIP-59 rumors are unsigned)"
        case .senderMismatch: return "seal pubkey != rumor pubkey (impersonation attempt)"
        case .rumorIDMismatch: return "rumor id does not match its content"
        }
    }
}
