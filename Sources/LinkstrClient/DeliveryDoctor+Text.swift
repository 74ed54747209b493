import LinkstrDomain

/// The doctor's report in words, wrapped to a width (80 for a terminal), for `linkstr doctor` and the
/// app's view. Remote text (names, relays' words) goes through `DisplayText` first; `measure` is the
/// front end's column count of a string (wide characters take two).
extension DeliveryDoctor.Report {
    public func lines(width: Int = 80, measure: (String) -> Int) -> [String] {
        var out = [String]()
        func say(_ text: String, indent: Int = 0, hanging: Int = 2) {
            out += Self.wrap(DisplayText.singleLine(text), width: width, indent: indent, hanging: indent + hanging, measure: measure)
        }
        out.append("You")
        say("inbox (kind 10050): " + (ours.inbox.isEmpty ? "none" : ours.inbox.joined(separator: ", "))
            + (ours.inboxChosen ? " (chosen)" : " (the relays you use)") + (ours.inboxPublished ? "; published" : "; not published yet"), indent: 2)
        say("relay list (kind 10002): " + (ours.relayListPublished ? "published" : "not published yet"), indent: 2)
        for indexer in ours.indexers {
            let found = indexer.error.map { "could not ask: \($0)" }
                ?? (indexer.hasInbox && indexer.hasRelayList ? "holds both"
                    : indexer.hasInbox ? "holds your 10050 only" : indexer.hasRelayList ? "holds your 10002 only" : "holds neither yet")
            say("indexer \(indexer.url): \(found)", indent: 2)
        }
        if !ours.blocked.isEmpty { say("blocked: " + ours.blocked.joined(separator: ", "), indent: 2) }
        if members.isEmpty { out.append(""); out.append(sessionID == nil ? "Nobody to reach yet." : "Nobody else in this session.") }
        for m in members {
            out.append("")
            say(m.name ?? m.pubkey)
            let origin = m.foundOn.map { ", found on \($0)" } ?? ""
            switch m.source {
            case "inbox": say("inbox relays (kind 10050\(origin)):", indent: 2)
            case "read_relays": say("read relays (kind 10002\(origin); no kind 10050):", indent: 2)
            default: say("no inbox relays found (kind 10050 or 10002)", indent: 2)
            }
            for r in m.relays {
                var facts = [String]()
                if r.blocked { facts.append("blocked by you") } else if r.answered { facts.append("answers") } else { facts.append(r.error ?? "does not answer") }
                if r.authRequired { facts.append("needs AUTH") }
                if r.paymentRequired { facts.append("paid") }
                if r.restrictedWrites { facts.append("restricts writes") }
                if let max = r.maxMessageLength { facts.append("messages up to \(max) bytes") }
                say("\(r.answered && !r.blocked ? "✓" : "✗") \(r.url): " + facts.joined(separator: ", "), indent: 4)
            }
            say("shared relays: " + (m.overlap.isEmpty ? "none" : m.overlap.joined(separator: ", ")), indent: 2)
            if let last = m.lastDelivery { say("last delivery: " + last.words, indent: 2) }
            say("→ " + m.advice, indent: 2)
        }
        return out
    }

    /// Words wrapped to `width`; the first line indented by `indent`, the rest by `hanging`.
    static func wrap(_ text: String, width: Int, indent: Int, hanging: Int, measure: (String) -> Int) -> [String] {
        var lines = [String](), current = String(repeating: " ", count: indent), empty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let w = String(word)
            if !empty, measure(current) + 1 + measure(w) > width {
                lines.append(current)
                current = String(repeating: " ", count: hanging)
                empty = true
            }
            if measure(current) + (empty ? 0 : 1) + measure(w) > width {
                // A word longer than a line (a long relay URL) is cut into pieces that fit.
                var rest = Substring(w)
                while !rest.isEmpty {
                    let room = max(1, width - measure(current) - (empty ? 0 : 1))
                    let piece = rest.prefix(room)
                    current += (empty ? "" : " ") + piece
                    rest = rest.dropFirst(piece.count)
                    if !rest.isEmpty { lines.append(current); current = String(repeating: " ", count: hanging); empty = true } else { empty = false }
                }
                continue
            }
            current += (empty ? "" : " ") + w
            empty = false
        }
        if !empty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
