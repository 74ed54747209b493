import LinkstrDomain
import NostrProtocol

/// Unlocking a stored identity, and onboarding: create (name, passphrase, backup) or import.
extension AppReducer {
    static func unlockKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard case .unlock(var u) = state.phase, !u.busy else { return [] }
        switch key {
        case .enter:
            u.busy = true
            u.error = nil
            state.phase = .unlock(u)
            return [.onboarding(.unlock(passphrase: u.passphrase.text))]
        case .escape: return [.quit]
        default:
            u.passphrase.edit(key)
            state.phase = .unlock(u)
            return []
        }
    }

    static func onboardingPaste(_ state: inout AppState, _ text: String) -> [AppEffect] {
        guard case .onboarding(var o) = state.phase else { return [] }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        switch o.step {
        case .createName(var f): f.insert(DisplayText.singleLine(line)); o.step = .createName(f)
        case .importKey(var f): f.insert(line.trimmingWhitespace()); o.step = .importKey(f)
        case .restoreFile(var f): f.insert(DisplayText.singleLine(line).trimmingWhitespace()); o.step = .restoreFile(f)
        case .restoreSecret(let path, var f): f.insert(line); o.step = .restoreSecret(path: path, f)
        case .passphrase(var p, let confirm, let focusConfirm):
            if focusConfirm, var c = confirm { c.insert(line); o.step = .passphrase(p, confirm: c, focusConfirm: true) } else {
                p.insert(line)
                o.step = .passphrase(p, confirm: confirm, focusConfirm: false)
            }
        default: return []
        }
        o.error = nil
        state.phase = .onboarding(o)
        return []
    }

    static func onboardingKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard case .onboarding(var o) = state.phase, !o.busy else { return [] }
        defer { if case .onboarding = state.phase { state.phase = .onboarding(o) } }
        switch o.step {
        case .choose(var selection):
            switch key {
            case .up, .char("k"): selection = max(0, selection - 1)
            case .down, .char("j"): selection = min(2, selection + 1)
            case .char("c"): o.step = .createName(TextField()); return []
            case .char("i"): o.step = .importKey(TextField()); return []
            case .char("b"): o.step = .restoreFile(TextField()); return []
            case .enter:
                o.step = [.createName(TextField()), .importKey(TextField()), .restoreFile(TextField())][selection]
                return []
            case .char("q"), .escape: return [.quit]
            default: break
            }
            o.step = .choose(selection: selection)
        case .createName(var f):
            switch key {
            case .escape: o.step = .choose(selection: 0)
            case .enter:
                let name = f.text.trimmingWhitespace()
                o.pendingName = name.isEmpty ? nil : name
                o.pendingImport = nil
                o.pendingRestore = nil
                if state.passphraseInEnvironment {
                    o.busy = true
                    return [.onboarding(.createIdentity(name: o.pendingName, passphrase: nil))]
                }
                o.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false)
            default: f.edit(key); o.step = .createName(f)
            }
        case .importKey(var f):
            switch key {
            case .escape: o.step = .choose(selection: 1); o.error = nil
            case .enter:
                let text = f.text.trimmingWhitespace()
                // Precise errors before asking for a passphrase ("that is an npub, not a secret key").
                if !text.lowercased().hasPrefix("ncryptsec1") {
                    do { _ = try SecretKey.parse(text) } catch {
                        o.error = error.description
                        return []
                    }
                }
                o.error = nil
                o.pendingImport = text
                o.pendingName = nil
                o.pendingRestore = nil
                // An ncryptsec has its own password, so that one is always asked for.
                if state.passphraseInEnvironment, !text.lowercased().hasPrefix("ncryptsec1") {
                    o.busy = true
                    return [.onboarding(.importIdentity(key: text, passphrase: nil))]
                }
                o.step = .passphrase(TextField(), confirm: text.lowercased().hasPrefix("ncryptsec1") ? nil : TextField(), focusConfirm: false)
            default: f.edit(key); o.step = .importKey(f); o.error = nil
            }
        case .restoreFile(var f):
            switch key {
            case .escape: o.step = .choose(selection: 2); o.error = nil
            case .enter:
                let path = f.text.trimmingWhitespace()
                guard !path.isEmpty else { o.error = "type the path of a .linkstrbackup file."; return [] }
                o.busy = true
                o.error = nil
                return [.onboarding(.checkBackup(path: path, backupPassphrase: nil))]
            default: f.edit(key); o.step = .restoreFile(f); o.error = nil
            }
        case .restoreSecret(let path, var f):
            switch key {
            case .escape: o.step = .choose(selection: 2); o.error = nil
            case .enter:
                guard !f.text.isEmpty else { o.error = "type the passphrase the backup was sealed with."; return [] }
                o.busy = true
                o.error = nil
                return [.onboarding(.checkBackup(path: path, backupPassphrase: f.text))]
            default: f.edit(key); o.step = .restoreSecret(path: path, f); o.error = nil
            }
        case .passphrase(var p, var confirm, let focusConfirm):
            switch key {
            case .escape where focusConfirm, .backTab where focusConfirm, .up where focusConfirm:
                // Back to the first field, with what was typed (Esc lost everything).
                o.step = .passphrase(p, confirm: confirm, focusConfirm: false)
                o.error = nil
            case .escape:
                // Back to the step before, with what was typed there.
                if let r = o.pendingRestore {
                    o.step = r.backupPassphrase.map { .restoreSecret(path: r.path, TextField($0)) } ?? .restoreFile(TextField(r.path))
                } else if let k = o.pendingImport {
                    o.step = .importKey(TextField(k))
                } else {
                    o.step = .createName(TextField(o.pendingName ?? ""))
                }
                o.error = nil
                o.pendingRestore = nil
            case .enter where p.text.isEmpty, .tab where p.text.isEmpty:
                // An empty passphrase keeps the focus where it can be typed (it used to move on and trap it).
                o.error = "choose a passphrase: it protects your key on this device."
                o.step = .passphrase(p, confirm: confirm, focusConfirm: false)
                return []
            case .enter, .tab:
                if !focusConfirm, confirm != nil, !o.weakPassphraseSaid, let why = PassphraseStrength.weakness(p.text) {
                    // A new passphrase that is short or common: said once; Enter again takes it.
                    o.weakPassphraseSaid = true
                    o.error = "that passphrase is weak: \(why). Type a longer one, or press Enter again to use it anyway."
                    return []
                }
                if !focusConfirm, confirm != nil {
                    o.step = .passphrase(p, confirm: confirm, focusConfirm: true)
                    o.error = nil
                    return []
                }
                if let c = confirm, c.text != p.text {
                    o.error = "the passphrases do not match."
                    o.step = .passphrase(p, confirm: TextField(), focusConfirm: true)
                    return []
                }
                o.busy = true
                o.error = nil
                if let key = o.pendingImport { return [.onboarding(.importIdentity(key: key, passphrase: p.text))] }
                if let r = o.pendingRestore { return [.onboarding(.restoreBackup(path: r.path, backupPassphrase: r.backupPassphrase, passphrase: p.text))] }
                return [.onboarding(.createIdentity(name: o.pendingName, passphrase: p.text))]
            default:
                if focusConfirm, var c = confirm { c.edit(key); confirm = c } else {
                    p.edit(key)
                    o.weakPassphraseSaid = false
                }
                o.step = .passphrase(p, confirm: confirm, focusConfirm: focusConfirm)
                o.error = nil
            }
        case .backup(let revealed):
            switch key {
            case .char("r"), .char("s"):
                // The key shows only on an explicit key press.
                o.step = .backup(revealed: revealed == nil ? o.secretToBackUp : nil)
            case .char("y") where revealed != nil:
                return [.settings(.copySecret(revealed!))]
            case .enter, .char("l"), .escape:
                // "later" is allowed: the You pane keeps reminding.
                let backedUp = revealed != nil
                o.secretToBackUp = nil
                guard var info = state.identity else { return [] }
                info.backedUp = backedUp
                state.phase = .main
                return (backedUp ? [.settings(.markKeyBackedUp)] : []) + reduce(&state, .identityReady(info, inMemory: state.inMemory))
            default: break
            }
        }
        return []
    }

    // MARK: results

    /// What the onboarding feature's effects answered.
    static func apply(_ state: inout AppState, _ action: OnboardingAction) -> [AppEffect] {
        switch action {
        case .identityMissing:
            state.phase = .onboarding(OnboardingState())
            return []
        case .passphraseInEnvironment:
            state.passphraseInEnvironment = true
            return []
        case .passphraseNeeded(let pubkey, let npub):
            state.phase = .unlock(UnlockState(pubkey: pubkey, npub: npub))
            return []
        case .unlockFailed, .environmentPassphraseRefused:
            if case .unlock(var u) = state.phase {
                if case .unlockFailed(let error) = action { u.error = say(error) } else {
                    u.error = "LINKSTR_PASSPHRASE did not unlock this key; type it here."
                }
                u.busy = false
                u.passphrase.clear()
                state.phase = .unlock(u)
            }
            return []
        case .onboardingFailed(let error):
            if case .onboarding(var o) = state.phase {
                o.error = say(error)
                o.busy = false
                state.phase = .onboarding(o)
            }
            return []
        case .backupNeedsPassphrase(let path):
            guard case .onboarding(var o) = state.phase, case .restoreFile = o.step else { return [] }
            o.busy = false
            o.error = nil
            o.step = .restoreSecret(path: path, TextField())
            state.phase = .onboarding(o)
            return []
        case .backupChecked(let path, let backupPassphrase, let npub):
            guard case .onboarding(var o) = state.phase else { return [] }
            switch o.step { case .restoreFile, .restoreSecret: break; default: return [] }
            o.busy = false
            o.error = nil
            o.pendingRestore = PendingRestore(path: path, backupPassphrase: backupPassphrase, npub: npub)
            o.pendingImport = nil
            o.pendingName = nil
            if state.passphraseInEnvironment {
                o.busy = true
                state.phase = .onboarding(o)
                return [.onboarding(.restoreBackup(path: path, backupPassphrase: backupPassphrase, passphrase: nil))]
            }
            o.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false)
            state.phase = .onboarding(o)
            return []
        case .backupRestored(let sessions, let posts):
            state.status = StatusLine("backup restored: \(sessions) new session\(sessions == 1 ? "" : "s"), \(posts) new post\(posts == 1 ? "" : "s").", .success)
            return []
        case .identityCreated(let info, let nsec):
            state.identity = info
            var o = OnboardingState()
            o.step = .backup(revealed: nil)
            o.secretToBackUp = nsec
            state.phase = .onboarding(o)
            return []

        }
    }
}
