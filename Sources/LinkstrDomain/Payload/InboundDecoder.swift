import NostrProtocol

/// From an opened gift wrap to an `InboundMessage`, or a reason it was refused. Everything remote is
/// hostile until it passes here: the rumor kind, the payload's JSON shape (exactly what iOS accepts),
/// the per-kind rules, and limits iOS does not have (sizes, control characters in ids, lookalike hosts).
public enum InboundDecoder {
    public enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
        case notLinkstr(kind: Int)
        case payload(PayloadError)
        case tooLarge(field: String, bytes: Int)
        case controlCharacters(field: String)
        case lookalikeHost(String)

        public var description: String {
            switch self {
            case .notLinkstr(let k): return "rumor kind \(k) is not linkstr (44001)"
            case .payload(let e): return e.description
            case .tooLarge(let f, let n): return "\(f) is too large (\(n) bytes)"
            case .controlCharacters(let f): return "\(f) contains control characters"
            case .lookalikeHost(let h): return "link host \(h.prefix(80)) mixes scripts to look like another site"
            }
        }
    }

    /// Byte limits per field (`MessageLimits`): free text is bounded by the envelope only, so anything the
    /// iOS app can send is accepted; identifiers and emoji keep small caps that iOS never reaches.
    public static let limits: [String: Int] = [
        "content": MessageLimits.content, "conversation_id": MessageLimits.identifier, "root_id": MessageLimits.identifier,
        "url": MessageLimits.content, "note": MessageLimits.content, "session_name": MessageLimits.content,
        "emoji": MessageLimits.emoji, "member_pubkeys": MessageLimits.members,
    ]

    public static func decode(rumor: UnsignedEvent, rumorID: EventID, sender: PublicKey, wrapID: String,
                              source: MessageSource, receivedAt: Int64) -> Result<InboundMessage, Rejection> {
        guard rumor.kind == LinkstrPayload.rumorKind else { return .failure(.notLinkstr(kind: rumor.kind)) }
        return payload(fromContent: rumor.content).map {
            InboundMessage(rumorID: rumorID.hex, wrapIDs: [wrapID], sender: sender.hex, createdAt: rumor.createdAt,
                           payload: $0, source: source, receivedAt: receivedAt)
        }
    }

    /// The validated payload of a rumor's content.
    public static func payload(fromContent content: String) -> Result<LinkstrPayload, Rejection> {
        payload(fromUTF8: Array(content.utf8))
    }

    public static func payload(fromUTF8 bytes: [UInt8]) -> Result<LinkstrPayload, Rejection> {
        guard bytes.count <= limits["content"]! else { return .failure(.tooLarge(field: "content", bytes: bytes.count)) }
        let raw: LinkstrPayload
        do {
            let json = try JSONParser.parse(bytes, limits: .init(maxBytes: limits["content"]!, maxDepth: 8))
            raw = try LinkstrPayload.decode(json)
        } catch let e as JSONError { return .failure(.payload(.json(e))) } catch let e as PayloadError { return .failure(.payload(e)) } catch {
            return .failure(.payload(.notAnObject))
        }
        for (field, value) in [("conversation_id", raw.conversationID), ("root_id", raw.rootID), ("url", raw.url ?? ""),
                               ("note", raw.note ?? ""), ("session_name", raw.sessionName ?? ""), ("emoji", raw.emoji ?? "")] {
            if value.utf8.count > limits[field]! { return .failure(.tooLarge(field: field, bytes: value.utf8.count)) }
        }
        if (raw.memberPubkeys?.count ?? 0) > limits["member_pubkeys"]! {
            return .failure(.tooLarge(field: "member_pubkeys", bytes: raw.memberPubkeys!.count))
        }
        // Ids and emoji are matched and shown verbatim: no control or formatting characters there.
        for (field, value) in [("conversation_id", raw.conversationID), ("root_id", raw.rootID), ("emoji", raw.emoji ?? "")]
            where value.unicodeScalars.contains(where: isForbiddenInIdentifier) {
            return .failure(.controlCharacters(field: field))
        }
        let validated: LinkstrPayload
        do { validated = try raw.validated() } catch { return .failure(.payload(error)) }
        if let url = validated.url, let host = WebURL.host(of: url), LookalikeHost.isMixedScript(host) {
            return .failure(.lookalikeHost(host))
        }
        return .success(validated)
    }

    static func isForbiddenInIdentifier(_ u: Unicode.Scalar) -> Bool {
        // ASCII's only such characters are its controls; ids are ASCII, and a property lookup per
        // character (with the host's below) was a third of decoding a payload (`linkstr-bench protocol`).
        if u.isASCII { return u.value < 0x20 || u.value == 0x7F }
        return isForbiddenByCategory(u)
    }

    static func isForbiddenByCategory(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return u != "\u{200D}" && u != "\u{FE0F}"
        default: return false
        }
    }
}

/// Hosts that mix Latin letters with look-alike letters from another script in one label, as in
/// `gооgle.com` with Cyrillic `о` (the "highly restrictive" idea of Unicode TS #39, in its simplest form).
public enum LookalikeHost {
    public static func isMixedScript(_ host: String) -> Bool {
        // An ASCII host has Latin letters only (the sets below cost a property lookup per character).
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        for label in host.split(separator: ".") {
            var scripts = Set<String>()
            for u in label.unicodeScalars where u.properties.isAlphabetic {
                scripts.insert(script(of: u))
            }
            // Latin with CJK scripts is normal (Japanese, Chinese, Korean names); with these it is a disguise.
            let confusable: Set<String> = ["cyrillic", "greek", "armenian"]
            if scripts.contains("latin") && !scripts.isDisjoint(with: confusable) { return true }
            if scripts.intersection(confusable).count > 1 { return true }
        }
        return false
    }

    static func script(of u: Unicode.Scalar) -> String {
        switch u.value {
        case 0x0041...0x007A, 0x00C0...0x024F, 0x1E00...0x1EFF: return "latin"
        case 0x0370...0x03FF, 0x1F00...0x1FFF: return "greek"
        case 0x0400...0x052F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return "cyrillic"
        case 0x0530...0x058F: return "armenian"
        default: return "other-\(u.value >> 8)"
        }
    }
}
