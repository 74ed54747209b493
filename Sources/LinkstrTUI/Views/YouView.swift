import CQRencode
import LinkstrApp
import LinkstrDomain
import NostrProtocol

/// The You pane: identicon, profile name, npub, the QR code of the npub, identities.
enum YouView {
    static func render(_ c: inout Canvas, _ state: AppState, _ area: Rect) {
        c.put(" You", x: 0, y: area.y, Style(.title, bold: true))
        guard let me = state.identity else { return }
        var y = area.y + 2
        identicon(&c, pubkey: me.pubkey, x: 2, y: y)
        c.put("Profile name", x: 14, y: y, Style(.dim))
        if let field = state.you.editingName {
            AppView.drawField(&c, field, x: 14, y: y + 1, width: min(30, c.width - 16), focused: true, placeholder: "Set a name (optional)")
        } else {
            c.put(me.profileName.map(DisplayText.singleLine) ?? "Set a name (optional): press e", x: 14, y: y + 1,
                  Style(me.profileName == nil ? .dim : .text, bold: me.profileName != nil))
        }
        c.put("Your Nostr ID", x: 14, y: y + 3, Style(.dim))
        c.put(String(me.npub.prefix(10)) + "…" + String(me.npub.suffix(6)) + "   y copy", x: 14, y: y + 4, Style(.text))
        y += 6
        if !me.backedUp {
            c.put("  ! back up your key: Settings (4) → S shows it. Without it this account is lost with this device.",
                  x: 0, y: y, Style(.warning), limit: c.width - 1)
            y += 2
        }
        if state.you.identities.count > 1 {
            c.put("  Identities (Enter switches)", x: 0, y: y, Style(.dim))
            y += 1
            for (i, entry) in state.you.identities.enumerated() where y < area.bottom {
                let text = "\(entry.active ? "●" : "○") " + String(entry.npub.prefix(16)) + "…"
                c.put("  " + text, x: 0, y: y, Style(entry.active ? .accent : .text, reverse: i == state.you.selection))
                y += 1
            }
        }
        // The QR code on the right, when there is room.
        let qr = qrLines(me.npub)
        let qrWidth = qr.first.map { DisplayWidth.of($0) } ?? 0
        let qrX = c.width - qrWidth - 2
        if qrX > 46, qr.count + 2 <= area.height {
            c.put("Scan to add me", x: qrX + max(0, (qrWidth - 14) / 2), y: area.y + 1, Style(.dim))
            for (i, line) in qr.enumerated() { c.put(line, x: qrX, y: area.y + 2 + i, Style(.qr)) }
        } else {
            c.put("  (enlarge the terminal to show the QR code)", x: 0, y: min(y + 1, area.bottom - 1), Style(.dim))
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

    nonisolated(unsafe) private static var cache: [String: [String]] = [:]
    private static let cacheLock = Lock()

    /// The npub as a QR code in Unicode half blocks (two modules per character cell), with a quiet zone.
    static func qrLines(_ text: String) -> [String] {
        if let hit = cacheLock.withLock({ cache[text] }) { return hit }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else { return [] }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width), quiet = 2, size = n + 2 * quiet
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
        cacheLock.withLock { cache[text] = lines }
        return lines
    }
}
