import Foundation
import LinkstrApp
import LinkstrDomain

/// Settings: relays (health dots, inline error slot), storage, identity (secret key reveal, log out, delete).
enum SettingsView {
    static func render(_ c: inout Canvas, _ state: AppState, _ area: Rect) {
        let s = state.settings
        if let list = s.ownList {
            _ = OwnRelayListView.render(&c, list, area)
            renderBelowRelays(&c, state, area, y: area.bottom - 6)
            return
        }
        var x = c.put(" Relays", x: 0, y: area.y, Style(.title, bold: true))
        x = c.put("  \(s.header) connected", x: x, y: area.y, Style(.dim))
        var y = area.y + Layout.settingsRelayTop - 1
        if let adding = s.adding {
            c.put("  add", x: 0, y: y, Style(.accent))
            AppView.drawField(&c, adding, x: 7, y: y, width: min(50, c.width - 9), focused: true)
        }
        y = area.y + Layout.settingsRelayTop
        if s.relays.isEmpty { c.put("  no relays: a adds one, R restores the defaults.", x: 0, y: y, Style(.warning)); y += 2 }
        let capacity = Layout.settingsRelayCapacity(screenRows: c.height)  // shared with mouse clicks
        let scroll = SessionsView.visibleScroll(selection: s.selection, scroll: 0, capacity: capacity, count: s.relays.count)
        if s.relays.count > capacity {
            let position = "\(s.selection + 1)/\(s.relays.count)"
            c.put(position, x: c.width - 2 - position.count, y: area.y, Style(.dim))
        }
        for (i, r) in s.relays.enumerated().dropFirst(scroll) where y < area.bottom - 6 {
            let selected = i == s.selection
            c.put(selected ? "›" : " ", x: 1, y: y, Style(.accent, bold: true))
            c.put("●", x: 3, y: y, Style(AppView.dotRole(r.health)))
            let urlEnd = c.put(DisplayWidth.truncate(r.url, to: c.width - 26), x: 5, y: y, Style(.text, bold: selected, reverse: selected))
            c.put(r.health.rawValue, x: max(urlEnd + 2, c.width - 14), y: y, Style(AppView.dotRole(r.health)))
            // The error slot is always reserved, so rows never jump when errors come and go.
            if s.showStats {
                let latency = r.latencyMilliseconds.map { String(format: "%.0f ms", $0) } ?? "–"
                let last = r.lastConnectedAt.map { AppView.relative($0, now: state.now) } ?? "never"
                c.put("sent \(r.sent) · received \(r.received) · latency \(latency) · connected \(last)", x: 5, y: y + 1, Style(.dim), limit: c.width - 6)
            } else if let error = r.error {
                c.put(DisplayWidth.truncate(DisplayText.singleLine(error), to: c.width - 8), x: 5, y: y + 1, Style(.error))
            } else if let history = r.history {
                c.put(DisplayWidth.truncate(DisplayText.singleLine(history), to: c.width - 8), x: 5, y: y + 1, Style(.warning))
            }
            y += 2
        }
        renderBelowRelays(&c, state, area, y: max(y, area.bottom - 6))
    }

    /// Storage and identity, at the foot of the pane.
    static func renderBelowRelays(_ c: inout Canvas, _ state: AppState, _ area: Rect, y start: Int) {
        let s = state.settings
        var y = start
        c.put(" Storage", x: 0, y: y, Style(.title, bold: true))
        var storage = "C clear cached media and previews (posts stay)"
        if let usage = s.mediaUsage {
            storage = "media cache \(usage.files) file\(usage.files == 1 ? "" : "s"), \(MediaSize.words(usage.bytes)) of \(MediaSize.words(usage.limit)) · " + storage
        }
        c.put(storage, x: 12, y: y, Style(.dim), limit: c.width - 13)
        y += 2
        c.put(" Identity", x: 0, y: y, Style(.title, bold: true))
        if let secret = s.revealedSecret {
            let left = max(0, (s.revealedUntil ?? state.now) - state.now)
            c.putSecret(secret, x: 12, y: y, Style(.secret, bold: true), limit: c.width - 13)
            c.put("y copy · S hide · hidden in \(left) s or when you leave Settings", x: 12, y: y + 1, Style(.dim), limit: c.width - 13)
        } else {
            if let npub = state.identity?.npub { c.put(AppView.npub(npub, width: c.width - 13), x: 12, y: y, Style(.text)) }
            c.put(DisplayWidth.fitItems("S show secret key · L log out · X log out and clear data · D delete account · P change passphrase",
                                        to: c.width - 13),
                  x: 12, y: y + 1, Style(.dim))
        }
        if state.inMemory {
            c.put("(in-memory session: nothing is saved)", x: 12, y: y + 2, Style(.warning))
        } else if s.revealedSecret == nil {
            // The keyring and the lock: what they do now, in a line of their own.
            let keyring = state.identity?.usesKeyring == true ? "K keyring: on" : "K keyring: off"
            let items = state.lockKeepsSyncing ? "locked, sync goes on (key in memory) · \(keyring) · ^X lock" : "\(keyring) · ^X lock"
            c.put(DisplayWidth.fitItems(items, to: c.width - 13), x: 12, y: y + 2, Style(state.lockKeepsSyncing ? .warning : .dim))
        }
        if !state.version.isEmpty, DisplayWidth.of(state.version) < c.width - 2 {
            c.put(state.version, x: c.width - 1 - DisplayWidth.of(state.version), y: area.bottom - 1, Style(.dim))
        }
    }
}
