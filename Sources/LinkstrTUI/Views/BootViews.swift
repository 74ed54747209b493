import LinkstrApp
import LinkstrDomain

/// Boot, recovery, unlock and onboarding screens.
enum BootViews {
    static func title(_ c: inout Canvas) {
        let t = "linkstr"
        c.put(t, x: (c.width - t.count) / 2, y: max(1, c.height / 2 - 6), Style(.title, bold: true))
        let s = "a private link feed for people you trust"
        c.put(s, x: max(0, (c.width - s.count) / 2), y: max(2, c.height / 2 - 5), Style(.dim))
    }

    static func boot(_ c: inout Canvas, _ step: AppState.BootStep) {
        title(&c)
        let steps = AppState.BootStep.allCases
        let current = steps.firstIndex(of: step) ?? 0
        for (i, s) in steps.enumerated() {
            let mark = i < current ? "✓" : i == current ? "›" : " "
            c.put("\(mark) \(s.rawValue)", x: max(0, c.width / 2 - 12), y: c.height / 2 - 2 + i,
                  Style(i < current ? .success : i == current ? .text : .dim, bold: i == current))
        }
    }

    static func recovery(_ c: inout Canvas, _ error: String) {
        title(&c)
        let y = c.height / 2 - 2
        c.put("The local database could not be opened.", x: 2, y: y, Style(.error, bold: true))
        for (i, line) in PostViews.wrap(DisplayText.singleLine(error), width: c.width - 6).prefix(3).enumerated() {
            c.put(line, x: 4, y: y + 1 + i, Style(.dim))
        }
        c.put("r retry · m continue in memory for this run (nothing is saved) · q quit", x: 2, y: y + 5, Style(.text))
    }

    static func unlock(_ c: inout Canvas, _ u: UnlockState) {
        title(&c)
        let y = c.height / 2 - 2
        // Locked after use: nothing of the user's, not even which key.
        c.put(u.locked ? "linkstr is locked" : "Unlock " + String(u.npub.prefix(12)) + "…" + String(u.npub.suffix(6)), x: 4, y: y, Style(.text, bold: true))
        c.put("Passphrase", x: 4, y: y + 2, Style(.dim))
        AppView.drawField(&c, u.passphrase, x: 16, y: y + 2, width: min(40, c.width - 18), focused: !u.busy, mask: true)
        if u.busy { c.put("unlocking…", x: 16, y: y + 4, Style(.warning)) }
        if let e = u.error {
            for (i, line) in PostViews.wrap(DisplayText.singleLine(e), width: max(10, c.width - 17)).prefix(2).enumerated() {
                c.put(line, x: 16, y: y + 4 + i, Style(.error))
            }
        }
        c.put(u.locked ? "Enter unlock (empty: passphrase_command, if set) · Esc quit" : "Enter unlock · Esc quit", x: 4, y: y + 6, Style(.dim),
              limit: c.width - 5)
    }

    static func onboarding(_ c: inout Canvas, _ o: OnboardingState, _ state: AppState) {
        title(&c)
        let y = c.height / 2 - 3
        switch o.step {
        case .choose(let selection):
            c.put("Welcome. linkstr needs a key: it is your identity on Nostr.", x: 4, y: y, Style(.text))
            c.put(" c  Create a new account ", x: 6, y: y + 2, Style(.text, bold: true, reverse: selection == 0))
            c.put(" i  Sign in with a key you have (nsec, hex or ncryptsec) ", x: 6, y: y + 3, Style(.text, bold: true, reverse: selection == 1))
            c.put(" b  Restore a backup (.linkstrbackup) ", x: 6, y: y + 4, Style(.text, bold: true, reverse: selection == 2))
            c.put("↑↓ choose · Enter continue · q quit", x: 4, y: y + 6, Style(.dim))
        case .createName(let f):
            c.put("A profile name others will see (optional)", x: 4, y: y, Style(.text))
            AppView.drawField(&c, f, x: 6, y: y + 2, width: min(40, c.width - 8), focused: true, placeholder: "you can skip this")
            c.put("Enter continue · Esc back", x: 4, y: y + 5, Style(.dim))
        case .importKey(let f):
            c.put("Paste your secret key (nsec1…, 64 hex characters, or ncryptsec1…)", x: 4, y: y, Style(.text), limit: c.width - 5)
            AppView.drawField(&c, f, x: 6, y: y + 2, width: min(60, c.width - 8), focused: true, mask: true)
            c.put("Enter continue · Esc back", x: 4, y: y + 5, Style(.dim))
        case .restoreFile(let f):
            c.put("The path of a .linkstrbackup file (from the iOS app, or exported here)", x: 4, y: y, Style(.text), limit: c.width - 5)
            AppView.drawField(&c, f, x: 6, y: y + 2, width: min(60, c.width - 8), focused: !o.busy, placeholder: "~/Downloads/linkstr.linkstrbackup")
            if o.busy { c.put("reading the backup…", x: 6, y: y + 4, Style(.warning)) }
            c.put("Enter continue · Esc back", x: 4, y: y + 5, Style(.dim))
        case .restoreSecret(_, let f):
            c.put("This backup is sealed: type the passphrase it was exported with", x: 4, y: y, Style(.text), limit: c.width - 5)
            AppView.drawField(&c, f, x: 6, y: y + 2, width: min(40, c.width - 8), focused: !o.busy, mask: true)
            if o.busy { c.put("opening the backup (scrypt)…", x: 6, y: y + 4, Style(.warning)) }
            c.put("Enter continue · Esc back", x: 4, y: y + 5, Style(.dim))
        case .passphrase(let p, let confirm, let focusConfirm):
            let question = o.pendingImport?.lowercased().hasPrefix("ncryptsec1") == true ? "The ncryptsec's passphrase (it also protects the key here)"
                : o.pendingRestore != nil ? "The backup is fine. Choose a passphrase: it encrypts its key here"
                : "Choose a passphrase: it encrypts your key on this device"
            c.put(question, x: 4, y: y, Style(.text), limit: c.width - 5)
            AppView.drawField(&c, p, x: 6, y: y + 2, width: min(40, c.width - 8), focused: !focusConfirm && !o.busy, mask: true)
            if let confirm {
                c.put("again", x: 6, y: y + 3, Style(.dim))
                AppView.drawField(&c, confirm, x: 12, y: y + 3, width: min(34, c.width - 14), focused: focusConfirm && !o.busy, mask: true)
            }
            if let r = o.pendingRestore { c.put("account " + r.npub, x: 6, y: y + 5, Style(.dim), limit: c.width - 7) }
            if o.busy { c.put(o.pendingRestore != nil ? "restoring the backup…" : "deriving the key (scrypt)…", x: 6, y: y + 6, Style(.warning)) }
            c.put("Enter continue · Esc back", x: 4, y: y + 7, Style(.dim))
        case .backup(let revealed):
            let lines = [
                "Your account is ready. Its secret key (nsec) is the only way back into it:",
                "no server can reset it. Keep a copy somewhere safe, never share it.",
            ]
            for (i, l) in lines.enumerated() { c.put(l, x: 4, y: y + i, Style(.text), limit: c.width - 5) }
            if let revealed {
                c.putSecret(revealed, x: 4, y: y + 3, Style(.secret, bold: true), limit: c.width - 5)
                c.put("y copy · r hide · Enter continue", x: 4, y: y + 5, Style(.dim))
            } else {
                c.put("r reveal the key · Enter back it up later (you will be reminded)", x: 4, y: y + 3, Style(.dim))
            }
        }
        if let e = o.error {
            // Wrapped, never cut: a refused backup says exactly which record and why.
            for (i, line) in PostViews.wrap(DisplayText.singleLine(e), width: max(10, c.width - 7)).prefix(3).enumerated() {
                c.put(line, x: 6, y: y + 9 + i, Style(.error, bold: true))
            }
        }
        _ = state
    }
}
