import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization

/// How the app was started.
public struct AppOptions: Sendable {
    public var home: String?
    /// `--relay`: exactly these relays for this run.
    public var relays: [String]
    public var passphraseFile: String?
    public var theme: String
    public var noColor: Bool
    /// Fetch titles of shared pages (`link_previews` in config.toml); cached titles show either way.
    public var linkPreviews: Bool
    /// Hold strangers' sessions as requests (`session_requests` in config.toml).
    public var sessionRequests: Bool
    /// How news is announced (`notify` in config.toml).
    public var notify: NotifyMode = .both
    /// Mouse capture (`mouse = true` in config.toml); off, text selection works as everywhere.
    public var mouse = false
    /// Links drawn as OSC 8 hyperlinks (`hyperlinks` in config.toml, resolved for this terminal).
    public var hyperlinks = false
    /// The keys in force (`keys.toml`).
    public var keymap = Keymap.standard
    /// A link to show once the account is open (`linkstr open URL`).
    public var openLink: DeepLink.Link?
    /// "linkstr 0.3.0 (commit …)", shown in Settings.
    public var version: String
    public init(home: String?, relays: [String], passphraseFile: String?, theme: String, noColor: Bool, linkPreviews: Bool = true,
                sessionRequests: Bool = true, openLink: DeepLink.Link? = nil, version: String = "") {
        self.home = home; self.relays = relays; self.passphraseFile = passphraseFile; self.theme = theme; self.noColor = noColor
        self.linkPreviews = linkPreviews
        self.sessionRequests = sessionRequests
        self.openLink = openLink
        self.version = version
    }
}

/// Runs effects one after another, in the order the reducer asked for them, and answers with actions:
/// the UI thread never does I/O. An actor on an executor of its own (a serial queue): its blocking
/// store reads never take a thread of the cooperative pool.
public actor EffectRunner {
    private let executor = QueueExecutor(label: "linkstr.effects")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// Effects in the order they were asked for; one task runs them.
    private let effects: AsyncStream<AppEffect>.Continuation
    private let dispatch: @Sendable (AppAction) -> Void
    private let services: Services
    private let options: AppOptions
    private let paths: DataPaths
    private let vault: IdentityVault

    private var local: LocalStore?
    private var inMemory = false
    private var identity: SecretKey?
    private var store: AccountStore?
    private var engine: SyncEngine?
    private var previews: LinkPreviewCache?
    /// The open account's in-memory post search (built at unlock, off this queue).
    private var search: PostSearch?
    private let searchQueue = DispatchQueue(label: "linkstr.search", qos: .utility)
    private var pool: RelayPool?
    private var relays = RelayList.empty
    private var relaySnapshots: [String: RelaySnapshot] = [:]
    private var updatesTask: Task<Void, Never>?
    private var pendingUnlock: Pubkey?
    /// Loads asked for and not started yet (`perform` reads it on the UI thread).
    private let pendingLoads = Mutex<[AppEffect]>([])
    /// The open account's background tasks, cancelled (and their answers dropped) when it goes.
    private let accountTasks = AccountTasks()

    public init(options: AppOptions, services: Services, dispatch: @escaping @Sendable (AppAction) -> Void) {
        self.options = options
        self.services = services
        self.dispatch = dispatch
        paths = DataPaths.resolve(home: options.home)
        vault = IdentityVault(paths: paths)
        let (stream, continuation) = AsyncStream.makeStream(of: AppEffect.self)
        effects = continuation
        Task { [weak self] in
            for await effect in stream { await self?.handle(effect) }
        }
    }

    /// Asks for `effect` (from the UI thread; returns at once).
    public nonisolated func perform(_ effect: AppEffect) {
        // Loads are idempotent: one already queued and not started answers for this one too
        // (a burst of arriving messages must not queue a list reload per batch).
        if Self.isLoad(effect) {
            let queued = pendingLoads.withLock { loads in
                if loads.contains(effect) { return true }
                loads.append(effect)
                return false
            }
            if queued { return }
        }
        effects.yield(effect)
    }

    private func handle(_ effect: AppEffect) {
        if Self.isLoad(effect) { pendingLoads.withLock { $0.removeAll { $0 == effect } } }
        do { try run(effect) } catch {
            dispatch(.failed(.unexpected, String(describing: error)))
        }
    }

    /// Stops the engine (closing sockets) before the process exits; no effect runs after it.
    public nonisolated func shutdown() {
        effects.finish()
        let done = DispatchSemaphore(value: 0)
        Task {
            await self.stopForExit()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 2)
    }

    private func stopForExit() async {
        updatesTask?.cancel()
        accountTasks.cancelAll()
        await engine?.stop()
    }

    private var now: Int64 { services.clock() }

    private static func isLoad(_ effect: AppEffect) -> Bool {
        switch effect {
        case .loadSessions, .loadFeed, .loadPost, .loadContacts, .loadIdentities: return true
        default: return false
        }
    }

    // MARK: effects

    private func run(_ effect: AppEffect) throws {
        switch effect {
        case .boot: boot(inMemory: false)
        case .continueInMemory: boot(inMemory: true)
        case .unlock(let passphrase):
            guard let pk = pendingUnlock ?? vault.activePubkey() else { dispatch(.identityMissing); return }
            do {
                let key = try vault.unlock(pk, passphrase: passphrase)
                try vault.setActive(pk)
                try openAccount(key)
            } catch let e as VaultError {
                dispatch(.unlockFailed(e.description))
            }
        case .createIdentity(let name, let given):
            do {
                guard let local else { throw StorageError.closed }
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let (key, _) = try IdentityActions(vault: vault, local: local).create(name: name, passphrase: passphrase, now: now)
                try prepareAccount(key)
                dispatch(.identityCreated(info(key, profileName: name, backedUp: false), nsec: key.revealNsec()))
            } catch {
                dispatch(.onboardingFailed(String(describing: error)))
            }
        case .importIdentity(let text, let given):
            do {
                guard let local else { throw StorageError.closed }
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let key = try IdentityActions(vault: vault, local: local).importKey(text, passphrase: passphrase)
                try openAccount(key)
            } catch {
                dispatch(.onboardingFailed(String(describing: error)))
            }
        case .checkBackup(let path, let backupPassphrase):
            do {
                let file = Self.expandingTilde(path)
                if backupPassphrase == nil, try BackupActions.needsPassphrase(file) {
                    dispatch(.backupNeedsPassphrase(path: path))
                } else {
                    let backup = try BackupActions.load(file, passphrase: backupPassphrase)
                    dispatch(.backupChecked(path: path, backupPassphrase: backupPassphrase, npub: backup.secretKey.publicKey.npub))
                }
            } catch {
                dispatch(.onboardingFailed(String(describing: error)))
            }
        case .restoreBackup(let path, let backupPassphrase, let given):
            do {
                guard let local else { throw StorageError.closed }
                let backup = try BackupActions.load(Self.expandingTilde(path), passphrase: backupPassphrase)
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let (key, _, outcome) = try BackupActions(vault: vault, local: local).restore(backup, passphrase: passphrase, now: now)
                try openAccount(key)
                dispatch(.backupRestored(sessionsAdded: outcome.sessionsAdded, postsAdded: outcome.postsAdded))
            } catch {
                dispatch(.onboardingFailed(String(describing: error)))
            }
        case .startSync: startSync()

        case .loadSessions(let list):
            guard let actions else { return }
            dispatch(.sessionsLoaded(try actions.sessionListing(list)))
        case .loadFeed(let sid, let limit):
            guard let store, let actions else { return }
            let page = try store.postPage(in: sid, limit: limit + 1)
            let summary = try actions.summary(of: sid)
            dispatch(.feedLoaded(sessionID: sid, summary: summary, posts: Array(page.prefix(limit)),
                                 changes: try store.membershipChanges(in: sid), hasMore: page.count > limit))
            loadLinkTitles(page.map(\.post.url), fetching: summary?.standing == .listed, session: sid)
        case .loadPost(let id):
            guard let store, let actions else { return }
            let view = try store.postView(id)
            let summary = try view.flatMap { try actions.summary(of: $0.post.sessionID) }
            dispatch(.postLoaded(postID: id, view: view, sessionName: summary?.name ?? ""))
            if let view { loadLinkTitles([view.post.url], fetching: summary?.standing == .listed, session: view.post.sessionID) }
        case .loadContacts:
            guard let store else { return }
            dispatch(.contactsLoaded(try store.contacts()))
            dispatch(.profileNamesLoaded(try store.profileNames()))
        case .loadAddedYou:
            guard let actions else { return }
            run({ try await actions.addedYou() }, { [.addedYouLoaded($0.followers.map(\.pubkey), complete: $0.complete)] }, failed: { .addedYouFailed($0) })
        case .exportBackup(let path, let passphrase):
            guard let store, let identity, let local else { return }
            let vault = self.vault, now = self.now
            run({
                let data = try BackupActions(vault: vault, local: local)
                    .export(store, key: identity, format: passphrase == nil ? .ios : .sealed, passphrase: passphrase, now: now)
                try BackupActions.write(data, to: Self.expandingTilde(path))
            }, { [.backupExported(path: path)] }, failed: { .backupExportFailed($0) })
        case .watchAddedYou(let on):
            guard let engine else { return }
            run({ await engine.watchAddedYou(on) }, { _ in [] }, failed: { .failed(.watchAddedYou, $0) })
        case .loadIdentities:
            let active = vault.activePubkey()
            dispatch(.identitiesLoaded(try vault.list().map { IdentityEntry(pubkey: $0.pubkey, npub: $0.npub, active: $0.pubkey == active) }))
        case .loadDrafts:
            guard let store else { return }
            dispatch(.draftsLoaded(try store.drafts().mapValues { Draft(link: $0.link, note: $0.note) }))
        case .loadLocalPreferences:
            guard let store else { return }
            let stored = try store.setting(.commandHistory)
            let history = stored.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            dispatch(.commandHistoryLoaded(history))
            let muted = try store.setting(.mutedSessions).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            dispatch(.mutedLoaded(Set(muted)))
        case .saveMuted(let muted):
            try store?.setSetting(.mutedSessions, String(decoding: try JSONEncoder().encode(muted.sorted()), as: UTF8.self))
        case .saveCommandHistory(let history):
            try store?.setSetting(.commandHistory, String(decoding: try JSONEncoder().encode(history), as: UTF8.self))
        case .saveDraft(let sid, let draft):
            try store?.setDraft(draft.map { AccountStore.StoredDraft(link: $0.link, note: $0.note) }, for: sid, now: now)
        case .markSessionRead(let sid):
            try store?.markSessionRead(sid, now: now)
            reloadLists(session: sid)
        case .buildSearchIndex:
            guard let search else { return }
            let dispatch = self.dispatch
            searchQueue.async {
                do { try search.build() } catch { dispatch(.postSearchFailed("the search index could not be read: \(error)")) }
            }
        case .searchPosts(let query, let sid):
            guard let search, let store else { return }
            let dispatch = self.dispatch
            // On the search queue: a first query that finds the index still being built waits there, not here.
            searchQueue.async {
                do {
                    let answer = try search.search(query, in: sid)
                    let shown = answer.result.hits.prefix(PostSearchAnswer.previewCount)
                    let views = try store.postViews(shown.map(\.postID))
                    var names = [String: String]()
                    for sid in Set(shown.map(\.sessionID)) { names[sid] = try store.sessionSummary(sid)?.name }
                    dispatch(.postSearchFinished(PostSearchAnswer(query: query, sessionID: sid, hits: answer.result.hits,
                                                                  truncated: answer.result.truncated,
                                                                  previews: shown.compactMap { views[$0.postID] }, sessionNames: names,
                                                                  indexedPosts: answer.indexedPosts)))
                } catch {
                    dispatch(.postSearchFailed(String(describing: error)))
                }
            }
        case .markPostRead(let id):
            try store?.markRead(postID: id, now: now)
            if let sid = try store?.postView(id)?.post.sessionID { reloadLists(session: sid) }

        case .sendPost(let sid, let url, let note):
            guard let actions else { return }
            let search = self.search
            run({ [now] in try await actions.sendPost(session: sid, url: url, note: note, now: now) },
                { search?.invalidate([$0.sessionID]); return [.postSent(postID: $0.postID, sessionID: $0.sessionID)] }, failed: { .postSendFailed($0) })
        case .react(let postID, let emoji):
            guard let actions else { return }
            run({ [now] in try await actions.react(post: postID, emoji: emoji, now: now) }, { result in
                [.messagesArrived(touchedSessions: [result.sessionID], notifications: []),
                 .reactionSent(postID: postID, emoji: emoji, removed: result.change == .removed)]
            }, failed: { .failed(.react(postID: postID), $0) })
        case .deletePost(let id):
            guard let actions, let store else { return }
            let sid = try store.postView(id)?.post.sessionID ?? ""
            let search = self.search
            run({ [now] in try await actions.deletePost(id, now: now) },
                { search?.invalidate([sid]); return [.postDeleted(postID: id, sessionID: sid, warnings: $0.warnings)] }, failed: { .failed(.deletePost(id), $0) })
        case .createSession(let name, let members):
            guard let actions else { return }
            run({ [now] in try await actions.createSession(name: name, members: members, now: now, random: SystemRandom()) },
                { [.sessionCreated(sessionID: $0)] }, failed: { .sessionCreateFailed($0) })
        case .saveMembers(let sid, let members):
            guard let actions else { return }
            run({ [now] in try await actions.setMembers(session: sid, members: members, now: now, random: SystemRandom()) },
                { [.membersSaved(sessionID: sid)] }, failed: { .membersSaveFailed($0) })
        case .renameSession(let sid, let name):
            guard let actions else { return }
            run({ [now] in try await actions.renameSession(sid, to: name, now: now, random: SystemRandom()) },
                { [.sessionRenamed(sessionID: sid, name: name)] }, failed: { .failed(.renameSession(sid), $0) })
        case .deleteSession(let sid):
            guard let actions else { return }
            let search = self.search
            run({ [now] in try await actions.deleteSession(sid, now: now, random: SystemRandom()) },
                { search?.invalidate([sid]); return [.sessionDeleted(sessionID: sid, warnings: $0)] }, failed: { .failed(.deleteSession(sid), $0) })
        case .setArchived(let sid, let archived):
            guard let actions else { return }
            run({ try await actions.setArchived(sid, archived) }, { [] }, failed: { .failed(.archive(sid), $0) })
        case .decideRequest(let sid, let decision):
            do { try actions?.decideRequest(sid, decision) } catch let e as AccountActions.RequestError { dispatch(.failed(.sessionRequest(sid), e.description)) }
        case .addContact(let pk, let alias):
            guard let actions else { return }
            run({ try await actions.addContact(pk, alias: alias) }, { [.contactSaved(pk)] }, failed: { .contactSaveFailed($0) })
        case .setAlias(let pk, let alias):
            guard let actions else { return }
            run({ _ = try await actions.setAlias(pk, alias) }, { [.contactSaved(pk)] }, failed: { .contactSaveFailed($0) })
        case .removeContact(let pk):
            guard let actions, let store else { return }
            run({ try await actions.removeContact(pk); return try store.contacts() },
                { [.contactsLoaded($0), .contactRemoved(pk)] }, failed: { .failed(.removeContact(pk), $0) })

        case .addRelay(let text):
            do { try relays.add(text, now: now) } catch let e as RelayList.Failure { dispatch(.failed(.relayList, e.description)); return }
            applyRelays()
        case .removeRelay(let url):
            do { try relays.remove(url) } catch let e as RelayList.Failure { dispatch(.failed(.relayList, e.description)); return }
            relaySnapshots[url] = nil
            applyRelays()
        case .setRelayEnabled(let url, let enabled):
            do { try relays.setEnabled(url, enabled) } catch let e as RelayList.Failure { dispatch(.failed(.relayList, e.description)); return }
            applyRelays()
        case .resetRelays:
            try relays.reset(now: now)
            relaySnapshots = [:]
            applyRelays()

        case .revealSecret:
            if let identity { dispatch(.secretRevealed(identity.revealNsec())) }
        case .copy(let text, let label):
            dispatch(.copyFinished(label: label, services.clipboard.copy(text)))
        case .readClipboard:
            dispatch(.clipboardRead(services.clipboard.read()))
        case .openURL(let url):
            switch services.browser.open(url) {
            case .success(let m): dispatch(.linkOpened(how: m))
            case .failure(let e): dispatch(.failed(.openLink, e.description))
            }
        case .setProfileName(let name):
            guard let engine else { return }
            run({ try await engine.publishProfileName(name) }, { _ in [.profileNameSaved(name)] }, failed: { .failed(.profileName, $0) })
        case .refreshRelayStats:
            guard let pool else { return }
            Task {
                let snapshots = await pool.snapshots()
                for s in snapshots where relays.entries.contains(where: { $0.url == s.url }) { relaySnapshots[s.url] = s }
                dispatch(.relaysChanged(relayRows()))
            }
        case .wipe:
            stopEngine()
            resetSession()
            local = nil
            do {
                _ = try Wipe.run(paths)
                dispatch(.wiped)
            } catch {
                dispatch(.failed(.wipe, "wipe incomplete: \(error)"))
            }
        case .switchIdentity(let pk):
            stopEngine()
            pendingUnlock = pk
            identity = nil
            store = nil
            let passphrase = try? environmentPassphrase()
            if let passphrase, let key = try? vault.unlock(pk, passphrase: passphrase) {
                try vault.setActive(pk)
                try openAccount(key)
            } else {
                dispatch(.passphraseNeeded(pubkey: pk, npub: (try? PublicKey(hex: pk))?.npub ?? pk))
                if passphrase != nil { dispatch(.unlockFailed(Self.environmentPassphraseRefused)) }
            }
        case .logout(let clear):
            stopEngine()
            if let identity, let local { try IdentityActions(vault: vault, local: local).forget(identity.publicKey.hex, store: store, clearData: clear) }
            resetSession()
            dispatch(.loggedOut)
        case .deleteAccount:
            guard let actions else { return }
            let dispatch = self.dispatch, now = self.now, relays = self.relays.enabledURLs
            Task {
                do {
                    try await actions.announceDeletion(relays: relays, now: now)
                    stopEngine()
                    // Relays already forgot the account: go on, and say what could not be wiped here.
                    var failure: String?
                    do {
                        if let identity, let local { try IdentityActions(vault: vault, local: local).forget(identity.publicKey.hex, store: store, clearData: true) }
                    } catch {
                        failure = "account deleted on relays, but not wiped here: \(error)"
                    }
                    resetSession()
                    dispatch(.loggedOut)
                    if let failure { dispatch(.failed(.deleteAccount, failure)) }
                } catch {
                    dispatch(.failed(.deleteAccount, "account not deleted: \(error)"))
                }
            }
        case .testRelay(let url):
            let dispatch = self.dispatch
            Task {
                let probe = await RelayList.probe(url)
                dispatch(.relayTested(url: url, summary: probe.summary, ok: probe.ok))
            }
        case .clearCache:
            guard let store else { return }
            try store.clearLinkMetadata()
            let cache = paths.cache(for: store.owner)
            if FileManager.default.fileExists(atPath: cache.path) {
                do { try FileManager.default.removeItem(at: cache) } catch {
                    dispatch(.failed(.clearCache, "page titles cleared, but the cache folder could not be removed: \(error)"))
                    return
                }
            }
            dispatch(.cacheCleared)
        case .notify(let title, let body, let via):
            services.notifier.notify(title, body, via != .desktop, via != .bell)
        case .quit, .editNote, .applyTheme:
            break  // the terminal loop's own (it owns the screen)
        }
    }

    // MARK: boot

    private func boot(inMemory: Bool) {
        dispatch(.bootStepReached(.loadingAccount))
        do {
            local = inMemory ? try LocalStore() : try LocalStore(paths: paths)
            self.inMemory = inMemory
        } catch {
            dispatch(.storeOpenFailed(String(describing: error)))
            return
        }
        dispatch(.bootStepReached(.preparingLocalData))
        let passphrase = try? environmentPassphrase()
        if passphrase != nil { dispatch(.passphraseInEnvironment) }
        guard let active = vault.activePubkey() else {
            dispatch(.identityMissing)
            return
        }
        pendingUnlock = active
        if let passphrase, let key = try? vault.unlock(active, passphrase: passphrase) {
            do { try openAccount(key) } catch { dispatch(.storeOpenFailed(String(describing: error))) }
        } else {
            dispatch(.passphraseNeeded(pubkey: active, npub: (try? PublicKey(hex: active))?.npub ?? active))
            // Say why the prompt is there: the environment's passphrase was tried and did not unlock.
            if passphrase != nil { dispatch(.unlockFailed(Self.environmentPassphraseRefused)) }
        }
    }

    static let environmentPassphraseRefused = "LINKSTR_PASSPHRASE did not unlock this key; type it here."

    /// `--passphrase-file`, else LINKSTR_PASSPHRASE; an empty value counts as none.
    private func environmentPassphrase() throws -> String? {
        guard let source = PassphraseSource.resolve(file: options.passphraseFile, prompt: nil) else { return nil }
        let value = try source.read()
        return value.isEmpty ? nil : value
    }

    private func prepareAccount(_ key: SecretKey) throws {
        guard let local else { throw StorageError.closed }
        identity = key
        let store = try local.account(key, now: now)
        self.store = store
        dispatch(.bootStepReached(.connectingRelays))
        relays = try RelayList(store: store, overrides: options.relays, now: now)
        let sync = AccountSync(key, store: store, clock: services.clock)
        pool = sync.pool
        engine = sync.engine
        previews = LinkPreviewCache(store: store, fetcher: LinkPreviewFetcher.configured(), clock: services.clock)
        search = PostSearch(store: store)
        relaySnapshots = [:]
        dispatch(.relaysChanged(relayRows()))
    }

    /// "~/backups/x.linkstrbackup", as a shell would read it.
    static func expandingTilde(_ path: String) -> String { NSString(string: path).expandingTildeInPath }

    private func openAccount(_ key: SecretKey) throws {
        try prepareAccount(key)
        dispatch(.bootStepReached(.startingSession))
        let name = try store?.setting(.profileName) ?? store?.setting(.profileNamePending)
        dispatch(.identityReady(info(key, profileName: name, backedUp: true), inMemory: inMemory))
    }

    private func info(_ key: SecretKey, profileName: String?, backedUp: Bool) -> IdentityInfo {
        IdentityInfo(pubkey: key.publicKey.hex, npub: key.publicKey.npub, profileName: profileName, backedUp: backedUp)
    }

    private func startSync() {
        guard let engine, let pool, let store, let actions else { return }
        let dispatch = self.dispatch, search = self.search
        let list = relays.poolEntries
        updatesTask?.cancel()
        // Detached from the runner: the updates' store reads (notifications, contacts, names) run beside
        // the effects, so a feed opened during a long sync does not wait behind them. Only relay rows,
        // which are the runner's state, go through it.
        updatesTask = Task.detached { [weak self] in
            let updates = engine.updates
            await pool.setRelays(list)
            do { try await engine.start() } catch {
                dispatch(.failed(.startSync, "sync could not start: \(error)"))
            }
            await engine.publishPendingProfileName()
            for await update in updates {
                switch update {
                case .ingested(let touched, let notifications):
                    search?.invalidate(touched)
                    // Requests and declined sessions never notify; when the check cannot be made, nothing rings.
                    let shown = (try? actions.notifiable(notifications)) ?? []
                    dispatch(.messagesArrived(touchedSessions: touched, notifications: shown))
                case .contactsChanged:
                    if let contacts = try? store.contacts() { dispatch(.contactsLoaded(contacts)) }
                case .addedYouChanged(let followers):
                    dispatch(.addedYouChanged(followers))
                case .profilesChanged:
                    if let names = try? store.profileNames() { dispatch(.profileNamesLoaded(names)) }
                    // Our own name may have come from another device or client.
                    do {
                        if try store.setting(.profileNamePending) == nil { dispatch(.ownProfileNameLoaded(try store.setting(.profileName))) }
                    } catch {
                        dispatch(.failed(.profileName, "could not read your profile name: \(error)"))
                    }
                case .relay(let snapshot):
                    await self?.relayChanged(snapshot)
                case .backfillComplete:
                    Task { await engine.publishInboxRelaysIfChanged() }
                case .notice:
                    break
                }
            }
        }
    }

    private func relayChanged(_ snapshot: RelaySnapshot) {
        guard relays.entries.contains(where: { $0.url == snapshot.url }) else { return }
        relaySnapshots[snapshot.url] = snapshot
        dispatch(.relaysChanged(relayRows()))
    }

    private func applyRelays() {
        let list = relays.poolEntries
        if let pool { Task { await pool.setRelays(list) } }
        dispatch(.relaysChanged(relayRows()))
    }

    private func relayRows() -> [RelayRow] {
        relays.entries.map { entry in
            guard entry.enabled else { return RelayRow(url: entry.url, health: .disabled) }
            guard let s = relaySnapshots[entry.url] else { return RelayRow(url: entry.url, health: .connecting) }
            var row = RelayRow(url: entry.url, health: {
                switch s.status {
                case .connecting: return .connecting
                case .connected: return .connected
                case .readOnly: return .readOnly
                case .failed: return .failed
                case .disabled: return .disabled
                }
            }(), error: s.status == .connected ? nil : s.lastError)
            row.sent = s.stats.eventsSent
            row.received = s.stats.eventsReceived
            row.latencyMilliseconds = s.stats.latencyMilliseconds
            row.lastConnectedAt = s.stats.lastConnectedAt.map { Int64($0.timeIntervalSince1970) }
            return row
        }
    }

    /// Publishes through the engine off the queue and answers with the action for the outcome.
    /// The open account's use cases (nil before an account is open).
    private var actions: AccountActions? {
        guard let store, let identity, let engine else { return nil }
        return AccountActions(store: store, me: identity.publicKey.hex,
                              requests: SessionRequestPolicy(holdsStrangers: options.sessionRequests), engine: { engine })
    }

    /// Runs a use case off the effect queue and dispatches what it answered, or its error in words.
    private func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T, _ succeeded: @escaping @Sendable (T) -> [AppAction],
                                  failed: @escaping @Sendable (String) -> AppAction) {
        accountTasks.start(dispatch) { answer in
            do {
                for action in succeeded(try await work()) { answer(action) }
            } catch {
                answer(failed(String(describing: error)))
            }
        }
    }

    private func reloadLists(session sid: String) {
        dispatch(.messagesArrived(touchedSessions: [sid], notifications: []))
    }

    /// Cached titles at once; missing ones fetched in the background (unless previews are off, or the
    /// links are a stranger's session request: fetching tells the site our address) and sent as they are found.
    /// Fetched titles are searchable: the session's posts are read into the search index again.
    private func loadLinkTitles(_ urls: [String], fetching: Bool, session: String) {
        guard let store, let previews, !urls.isEmpty else { return }
        let cached = (try? store.linkTitles(for: urls)) ?? [:]
        if !cached.isEmpty { dispatch(.linkTitlesLoaded(cached)) }
        guard options.linkPreviews, fetching else { return }
        let search = self.search
        accountTasks.start(dispatch) { answer in
            let fetched = await previews.refresh(urls)
            if !fetched.isEmpty {
                search?.invalidate([session])
                answer(.linkTitlesLoaded(fetched))
            }
        }
    }

    private func stopEngine() {
        accountTasks.cancelAll()
        updatesTask?.cancel()
        updatesTask = nil
        if let engine { Task { await engine.stop() } }
        engine = nil
        pool = nil
    }

    private func resetSession() {
        identity = nil
        store = nil
        previews = nil
        search = nil
        pendingUnlock = nil
        relaySnapshots = [:]
    }
}
