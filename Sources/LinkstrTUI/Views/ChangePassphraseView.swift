import LinkstrApp

/// Settings' `P` box: the current passphrase, then the new one twice, each masked.
enum ChangePassphraseView {
    static func render(_ c: inout Canvas, _ f: ChangePassphraseForm) {
        let r = OverlayViews.box(&c, title: "Change the passphrase", width: min(72, c.width - 4), height: 11)
        c.put("It seals your key on this device; the old one stops working.", x: r.x + 2, y: r.y + 2, Style(.text), limit: r.width - 4)
        let rows: [(String, TextField, ChangePassphraseForm.Field)] = [("Current", f.current, .current), ("New", f.new, .new), ("Again", f.again, .again)]
        for (i, (label, field, which)) in rows.enumerated() {
            c.put(label, x: r.x + 2, y: r.y + 4 + i, Style(f.focus == which ? .accent : .dim))
            AppView.drawField(&c, field, x: r.x + 12, y: r.y + 4 + i, width: r.width - 14, focused: f.focus == which && !f.busy, mask: true)
        }
        OverlayViews.footer(&c, r, f.busy ? "sealing the key again (scrypt)…" : f.error ?? "Enter next/change · Tab field · Esc cancel",
                            error: f.error != nil && !f.busy)
    }

    /// Settings' `K` box: the passphrase to keep in the desktop's keyring.
    static func keyring(_ c: inout Canvas, _ f: KeyringForm) {
        let r = OverlayViews.box(&c, title: "Keep the passphrase in the keyring", width: min(72, c.width - 4), height: 9)
        c.put("The desktop's keyring (Secret Service) gives it to linkstr at start.", x: r.x + 2, y: r.y + 2, Style(.text), limit: r.width - 4)
        c.put("Passphrase", x: r.x + 2, y: r.y + 4, Style(.accent))
        AppView.drawField(&c, f.passphrase, x: r.x + 14, y: r.y + 4, width: r.width - 16, focused: !f.busy, mask: true)
        OverlayViews.footer(&c, r, f.busy ? "checking it and storing it…" : f.error ?? "Enter keep it · Esc cancel", error: f.error != nil && !f.busy)
    }
}
