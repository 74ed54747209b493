import Foundation
import LinkstrClient
import LinkstrConfig
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization

/// Everything a command needs, opened on demand: data directory, vault, store, identity, relays.
final class CLIContext: Sendable {
    let options: GlobalOptions
    let paths: DataPaths
    let vault: IdentityVault
    let config: ConfigFile
    /// `--passphrase-command`, else `passphrase_command`.
    let passphraseCommand: PassphraseCommand?
    private let openedDevice = Mutex<LocalDevice?>(nil)
    private let unlocked = Mutex<SecretKey?>(nil)
    private let opened = Mutex<AccountSession?>(nil)

    init(_ options: GlobalOptions) throws {
        self.options = options
        umask(0o077)
        paths = DataPaths.resolve(home: options.home)
        try paths.prepare()
        config = try ConfigFile.load(in: paths.config)
        passphraseCommand = try options.passphraseCommand(configured: config.passphraseCommand)
        try TLSTrust.use(caFile: config.tlsCAFile)
        vault = IdentityVault(paths: paths)
    }

    var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// This device's database and identities, opened on first use.
    func device() throws -> LocalDevice {
        try openedDevice.withLock { opened in
            if let opened { return opened }
            let d = try LocalDevice(paths: paths, vault: vault)
            opened = d
            return d
        }
    }

    var passphraseSource: PassphraseSource? { passphraseSource(keyringFor: nil) }

    /// Where a passphrase comes from; for `pubkey`, the keyring too when that identity put it there.
    func passphraseSource(keyringFor pubkey: Pubkey?) -> PassphraseSource? {
        let hasTerminal = FileManager.default.isReadableFile(atPath: "/dev/tty")
        let ask: @Sendable (String) -> String? = { question in TerminalPrompt.secret(question) }
        let prompt: (@Sendable (String) -> String?)? = hasTerminal ? ask : nil
        let keyring = pubkey.flatMap { pk in vault.usesKeyring(pk) ? (try? PublicKey(hex: pk))?.npub : nil }.map { npub in
            PassphraseSource.KeyringUse(npub: npub) { why in
                FileHandle.standardError.write(Data("linkstr: \(why); trying the next source.\n".utf8))
            }
        }
        return PassphraseSource.resolve(file: options.passphraseFile, command: passphraseCommand, keyring: keyring, prompt: prompt)
    }

    func passphrase(_ question: String = "passphrase: ", keyringFor pubkey: Pubkey? = nil) throws -> String {
        guard let source = passphraseSource(keyringFor: pubkey) else { throw VaultError.noPassphrase }
        return try source.read(question: question)
    }

    /// A new passphrase: asked twice when typed.
    /// The passphrase a new key file is sealed with; a weak one (short or common) is refused unless
    /// `allowWeak` (`--allow-weak`).
    func newPassphrase(allowWeak: Bool = false) throws -> String {
        guard let source = passphraseSource else { throw VaultError.noPassphrase }
        let first = try source.read(question: "new passphrase: ")
        if case .prompt = source {
            guard try source.read(question: "repeat passphrase: ") == first else { throw CLIError("the passphrases do not match.", .invalidInput) }
        }
        guard !first.isEmpty else { throw VaultError.emptyPassphrase }
        if !allowWeak, let why = PassphraseStrength.weakness(first) {
            throw CLIError("that passphrase is weak: \(why). Choose a longer one, or add --allow-weak.", .invalidInput)
        }
        return first
    }

    /// The active identity and its npub.
    func activeIdentity() throws -> (Pubkey, String) {
        guard let active = vault.activePubkey() else { throw CLIError("no identity yet: run `linkstr identity create` or `linkstr identity import`.", .notFound) }
        return (active, (try? PublicKey(hex: active))?.npub ?? active)
    }

    /// The active identity, unlocked (asked once per command).
    func identity() throws -> SecretKey {
        try unlocked.withLock { key in
            if let key { return key }
            let (active, _) = try activeIdentity()
            let opened = try vault.unlock(active, passphrase: try passphrase(keyringFor: active))
            key = opened
            return opened
        }
    }

    /// The active identity's account, opened as the app opens it (`--relay` for this run): the one way
    /// to it for every command, so its previews, thumbnails and saves keep the app's rules (a host we
    /// blocked is never fetched from). Opened once; again after `withAccount` closed it.
    /// `holdsDataLock`: the command took the data lock (it writes), so the media cache's unfinished
    /// files are leftovers and go.
    func account(holdsDataLock: Bool = false) throws -> AccountSession {
        if let open = opened.withLock({ $0 }), !open.isClosed { return open }
        let session = try device().openAccount(try identity(), relayOverrides: options.relays, mediaCacheBytes: Int64(config.mediaCacheMB) << 20,
                                               indexers: config.indexerRelays, holdsDataLock: holdsDataLock,
                                               queueHoldAfterDays: config.queueHoldAfterDays)
        opened.withLock { $0 = session }
        return session
    }

    /// Runs `body` on the account, then finishes it whatever happens: what the command left going out gets
    /// its chance (`AccountSession.finish`), and what the account started ends with it.
    func withAccount<T>(holdsDataLock: Bool = false, _ body: (AccountSession) async throws -> T) async throws -> T {
        let session = try account(holdsDataLock: holdsDataLock)
        do {
            let result = try await body(session)
            await session.finish()
            return result
        } catch {
            await session.finish()
            throw error
        }
    }

    /// Runs `body` with the account's use cases (the engine connects only if one needs it), then
    /// finishes the account (`withAccount`).
    func withActions<T>(_ body: (AccountActions) async throws -> T) async throws -> T {
        try await withAccount { try await body($0.actions(requests: requestPolicy)) }
    }

    /// Whether strangers' sessions wait as requests (`session_requests`).
    var requestPolicy: SessionRequestPolicy { SessionRequestPolicy(holdsStrangers: config.sessionRequests) }

    /// The session `typed` names: its id, its name, or the start of one session's name. Several
    /// starting so are listed, to choose from; none is left as typed (the use case says it is unknown).
    func sessionID(_ typed: String, in account: AccountSession) throws -> String {
        let sessions = try account.reads.sessionSummaries(archived: nil).map { (id: $0.id, name: $0.name) }
        switch SessionChoice.choose(typed, among: sessions) {
        case .session(let id): return id
        case .none: return typed
        case .ambiguous(let several):
            let listed = several.map { "\(DisplayText.singleLine($0.name)) (\($0.id))" }.joined(separator: ", ")
            throw CLIError("“\(DisplayText.singleLine(typed))” starts more than one session's name: \(listed). Give more of it, or the id.", .invalidInput)
        }
    }
}

extension CLIContext {
    /// The identities on this device (create, import, forget).
    func identities() throws -> IdentityActions { try device().identities }
}
