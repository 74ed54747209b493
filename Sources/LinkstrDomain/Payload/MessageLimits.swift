import NostrProtocol

/// The size limits of linkstr messages, decided once.
///
/// What bounds a message is the envelope: a rumor is NIP-44 encrypted into a seal, and the seal is NIP-44
/// encrypted into the gift wrap, each limited to 65 535 bytes of plaintext. The iOS app caps no field
/// itself, so anything that fits in one gift wrap is something iOS can send: on receipt free text (links,
/// notes, session names) is bounded only by the envelope, and on sending we refuse exactly what would not
/// fit, with the field to shorten and by how much. Identifiers, emoji and member lists keep small caps:
/// iOS makes ids (32 hex) and sends one emoji per reaction, so those caps never refuse what iOS sends.
public enum MessageLimits {
    /// A rumor's content can never be larger than the seal's plaintext.
    public static let content = NIP44.maxPlaintextSize
    public static let identifier = 256
    public static let emoji = 64
    public static let members = 2000

    /// Why a message cannot be sent, in words that say what to shorten.
    public enum TooLarge: Error, Equatable, Sendable, CustomStringConvertible {
        case note(bytes: Int, fitting: Int)
        case link(bytes: Int)
        case sessionName(bytes: Int)
        case message(bytes: Int)

        public var description: String {
            switch self {
            case .note(let bytes, let fitting):
                return "the note is too long to send: \(grouped(bytes)) bytes, and one message carries \(grouped(fitting)) bytes of note with this link."
            case .link(let bytes): return "the link is too long to send (\(grouped(bytes)) bytes do not fit in one message)."
            case .sessionName(let bytes): return "the session name is too long to send (\(grouped(bytes)) bytes do not fit in one message)."
            case .message(let bytes): return "this message is too large to send (\(grouped(bytes)) bytes once encrypted; one gift wrap carries 65,535)."
            }
        }
    }

    /// Whether one gift wrap carries the rumor of `outbound` (whoever the author is: the size does not depend on it).
    public static func fits(_ outbound: OutboundRumor) -> Bool {
        NIP59.carries(rumorJSONBytes: rumorBytes(outbound), now: outbound.createdAt)
    }

    /// nil when `outbound` fits, else what to shorten: the note (with how many of its bytes would fit), the
    /// link, the session name, or the message as a whole.
    public static func check(_ outbound: OutboundRumor) -> TooLarge? {
        guard !fits(outbound) else { return nil }
        var payload = outbound.payload
        if let note = payload.note, !note.isEmpty {
            payload.note = nil
            if fits(outbound.replacing(payload)) { return .note(bytes: note.utf8.count, fitting: fittingPrefixBytes(of: note, in: outbound)) }
        }
        if let url = payload.url, url.utf8.count > 1024 { return .link(bytes: url.utf8.count) }
        if let name = payload.sessionName, name.utf8.count > 1024 { return .sessionName(bytes: name.utf8.count) }
        return .message(bytes: NIP59.sealJSONBytes(rumorJSONBytes: rumorBytes(outbound)))
    }

    /// The bytes of the longest prefix of `note` (whole characters) that still fits: a binary search over
    /// real encodings, since escaping makes some characters cost more than their UTF-8.
    static func fittingPrefixBytes(of note: String, in outbound: OutboundRumor) -> Int {
        let characters = Array(note)
        var lo = 0, hi = characters.count
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            var p = outbound.payload
            p.note = String(characters[0..<mid])
            if fits(outbound.replacing(p)) { lo = mid } else { hi = mid - 1 }
        }
        return String(characters[0..<lo]).utf8.count
    }

    static func rumorBytes(_ outbound: OutboundRumor) -> Int {
        outbound.rumor(author: placeholderAuthor).rumorJSON().utf8.count
    }

    /// Any valid key: every pubkey is 64 hex characters in the JSON.
    static let placeholderAuthor = try! PublicKey(hex: "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")

    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}

extension OutboundRumor {
    func replacing(_ payload: LinkstrPayload) -> OutboundRumor {
        OutboundRumor(payload: payload, tags: tags, recipients: recipients, createdAt: createdAt)
    }
}
