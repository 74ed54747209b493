import LinkstrDomain

/// Settings' `P`: a new passphrase for this identity's key file (the CLI's `identity passphrase`): the
/// current one, then the new one twice. A weak new one (short or common) is said once; Enter again
/// takes it. The file is replaced whole (`IdentityVault.changePassphrase`).
public struct ChangePassphraseForm: Equatable, Sendable {
    public enum Field: Int, Equatable, Sendable, CaseIterable { case current, new, again }
    public var current = TextField()
    public var new = TextField()
    public var again = TextField()
    public var focus: Field = .current
    public var busy = false
    public var error: String?
    /// The new passphrase was said to be weak: Enter again takes it.
    public var weakSaid = false
    public init() {}
}

extension AppReducer {
    static func changePassphraseKey(_ state: inout AppState, _ f: inout ChangePassphraseForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        defer { if case .changePassphrase = state.overlay { state.overlay = .changePassphrase(f) } }
        switch key {
        case .escape: state.overlay = nil
        case .tab: f.focus = ChangePassphraseForm.Field(rawValue: (f.focus.rawValue + 1) % 3) ?? .current
        case .backTab, .up: f.focus = ChangePassphraseForm.Field(rawValue: (f.focus.rawValue + 2) % 3) ?? .current
        case .enter, .down:
            switch f.focus {
            case .current:
                guard !f.current.text.isEmpty else { f.error = "type the passphrase you unlock with now."; return [] }
                f.focus = .new
            case .new:
                guard !f.new.text.isEmpty else { f.error = "choose a new passphrase."; return [] }
                if key == .enter, !f.weakSaid, let why = PassphraseStrength.weakness(f.new.text) {
                    f.weakSaid = true
                    f.error = "that passphrase is weak: \(why). Type a longer one, or press Enter again to use it anyway."
                    return []
                }
                f.error = nil
                f.focus = .again
            case .again:
                guard key == .enter else { return [] }
                guard f.again.text == f.new.text else {
                    f.error = "the new passphrases do not match."
                    f.again.clear()
                    return []
                }
                guard !f.current.text.isEmpty, !f.new.text.isEmpty else {
                    f.focus = f.current.text.isEmpty ? .current : .new
                    return []
                }
                f.busy = true
                f.error = nil
                return [.settings(.changePassphrase(old: f.current.text, new: f.new.text))]
            }
        default:
            switch f.focus {
            case .current: f.current.edit(key)
            case .new:
                f.new.edit(key)
                f.weakSaid = false
            case .again: f.again.edit(key)
            }
            f.error = nil
        }
        return []
    }

    /// The change answered: done (the form closes), the current passphrase was not it, or why not
    /// (said in the form; nothing changed).
    static func passphraseChangeAnswered(_ state: inout AppState, _ outcome: PassphraseChange) -> [AppEffect] {
        if case .changed = outcome {
            if case .changePassphrase = state.overlay { state.overlay = nil }
            state.status = StatusLine("passphrase changed: unlock with the new one from now on.", .success)
            return []
        }
        guard case .changePassphrase(var f) = state.overlay else {
            if case .failed(let why) = outcome { state.status = StatusLine(say(why), .error) }
            return []
        }
        f.busy = false
        switch outcome {
        case .changed: break
        case .currentWrong:
            // All three typed again: nothing of a failed attempt stays in the fields.
            f = ChangePassphraseForm()
            f.error = "that is not the current passphrase: nothing was changed."
        case .failed(let why):
            f.error = say(why)
        }
        state.overlay = .changePassphrase(f)
        return []
    }
}

/// How a passphrase change ended.
public enum PassphraseChange: Equatable, Sendable {
    case changed
    /// The passphrase given as the current one does not open the key file.
    case currentWrong
    case failed(ClientError)
}
