import LinkstrDomain
import NostrProtocol

/// The You pane (profile, npub, QR, identities) and the Settings pane (relays, storage, identity).
extension AppReducer {
    static func youKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if var field = state.you.editingName {
            switch key {
            case .escape: state.you.editingName = nil
            case .enter:
                let name = field.text.trimmingWhitespace()
                return [.setProfileName(name.isEmpty ? nil : name)]
            default:
                editField(&field, key)
                state.you.editingName = field
            }
            return []
        }
        let entries = state.you.entries(contacts: state.contacts)
        let selected = entries[safe: state.you.selection]
        switch key {
        case .char("e"): state.you.editingName = TextField(state.identity?.profileName ?? "")
        case .char("y"):
            guard let npub = state.identity?.npub else { return [] }
            return [.copy(npub, label: "npub")]
        case .down, .char("j"): state.you.selection = min(state.you.selection + 1, max(0, entries.count - 1))
        case .up, .char("k"): state.you.selection = max(0, state.you.selection - 1)
        case .char("f"):
            guard !state.you.askingAddedYou else { return [] }
            state.you.askingAddedYou = true
            state.status = StatusLine("asking your relays who added you…")
            return [.loadAddedYou]
        case .char("a"), .char("+"): state.overlay = .contact(addContactForm(selected))
        case .char("r"), .enter:
            switch selected {
            case .follower:
                state.overlay = .contact(addContactForm(selected))
            case .contact(let pk):
                state.overlay = .contact(ContactForm(editing: pk, alias: state.contacts.first { $0.pubkey == pk }?.alias))
            case .identity(let entry) where key == .enter && !entry.active:
                return [.switchIdentity(entry.pubkey)]
            default: break
            }
        case .char("x"), .delete:
            guard case .contact(let pk)? = selected else { return [] }
            state.overlay = .confirm(Confirmation(.removeContact(pk),
                "remove \(AccountState.shortNpub(pk)) from your contacts? this publishes your follow list. (y/n)"))
        default: break
        }
        return []
    }

    /// The add-contact form; on someone who added you, their key filled in and the alias next.
    static func addContactForm(_ selected: YouState.Entry?) -> ContactForm {
        var form = ContactForm()
        if case .follower(let pk)? = selected {
            form.key = TextField((try? PublicKey(hex: pk))?.npub ?? pk)
            form.focus = 1
        }
        return form
    }

    static func contactFormKey(_ state: inout AppState, _ f: inout ContactForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        switch key {
        case .escape: state.overlay = nil; return []
        case .tab, .backTab: if f.editing == nil { f.focus = 1 - f.focus }
        case .enter where f.focus == 0:
            // Return advances from the key into the alias once the key is valid (readme v2).
            switch f.checkedKey { case .success: f.focus = 1; f.error = nil
            case .failure(let why): f.error = why.description }
        case .enter, .ctrl("s"):
            let pk: Pubkey
            switch f.checkedKey {
            case .success(let key): pk = key
            case .failure(let why): f.error = why.description; f.focus = 0; return []
            }
            guard pk != state.identity?.pubkey else { f.error = "that is you."; break }
            let alias = f.alias.text.trimmingWhitespace()
            f.busy = true
            f.error = nil
            state.overlay = .contact(f)
            let known = state.contacts.contains { $0.pubkey == pk }
            // Re-adding a contact only updates the alias; it does not republish the follow list.
            return [known ? .setAlias(pk, alias: alias.isEmpty ? nil : alias) : .addContact(pk, alias: alias.isEmpty ? nil : alias)]
        default:
            if f.focus == 0 { editField(&f.key, key) } else { editField(&f.alias, key) }
            f.error = nil
        }
        state.overlay = .contact(f)
        return []
    }

    static func settingsKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if var field = state.settings.adding {
            switch key {
            case .escape:
                state.settings.adding = nil
                if state.status?.kind == .error { state.status = nil }
            case .enter:
                // Checked here first: a bad URL keeps the field open with its text and the reason, and the
                // keys that follow still go to it (issue 33 item 6: they ran Settings actions).
                switch RelayURL.validateNew(field.text, existing: state.settings.relays.map(\.url)) {
                case .failure(let error):
                    state.status = StatusLine(error.description, .error)
                case .success(let url):
                    state.settings.adding = nil
                    state.status = StatusLine("adding \(url)…")
                    state.settings.pendingAdd = url
                    return [.addRelay(url)]
                }
            default:
                editField(&field, key)
                state.settings.adding = field
            }
            return []
        }
        let relays = state.settings.relays
        let selected = relays[safe: state.settings.selection]
        switch key {
        case .down, .char("j"): state.settings.selection = min(state.settings.selection + 1, max(0, relays.count - 1))
        case .up, .char("k"): state.settings.selection = max(0, state.settings.selection - 1)
        case .home, .char("g"): state.settings.selection = 0
        case .end, .char("G"): state.settings.selection = max(0, relays.count - 1)
        case .char("a"): state.settings.adding = TextField("wss://")
        case .char("x"), .delete:
            guard let r = selected else { return [] }
            state.overlay = .confirm(Confirmation(.removeRelay(r.url), "remove \(r.url)? (y/n)"))
        case .char(" "):
            guard let r = selected else { return [] }
            return [.setRelayEnabled(r.url, r.health == .disabled)]
        case .char("R"): state.overlay = .confirm(Confirmation(.resetRelays, "replace your relays with the defaults? (y/n)"))
        case .char("s"): state.settings.showStats.toggle()
        case .char("t"):
            guard let r = selected else { return [] }
            state.status = StatusLine("testing \(r.url)…")
            return [.testRelay(r.url)]
        case .char("C"): state.overlay = .confirm(Confirmation(.clearCache, "clear cached media and previews? posts stay. (y/n)"))
        case .char("S"):
            if state.settings.revealedSecret != nil { hideSecret(&state) } else {
                state.overlay = .confirm(Confirmation(.revealSecret,
                    "show your secret key (nsec)? anyone who sees it can act as you. (y/n)"))
            }
        case .char("y"):
            guard let secret = state.settings.revealedSecret else { return [] }
            return [.copySecret(secret)]
        case .char("L") where state.identity?.backedUp == false: state.overlay = .confirm(unsavedKey(.logout(clearData: false), "log out"))
        case .char("X") where state.identity?.backedUp == false: state.overlay = .confirm(unsavedKey(.logout(clearData: true), "log out and clear its data"))
        case .char("D") where state.identity?.backedUp == false: state.overlay = .confirm(unsavedKey(.deleteAccount(step: 2), "delete the account"))
        case .char("L"): state.overlay = .confirm(Confirmation(.logout(clearData: false), "log out and keep local data? (y/n)"))
        case .char("X"): state.overlay = .confirm(Confirmation(.logout(clearData: true), "log out and CLEAR this account's local data? (y/n)"))
        case .char("D"): state.overlay = .confirm(Confirmation(.deleteAccount(step: 1),
            "delete your account? this asks relays to erase you (NIP-62). (y/n)"))
        default: break
        }
        return []
    }

    /// Leaving an account whose key was never backed up loses it: said plainly, and a word to type.
    static func unsavedKey(_ action: Confirmation.Action, _ what: String) -> Confirmation {
        Confirmation(action, "your secret key was never backed up: this device holds its only copy, and if you \(what) now the account is lost for good. "
                     + "Esc, then S shows the key so you can save it. To \(what) anyway, type forget and press Enter.", word: "forget")
    }
}
