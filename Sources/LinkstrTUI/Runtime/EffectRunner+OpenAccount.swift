import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What the runner keeps of the open account for the screen (the account itself is an `AccountSession`).
struct AccountView {
    var relaySnapshots: [String: RelaySnapshot] = [:]
    /// Why a relay's history is not read to its end (the engine says), shown on its row.
    var historyNotes: [String: String] = [:]
    /// The engine's updates, turned into actions.
    var updatesTask: Task<Void, Never>?
    /// Damaged records already reported to the reducer.
    var damagedRecordsReported = 0
    /// The hooks' runner, once allowed.
    var hooks = HookSlot()
}

/// The open account, read through its session: one place to open it, one to close it.
extension EffectRunner {
    var identity: SecretKey? { account?.key }
    var reads: (any AccountReads)? { account?.reads }
    var previews: LinkPreviewCache? { account?.previews }
    var search: PostSearch? { account?.search }
    var relays: RelayList { account?.relays ?? .empty }

    /// The open account's use cases (nil before an account is open).
    var actions: AccountActions? { account?.actions(requests: requestPolicy) }
    /// What goes to relays for the open account, through the services' client (nil before one is open).
    var client: AccountClient? { account.map { services.accountClient($0, requestPolicy) } }
    var requestPolicy: SessionRequestPolicy { SessionRequestPolicy(holdsStrangers: options.sessionRequests) }

    /// Opens `key`'s account; one open before is closed first.
    func openSession(_ key: SecretKey) async throws {
        guard let local else { throw StorageError.closed }
        await closeAccount()
        account = try local.openAccount(key, relayOverrides: options.relays, mediaCacheBytes: options.mediaCacheBytes,
                                        // The app took the data lock before it started (`linkstr` with no command).
                                        indexers: options.indexerRelays, holdsDataLock: true, queueHoldAfterDays: options.queueHoldAfterDays,
                                        time: services.time)
        services.pictures.use(account?.thumbnails)
        accountView = AccountView()
    }

    /// Closes the open account: its updates stop, its tasks are cancelled (late answers dropped), its
    /// engine stops (awaited: its sockets are closed before anything else opens), its search index goes.
    func closeAccount() async {
        accountView.updatesTask?.cancel()
        await accountView.hooks.runner?.stop()
        accountView = AccountView()
        pendingUnlock = nil
        services.pictures.use(nil)
        guard let closing = account else { return }
        account = nil
        await closing.close()
    }

    /// Runs `work` as a task of the open account (dropped if none is open, or once it closes).
    func startAccountTask(_ work: @escaping @Sendable (_ answer: @escaping @Sendable (AppAction) -> Void) async -> Void) {
        account?.tasks.start(dispatch, work)
    }
}
