import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import LinkstrTUI
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
    private let openedStore = Mutex<LocalStore?>(nil)

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

    func store() throws -> LocalStore {
        try openedStore.withLock { opened in
            if let opened { return opened }
            let s = try LocalStore(paths: paths)
            opened = s
            return s
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

    /// The active identity, unlocked.
    func identity() throws -> SecretKey {
        let (active, _) = try activeIdentity()
        return try vault.unlock(active, passphrase: try passphrase(keyringFor: active))
    }

    func account() throws -> (SecretKey, AccountStore) {
        let key = try identity()
        return (key, try store().account(key, now: now))
    }

    /// `--relay` values (validated), else the stored relays.
    func relayList(_ store: AccountStore) throws -> RelayList {
        try RelayList(store: store, overrides: options.relays, now: now)
    }

    /// The session `typed` names: its id, its name, or the start of one session's name. Several
    /// starting so are listed, to choose from; none is left as typed (the use case says it is unknown).
    func sessionID(_ typed: String, in store: AccountStore) throws -> String {
        let sessions = try store.sessionSummaries(archived: nil).map { (id: $0.id, name: $0.name) }
        switch SessionChoice.choose(typed, among: sessions) {
        case .session(let id): return id
        case .none: return typed
        case .ambiguous(let several):
            let listed = several.map { "\(DisplayText.singleLine($0.name)) (\($0.id))" }.joined(separator: ", ")
            throw CLIError("“\(DisplayText.singleLine(typed))” starts more than one session's name: \(listed). Give more of it, or the id.", .invalidInput)
        }
    }

    /// The stored list, which the `relays` commands edit (`--relay` only chooses where to connect).
    func storedRelays(_ store: AccountStore) throws -> RelayList {
        try RelayList(store: store, overrides: [], now: now)
    }

    /// The active identity's account, opened as the app opens it (`--relay` for this run): its previews,
    /// thumbnails and saves keep the app's rules (a host we blocked is never fetched from).
    /// `holdsDataLock`: the command took the data lock (it writes), so the media cache's unfinished
    /// files are leftovers and go.
    func session(holdsDataLock: Bool = false) throws -> AccountSession {
        try AccountSession(try identity(), in: try store(), relayOverrides: options.relays, mediaCacheBytes: Int64(config.mediaCacheMB) << 20,
                           indexers: config.indexerRelays, holdsDataLock: holdsDataLock, queueHoldAfterDays: config.queueHoldAfterDays)
    }

    /// Runs `body` on the account, closed afterwards whatever happens (what it started ends with it).
    func withSession<T>(holdsDataLock: Bool = false, _ body: (AccountSession) async throws -> T) async throws -> T {
        let session = try session(holdsDataLock: holdsDataLock)
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }

    /// A sync engine connected to the relays (subscriptions are installed by `start()` only).
    func engine(_ key: SecretKey, _ store: AccountStore) async throws -> SyncEngine {
        let sync = AccountSync(key, store: store, indexers: config.indexerRelays, queueHoldAfterDays: config.queueHoldAfterDays)
        await sync.connect(try relayList(store))
        return sync.engine
    }
}

extension CLIContext {
    /// The identities on this device (create, import, forget).
    func identities() throws -> IdentityActions { IdentityActions(vault: vault, local: try store()) }

    /// Runs `body` with the account's use cases; the engine (and its relay connections) starts only if
    /// a use case needs it, and is stopped afterwards, also on errors.
    func withActions<T>(_ key: SecretKey, _ store: AccountStore, _ body: (AccountActions) async throws -> T) async throws -> T {
        let engines = EngineOnDemand { try await self.engine(key, store) }
        let policy = SessionRequestPolicy(holdsStrangers: config.sessionRequests)
        let actions = AccountActions(store: store, me: key.publicKey.hex, requests: policy, engine: engines.get)
        do {
            let result = try await body(actions)
            await engines.stop()
            return result
        } catch {
            await engines.stop()
            throw error
        }
    }
}

/// The CLI's engine, made on first use (commands run one use case, sequentially).
final class EngineOnDemand: Sendable {
    private let engine = Mutex<SyncEngine?>(nil)
    private let make: @Sendable () async throws -> SyncEngine

    init(_ make: @escaping @Sendable () async throws -> SyncEngine) { self.make = make }

    @Sendable func get() async throws -> SyncEngine {
        if let existing = engine.withLock({ $0 }) { return existing }
        let made = try await make()
        engine.withLock { $0 = made }
        return made
    }

    /// Preference records saved by the command go out before the engine stops (bounded by the relay gate),
    /// and a post's deliveries to its recipients' inbox relays end (each within its deadline).
    func stop() async {
        guard let e = engine.withLock({ $0 }) else { return }
        await e.publishPendingPreferences()
        await e.finishDeliveries()
        await e.stop()
    }
}
