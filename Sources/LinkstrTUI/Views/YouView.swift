import CQRencode
import LinkstrApp
import LinkstrDomain
import NostrProtocol

/// The You pane: identicon, profile name, npub, the QR code of the npub, identities.
enum YouView {
    static func render(_ c: inout Canvas, _ state: AppState, _ area: Rect) {
        c.put(" You", x: 0, y: area.y, Style(.title, bold: true))
        guard let me = state.identity else { return }
        // The QR code goes on the right when there is room; the rest stays left of it.
        // The widest quiet zone that fits (the standard asks for 4 modules; 80×24 has room for 2).
        let qr = (1...4).reversed().lazy.map { qrLines(me.npub, quiet: $0) }.first { lines in
            c.width - (lines.first.map { DisplayWidth.of($0) } ?? 0) - 1 >= 42 && lines.count + 2 <= area.height
        } ?? qrLines(me.npub, quiet: 1)
        let qrWidth = qr.first.map { DisplayWidth.of($0) } ?? 0
        let qrX = c.width - qrWidth - 1
        let showQR = qrX >= 42 && qr.count + 1 <= area.height
        let leftWidth = (showQR ? qrX : c.width) - 3
        var y = area.y + 2
        identicon(&c, pubkey: me.pubkey, x: 2, y: y)
        c.put("Profile name", x: 14, y: y, Style(.dim))
        if let field = state.you.editingName {
            AppView.drawField(&c, field, x: 14, y: y + 1, width: min(30, leftWidth - 12), focused: true, placeholder: "Set a name (optional)")
        } else {
            c.put(me.profileName.map { DisplayWidth.truncate(DisplayText.singleLine($0), to: leftWidth - 12) } ?? "Set a name: press e",
                  x: 14, y: y + 1, Style(me.profileName == nil ? .dim : .text, bold: me.profileName != nil))
        }
        c.put("Your Nostr ID", x: 14, y: y + 3, Style(.dim))
        c.put(AppView.npub(me.npub, width: leftWidth - 12 - 8) + "  y copy", x: 14, y: y + 4, Style(.text))
        y += 6
        if !me.backedUp {
            let warning = "! Back up your key: Settings (4), then S shows it. Without it this account is lost with this device."
            for line in DisplayWidth.wrap(warning, to: leftWidth) where y < area.bottom {
                c.put(line, x: 2, y: y, Style(.warning))
                y += 1
            }
            y += 1
        }
        // Contacts (your follow list), then the other identities when there are several.
        let entries = state.you.entries(contacts: state.contacts)
        c.put("Contacts (\(state.contacts.count))", x: 2, y: y, Style(.title, bold: true))
        c.put("a add · f who added you", x: 2 + 14 + String(state.contacts.count).count, y: y, Style(.dim), limit: leftWidth - 16)
        y += 1
        if entries.isEmpty {
            c.put("no contacts yet: press a to add someone's npub.", x: 4, y: y, Style(.dim), limit: leftWidth - 2)
        }
        let capacity = max(1, area.bottom - y)
        let scroll = SessionsView.visibleScroll(selection: state.you.selection, scroll: 0, capacity: capacity, count: entries.count)
        var lastKind = ""
        for (i, entry) in entries.enumerated().dropFirst(scroll) where y < area.bottom {
            let selected = i == state.you.selection
            switch entry {
            case .contact(let pk):
                lastKind = "contact"
                // As on iOS: the alias first, their own profile name second, then the npub.
                let name = AppView.name(pk, state), npub = AccountState.shortNpub(pk)
                let alias = state.contacts.first { $0.pubkey == pk }?.alias
                let profile = alias == nil ? nil : state.profileNames[pk].map(DisplayText.singleLine)
                var x = c.put(selected ? "› " : "  ", x: 2, y: y, Style(.accent, bold: true))
                x = c.put(DisplayWidth.truncate(name, to: leftWidth - 4), x: x, y: y, Style(.text, reverse: selected))
                if let profile, profile != name { x = c.put("  " + profile, x: x, y: y, Style(.label), limit: max(0, leftWidth - x)) }
                // Their NIP-05 name: "✓ alice@example.com" only when the domain vouches for this key.
                if let mark = state.nip05[pk] {
                    x = c.put("  " + mark.text, x: x, y: y, Style(mark.verified == true ? .success : .dim), limit: max(0, leftWidth - x))
                }
                if name != npub { c.put("  " + npub, x: x, y: y, Style(.dim), limit: max(0, leftWidth - x)) }
            case .follower(let pk):
                if lastKind != "follower" {
                    lastKind = "follower"
                    c.put("Added you (Enter adds)", x: 2, y: y, Style(.title, bold: true), limit: leftWidth)
                    y += 1
                    guard y < area.bottom else { break }
                }
                let npub = AccountState.shortNpub(pk)
                var x = c.put(selected ? "› " : "  ", x: 2, y: y, Style(.accent, bold: true))
                if let profile = state.profileNames[pk].map(DisplayText.singleLine) {
                    x = c.put(DisplayWidth.truncate(profile, to: leftWidth - 4), x: x, y: y, Style(.text, reverse: selected))
                    c.put("  " + npub, x: x, y: y, Style(.dim), limit: max(0, leftWidth - x))
                } else {
                    c.put(npub, x: x, y: y, Style(.text, reverse: selected), limit: max(0, leftWidth - x))
                }
            case .identity(let entry):
                if lastKind != "identity" {
                    lastKind = "identity"
                    c.put("Identities (Enter switches)", x: 2, y: y, Style(.title, bold: true))
                    y += 1
                    guard y < area.bottom else { break }
                }
                // Named where the name is known here: ours, or the profile name of a key we have seen.
                let known = entry.pubkey == state.identity?.pubkey ? state.identity?.profileName : state.profileNames[entry.pubkey]
                let label = known.map { DisplayText.singleLine($0) + "  " + String(entry.npub.prefix(12)) + "…" } ?? String(entry.npub.prefix(16)) + "…"
                let text = "\(entry.active ? "● " : "○ ")" + label + (entry.active ? " (active)" : "")
                c.put(selected ? "› " : "  ", x: 2, y: y, Style(.accent, bold: true))
                c.put(text, x: 4, y: y, Style(entry.active ? .accent : .text, reverse: selected), limit: leftWidth - 2)
            }
            y += 1
        }
        if showQR {
            for (i, line) in qr.enumerated() { c.put(line, x: qrX, y: area.y + 1 + i, Style(.qr)) }
            if qr.count + 2 <= area.height {
                c.put("scan to add me", x: qrX + max(0, (qrWidth - 14) / 2), y: area.y + 1 + qr.count, Style(.dim))
            }
        } else if y < area.bottom - 1 {
            c.put("  (a wider terminal shows the QR code of your npub here)", x: 0, y: area.bottom - 1, Style(.dim))
        }
    }

    /// A 5×5 mirrored pattern from the pubkey, in one colour from its hash.
    static func identicon(_ c: inout Canvas, pubkey: String, x: Int, y: Int) {
        let h = SHA256.hash(pubkey).bytes
        let style = Style(Role.avatar(Int(h[0])))
        for row in 0..<5 {
            for col in 0..<3 {
                let on = (h[1 + row * 3 + col] & 1) == 1
                let text = on ? "██" : "  "
                c.put(text, x: x + col * 2, y: y + row, style)
                c.put(text, x: x + (4 - col) * 2, y: y + row, style)
            }
        }
    }

    nonisolated(unsafe) private static var cache: [String: [String]] = [:]  // keyed by quiet zone and text
    private static let cacheLock = Lock()

    /// The npub as a QR code in Unicode half blocks (two modules per character cell), with `quiet` modules of
    /// light border drawn (the terminal's dark background around it does not count as light).
    static func qrLines(_ text: String, quiet: Int) -> [String] {
        let key = "\(quiet)|\(text)"
        if let hit = cacheLock.withLock({ cache[key] }) { return hit }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else { return [] }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width), size = n + 2 * quiet
        func light(_ x: Int, _ y: Int) -> Bool {
            let mx = x - quiet, my = y - quiet
            guard mx >= 0, my >= 0, mx < n, my < n else { return true }
            return code.pointee.data[my * n + mx] & 1 == 0
        }
        var lines = [String]()
        for y in stride(from: 0, to: size, by: 2) {
            var line = ""
            for x in 0..<size {
                let top = light(x, y), bottom = y + 1 < size ? light(x, y + 1) : true
                line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " "
            }
            lines.append(line)
        }
        cacheLock.withLock { cache[key] = lines }
        return lines
    }
}
