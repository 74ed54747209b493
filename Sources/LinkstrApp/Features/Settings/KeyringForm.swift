import LinkstrDomain

/// Settings' `K`: the passphrase into the desktop's keyring (Secret Service), after it unlocked the key
/// (a wrong one is never stored), so the app and the CLI start without asking; `K` again takes it out.
public struct KeyringForm: Equatable, Sendable {
    public var passphrase = TextField()
    public var busy = false
    public var error: String?
    public init() {}
}

extension AppReducer {
    /// `K` in Settings: asks for the passphrase to keep, or takes it out of the keyring.
    static func toggleKeyring(_ state: inout AppState) -> [AppEffect] {
        guard let identity = state.identity, !state.inMemory else { return [] }
        if identity.usesKeyring {
            state.status = StatusLine("taking the passphrase out of the keyring…")
            return [.settings(.setKeyring(passphrase: nil))]
        }
        state.overlay = .keyring(KeyringForm())
        return []
    }

    static func keyringFormKey(_ state: inout AppState, _ f: inout KeyringForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        defer { if case .keyring = state.overlay { state.overlay = .keyring(f) } }
        switch key {
        case .escape: state.overlay = nil
        case .enter:
            guard !f.passphrase.text.isEmpty else { f.error = "type the passphrase you unlock with."; return [] }
            f.busy = true
            f.error = nil
            return [.settings(.setKeyring(passphrase: f.passphrase.text))]
        default:
            f.passphrase.edit(key)
            f.error = nil
        }
        return []
    }

    /// The keyring answered: on, off, the passphrase was not it, or why it could not.
    static func keyringAnswered(_ state: inout AppState, _ outcome: KeyringChange) -> [AppEffect] {
        switch outcome {
        case .on, .off:
            let on = outcome == .on
            state.identity?.usesKeyring = on
            if case .keyring = state.overlay { state.overlay = nil }
            state.status = StatusLine(on ? "the passphrase is in the keyring: the app and linkstr commands start without asking."
                                         : "the passphrase is no longer in the keyring.", .success)
        case .wrongPassphrase, .failed:
            let words = outcome == .wrongPassphrase ? "that is not the passphrase: nothing was stored." : { if case .failed(let why) = outcome { say(why) } else { "" } }()
            if case .keyring(var f) = state.overlay {
                f.busy = false
                f.passphrase.clear()
                f.error = words
                state.overlay = .keyring(f)
            } else {
                state.status = StatusLine(words, .error)
            }
        }
        return []
    }
}

/// How a keyring change ended.
public enum KeyringChange: Equatable, Sendable {
    case on, off
    case wrongPassphrase
    case failed(ClientError)
}
