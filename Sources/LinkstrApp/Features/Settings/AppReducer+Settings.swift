import LinkstrDomain
import NostrProtocol

/// The Settings pane: relays, storage, the secret key, backups, theme — its keys and its results.
extension AppReducer {
    static func settingsKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if state.settings.ownList != nil { return ownRelayListKey(&state, key) }
        if var field = state.settings.adding {
            switch key {
            case .escape:
                state.settings.adding = nil
                if state.status?.kind == .error { state.status = nil }
            case .enter:
                // Checked here first: a bad URL keeps the field open with its text and the reason, and the
                // keys that follow still go to it (they ran Settings actions).
                switch RelayURL.validateNew(field.text, existing: state.settings.relays.map(\.url)) {
                case .failure(let error):
                    state.status = StatusLine(error.description, .error)
                case .success(let url):
                    state.settings.adding = nil
                    state.status = StatusLine("adding \(url)…")
                    state.settings.pendingAdd = url
                    return [.settings(.addRelay(url))]
                }
            default:
                field.edit(key)
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
            return [.settings(.setRelayEnabled(r.url, r.health == .disabled))]
        case .char("R"): state.overlay = .confirm(Confirmation(.resetRelays, "replace your relays with the defaults? (y/n)"))
        case .char("s"): state.settings.showStats.toggle()
        case .char("b"):
            state.settings.ownList = OwnRelayListState(.blocked)
            return [.settings(.loadBlockedRelays)]
        case .char("i"):
            state.settings.ownList = OwnRelayListState(.inbox)
            return [.settings(.loadInboxRelays)]
        case .char("t"):
            guard let r = selected else { return [] }
            state.status = StatusLine("testing \(r.url)…")
            return [.settings(.testRelay(r.url))]
        case .char("C"): state.overlay = .confirm(Confirmation(.clearCache, "clear cached media and previews? posts stay. (y/n)"))
        case .char("S"):
            if state.settings.revealedSecret != nil { hideSecret(&state) } else {
                state.overlay = .confirm(Confirmation(.revealSecret,
                    "show your secret key (nsec)? anyone who sees it can act as you. (y/n)"))
            }
        case .char("P"): state.overlay = .changePassphrase(ChangePassphraseForm())
        case .char("K"): return toggleKeyring(&state)
        case .char("y"):
            guard let secret = state.settings.revealedSecret else { return [] }
            return [.settings(.copySecret(secret))]
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

    // MARK: results

    /// What the settings feature's effects answered.
    static func apply(_ state: inout AppState, _ action: SettingsAction) -> [AppEffect] {
        switch action {
        case .hooksNeedConsent(let lines):
            let all = lines.map(DisplayText.singleLine).joined(separator: "; ")
            let shown = all.count > 160 ? String(all.prefix(159)) + "…" : all
            state.overlay = .confirm(Confirmation(.allowHooks, "config.toml asks to run hooks on news (\(shown)). run them on this account? (y/n)"))
            return []
        case .hookSaid(let words):
            state.status = StatusLine(DisplayText.singleLine(words), .warning)
            return []
        case .relaysChanged(let rows):
            state.settings.relays = rows.sorted { $0.url < $1.url }
            state.settings.selection = min(state.settings.selection, max(0, rows.count - 1))
            if let url = state.settings.pendingAdd, let i = state.settings.relays.firstIndex(where: { $0.url == url }) {
                state.settings.pendingAdd = nil
                state.settings.selection = i
                state.status = StatusLine("added \(url).", .success)
            }
            return []
        case .mediaUsageLoaded(let usage):
            state.settings.mediaUsage = usage
            return []
        case .passphraseChangeAnswered(let outcome):
            return passphraseChangeAnswered(&state, outcome)
        case .keyringAnswered(let outcome):
            return keyringAnswered(&state, outcome)
        case .cacheCleared:
            state.status = StatusLine("cached media and previews cleared.", .success)
            return [.settings(.loadMediaUsage)]
        case .backupExported(let path):
            if case .exportBackup = state.overlay { state.overlay = nil }
            state.identity?.backedUp = true
            state.status = StatusLine("backup written to \(DisplayText.singleLine(path)).", .success)
            return []
        case .backupExportFailed(let why):
            if case .exportBackup(var f) = state.overlay {
                f.busy = false
                f.error = say(why)
                state.overlay = .exportBackup(f)
            } else {
                state.status = StatusLine(say(why), .error)
            }
            return []
        case .secretRevealed(let nsec):
            guard state.pane == .settings else { return [] }
            state.settings.revealedSecret = nsec
            state.settings.revealedUntil = state.now + revealSeconds
            guard state.identity?.backedUp == false else { return [] }
            state.identity?.backedUp = true
            return [.settings(.markKeyBackedUp)]
        case .relayTested(let url, let summary, let ok):
            state.status = StatusLine("\(url): \(summary)", ok ? .success : .error)
            return []
        case .themeApplied(let name):
            state.themeName = name
            state.status = StatusLine("theme \(name) for this run (theme = \"\(name)\" in config.toml keeps it).", .success)
            return []
        case .themeFailed(let why):
            state.status = StatusLine(say(why), .error)
            return []
        case .damagedRecordsLeftOut, .damagedRecordsRepaired:
            return applyRepair(&state, action)
        case .blockedRelaysLoaded, .blockedRelayEdited, .inboxRelaysLoaded, .inboxRelaysSaved:
            return applyOwnRelayList(&state, action)
        case .doctorReported(let sid, let lines):
            guard case .doctor(var report) = state.overlay, report.sessionID == sid else { return [] }
            report.lines = lines
            report.loading = false
            state.overlay = .doctor(report)
            return []
        }
    }
}
