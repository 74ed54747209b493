import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import Logging
import NostrProtocol
import Synchronization

/// Runs effects one after another, in the order the reducer asked for them, and answers with actions:
/// the UI thread never does I/O. An actor on an executor of its own (a serial queue): its blocking
/// store reads never take a thread of the cooperative pool.
public actor EffectRunner {
    let executor = QueueExecutor(label: "linkstr.effects")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// Effects in the order they were asked for; one task runs them.
    let effects: AsyncStream<AppEffect>.Continuation
    let dispatch: @Sendable (AppAction) -> Void
    let services: Services
    let options: AppOptions
    let paths: DataPaths
    let vault: IdentityVault

    var local: LocalDevice?
    var inMemory = false
    /// The open account: everything of it is owned there and closed with it (`closeAccount`).
    var account: AccountSession?
    /// What the runner keeps of the open account for the screen; replaced whole when it closes.
    var accountView = AccountView()
    let searchQueue = DispatchQueue(label: "linkstr.search", qos: .utility)
    var pendingUnlock: Pubkey?
    /// Loads asked for and not started yet (`perform` reads it on the UI thread).
    let pendingLoads = Mutex<[AppEffect]>([])
    /// Session lists read at most every 200 ms (bursts of local changes).
    let listReloads = Mutex(ReloadThrottle())
    /// The list the screen last asked for: news pushes that one.
    nonisolated let shownList = ShownList()

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
        // The list the screen shows is the one it asked for last, in the order it asked (throttled
        // loads may run out of that order): news is pushed into that one.
        if case .sessions(.loadSessions(let list)) = effect { shownList.value = list }
        // Loads are idempotent: one already queued and not started answers for this one too
        // (a burst of arriving messages must not queue a list reload per batch).
        if Self.isLoad(effect) {
            let queued = pendingLoads.withLock { loads in
                if loads.contains(effect) { return true }
                loads.append(effect)
                return false
            }
            if queued { return }
        } else {
            // Anything else may change what a load reads: a load asked for after it is a load of its
            // own (an accepted request's feed must be read again, not answered by a read queued before).
            pendingLoads.withLock { $0.removeAll() }
        }
        if case .sessions(.loadSessions) = effect {
            let time = services.time
            let wait = listReloads.withLock { $0.delay(now: time.monotonicSeconds()) }
            if wait > 0 {
                let effects = self.effects
                Task {
                    await time.sleep(.seconds(wait))  // cancelled only with the process
                    effects.yield(effect)
                }
                return
            }
        }
        effects.yield(effect)
    }

    private func handle(_ effect: AppEffect) async {
        if Self.isLoad(effect) { pendingLoads.withLock { $0.removeAll { $0 == effect } } }
        if case .sessions(.loadSessions) = effect { listReloads.withLock { $0.read(at: services.time.monotonicSeconds()) } }
        do { try await run(effect) } catch {
            dispatch(.failed(.unexpected, ClientError(error)))
        }
    }

    /// Stops the engine (closing sockets) before the process exits; no effect runs after it.
    /// `position`: where the app was, saved first for the next start.
    public nonisolated func shutdown(saving position: UIPosition? = nil) {
        effects.finish()
        let done = DispatchSemaphore(value: 0)
        Task {
            if let position { await self.save(position) }
            await self.stopForExit()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 2)
    }

    private func save(_ position: UIPosition) {
        do { _ = try runReading(.savePosition(position)) } catch {
            // Only a convenience: the next start opens at the top instead.
            Logger(label: "linkstr.app").notice("could not save where the app was", metadata: ["error": "\(type(of: error))"])
        }
    }

    private func stopForExit() async {
        await closeAccount()
    }

    var now: Int64 { services.time.wallSeconds() }

    private static func isLoad(_ effect: AppEffect) -> Bool {
        switch effect {
        case .sessions(.loadSessions), .sessions(.loadFeed), .post(.loadPost), .you(.loadContacts), .you(.loadIdentities): return true
        default: return false
        }
    }

    // MARK: effects

    /// Each area's effects are handled in its own file (`EffectRunner+Area`).
    private func run(_ effect: AppEffect) async throws {
        switch effect {
        case .boot, .wipe, .lock,
             .onboarding(.continueInMemory), .onboarding(.unlock), .onboarding(.createIdentity), .onboarding(.importIdentity),
             .onboarding(.checkBackup), .onboarding(.restoreBackup),
             .you(.switchIdentity), .you(.loadIdentities),
             .settings(.logout), .settings(.deleteAccount), .settings(.revealSecret), .settings(.markKeyBackedUp), .settings(.exportBackup),
             .settings(.changePassphrase), .settings(.setKeyring):
            try await runAccount(effect)
        case .loadLocalPreferences, .saveCommandHistory, .savePosition, .sessions(.exportSession),
             .sessions(.loadSessions), .sessions(.loadFeed), .sessions(.loadDrafts), .sessions(.saveMuted), .sessions(.saveDraft),
             .sessions(.markSessionRead),
             .post(.loadPost), .post(.markPostRead), .you(.loadContacts), .search(.buildSearchIndex), .search(.searchPosts):
            for action in try runReading(effect) { dispatch(action) }
            sayDamagedRecords()
        case .post(.sendPost), .post(.react), .post(.deletePost),
             .sessions(.createSession), .sessions(.saveMembers), .sessions(.renameSession), .sessions(.deleteSession),
             .sessions(.setArchived), .sessions(.decideRequest),
             .you(.addContact), .you(.setAlias), .you(.removeContact), .you(.setProfileName), .you(.loadAddedYou), .you(.watchAddedYou):
            try runSending(effect)
        case .startSync, .settings(.addRelay), .settings(.removeRelay), .settings(.setRelayEnabled), .settings(.resetRelays),
             .settings(.refreshRelayStats), .settings(.testRelay):
            for action in try await runRelays(effect) { dispatch(action) }
        case .settings(.repairDamagedRecords):
            for action in try runRepair() { dispatch(action) }
        case .settings(.loadBlockedRelays), .settings(.blockRelay), .settings(.unblockRelay), .settings(.runDoctor),
             .settings(.loadInboxRelays), .settings(.setInboxRelays):
            try runDelivery(effect)
        case .settings(.allowHooks):
            try allowHooks()
        case .post(.retrySend), .post(.cancelSend):
            try runSendQueue(effect)
        case .post(.checkReach(let sid)):
            guard let account else { return }
            dispatch(.post(.reachChecked(sessionID: sid, warnings: try account.reachWarnings(session: sid, ours: relays.enabledURLs, now: now))))
        case .post(.refreshPreview(let url)):
            refreshPreview(url)
        case .post(.saveMedia(let url)):
            guard let saver = account?.saver else {
                return dispatch(.post(.saveProgressed(url: url, .failed("nothing is saved while running in memory."))))
            }
            let now = self.now
            startAccountTask { answer in
                await saver.save(url, now: now) { answer(.post(.saveProgressed(url: url, $0))) }
            }
        case .post(.cancelSave(let url)):
            account?.saver?.cancel(url)
        case .settings(.loadMediaUsage):
            guard let media = account?.thumbnails?.media else { return }
            let usage = try media.usage()
            dispatch(.settings(.mediaUsageLoaded(MediaUsage(files: usage.files, bytes: usage.bytes, limit: options.mediaCacheBytes))))
        case .copy, .notify, .settings(.copySecret), .settings(.clearCache), .post(.readClipboard), .post(.openURL), .post(.stopPlayer):
            for action in try runSystem(effect) { dispatch(action) }
        case .quit, .post(.editNote), .post(.playInTerminal), .settings(.applyTheme):
            break  // the terminal loop's own (it owns the screen)
        }
    }
}
