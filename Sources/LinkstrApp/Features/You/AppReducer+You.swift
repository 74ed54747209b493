import LinkstrDomain
import NostrProtocol

/// The You pane: profile, npub, QR, identities, contacts and "added you" — its keys and its results.
extension AppReducer {
    static func youKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if var field = state.you.editingName {
            switch key {
            case .escape: state.you.editingName = nil
            case .enter:
                let name = field.text.trimmingWhitespace()
                return [.you(.setProfileName(name.isEmpty ? nil : name))]
            default:
                field.edit(key)
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
            return [.you(.loadAddedYou)]
        case .char("a"), .char("+"): state.overlay = .contact(addContactForm(selected))
        case .char("r"), .enter:
            switch selected {
            case .follower:
                state.overlay = .contact(addContactForm(selected))
            case .contact(let pk):
                state.overlay = .contact(ContactForm(editing: pk, alias: state.contacts.first { $0.pubkey == pk }?.alias))
            case .identity(let entry) where key == .enter && !entry.active:
                return [.you(.switchIdentity(entry.pubkey))]
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
            return [known ? .you(.setAlias(pk, alias: alias.isEmpty ? nil : alias)) : .you(.addContact(pk, alias: alias.isEmpty ? nil : alias, input: f.key.text))]
        default:
            if f.focus == 0 { f.key.edit(key) } else { f.alias.edit(key) }
            f.error = nil
        }
        state.overlay = .contact(f)
        return []
    }

    // MARK: results

    /// What the you feature's effects answered.
    static func apply(_ state: inout AppState, _ action: YouAction) -> [AppEffect] {
        switch action {
        case .profileNamesLoaded(let names):
            state.profileNames = names
            return []
        case .nip05Loaded(let marks):
            state.nip05 = marks
            return []
        case .ownProfileNameLoaded(let name):
            state.identity?.profileName = name
            return []
        case .contactsLoaded(let contacts):
            // Sorted by the name shown, so lists stay put as contacts arrive.
            state.contacts = contacts.sorted { a, b in
                let x = (a.alias ?? "").lowercased(), y = (b.alias ?? "").lowercased()
                if x.isEmpty != y.isEmpty { return !x.isEmpty }
                return x != y ? x < y : a.pubkey < b.pubkey
            }
            let count = state.you.entries(contacts: state.contacts).count
            state.you.selection = min(state.you.selection, max(0, count - 1))
            return []
        case .identitiesLoaded(let entries):
            state.you.identities = entries
            return []
        case .addedYouLoaded(let keys, let complete):
            state.you.addedYou = keys
            state.you.askingAddedYou = false
            let count = keys.filter { k in !state.contacts.contains { $0.pubkey == k } }.count
            let summary = keys.isEmpty ? "nobody's follow list names you on your relays."
                : "\(keys.count) added you\(count < keys.count ? ", \(count) not in your contacts" : "")."
            state.status = complete ? StatusLine(summary, .success) : StatusLine(summary + " " + AddedYouRule.partialNote, .warning)
            return [.you(.watchAddedYou(true))]
        case .addedYouChanged(let keys):
            guard state.you.addedYou != nil else { return [] }
            state.you.addedYou = keys
            state.you.selection = min(state.you.selection, max(0, state.you.entries(contacts: state.contacts).count - 1))
            return []
        case .addedYouFailed(let why):
            state.you.askingAddedYou = false
            state.status = StatusLine(say(why), .error)
            return []
        case .contactSaved:
            if case .contact(let f)? = state.overlay {
                state.status = StatusLine(f.editing == nil ? "contact added." : "alias saved.", .success)
                state.overlay = nil
            }
            return [.you(.loadContacts)]
        case .contactSaveFailed(let error):
            if case .contact(var f)? = state.overlay {
                f.busy = false
                f.error = say(error)
                state.overlay = .contact(f)
            } else {
                state.status = StatusLine(say(error), .error)
            }
            return []
        case .contactRemoved:
            state.status = StatusLine("contact removed.", .success)
            return []
        case .profileNameSaved(let name):
            state.identity?.profileName = name
            state.you.editingName = nil
            state.status = StatusLine(name == nil ? "profile name cleared." : "profile name saved.", .success)
            return []
        }
    }
}
