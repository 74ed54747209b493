import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The relay list, its rows on screen, and the sync engine's updates.
extension EffectRunner {
    /// Awaits the pool's taking each edited list, so edits in a row reach it in the order they were made.
    func runRelays(_ effect: AppEffect) async throws -> [AppAction] {
        switch effect {
        case .startSync:
            // The pool takes its list before the next effect runs: a post sent right after opening
            // must find the relays, not an empty pool ("no relays are enabled").
            await account?.applyRelays()
            startSync()
            return []
        case .settings(.addRelay(let text)):
            do { try editRelays { try $0.add(text, now: now) } } catch let e as RelayList.Failure { return [.failed(.relayList, ClientError(e))] }
            return await applyRelays()
        case .settings(.removeRelay(let url)):
            do { try editRelays { try $0.remove(url) } } catch let e as RelayList.Failure { return [.failed(.relayList, ClientError(e))] }
            accountView.relaySnapshots[url] = nil
            return await applyRelays()
        case .settings(.setRelayEnabled(let url, let enabled)):
            do { try editRelays { try $0.setEnabled(url, enabled) } } catch let e as RelayList.Failure { return [.failed(.relayList, ClientError(e))] }
            return await applyRelays()
        case .settings(.resetRelays):
            try editRelays { try $0.reset(now: now) }
            accountView.relaySnapshots = [:]
            accountView.historyNotes = [:]
            return await applyRelays()
        case .settings(.refreshRelayStats):
            guard let account else { return [] }
            // The pool answers from its own actor; the rows are built back here, from the runner's state.
            startAccountTask { [weak self] answer in
                let snapshots = await account.relaySnapshots()
                if let rows = await self?.relayRows(updating: snapshots, of: account) { answer(.settings(.relaysChanged(rows))) }
            }
            return []
        case .settings(.testRelay(let url)):
            startAccountTask { answer in
                let probe = await RelayList.probe(url)
                answer(.settings(.relayTested(url: url, summary: probe.summary, ok: probe.ok)))
            }
            return []
        default:
            assertionFailure("\(effect) is not a relays effect")  // `run` routes by area
            return []
        }
    }

    /// The rows after taking in the pool's snapshots of the relays still in the list.
    func relayRows(updating snapshots: [RelaySnapshot], of session: AccountSession) -> [RelayRow]? {
        guard account === session else { return nil }  // an account already closed
        for s in snapshots where relays.entries.contains(where: { $0.url == s.url }) { accountView.relaySnapshots[s.url] = s }
        return relayRows()
    }

    func startSync() {
        guard let account else { return }
        // Everything the updates answer reaches the app only while this account is open.
        let dispatch = account.tasks.guarded(self.dispatch), tasks = account.tasks
        let shownList = self.shownList, policy = requestPolicy
        let reader = AccountNewsReader(account: account, requests: policy) { shownList.value }
        accountView.updatesTask?.cancel()
        prepareHooks(account)
        let hooks = accountView.hooks, hooksWanted = options.hooks.enabled && !options.hooks.isEmpty, me = account.me
        // Detached from the runner: the news' store reads (notifications, contacts, names) run beside
        // the effects, so a feed opened during a long sync does not wait behind them. Only relay rows,
        // which are the runner's state, go through it.
        accountView.updatesTask = Task.detached { [weak self] in
            let updates = account.updates
            // The same start as `linkstr sync` (AccountSession+Sync).
            do { try await account.startSync(relaysApplied: true) } catch {
                dispatch(.failed(.startSync, ClientError(error)))
            }
            // What the hooks are given: the same events as `sync --follow --json`, kept current from the
            // start even before the user allows them (so a yes does not take every session for new).
            var events = hooksWanted ? try? AccountEvents(session: account, requests: policy) : nil
            var restoring = false
            for await update in updates {
                if case .restoringHistory = update { restoring = true }
                if case .backfillComplete = update { restoring = false }
                if var stream = events {
                    let lines = (try? stream.lines(update)) ?? []
                    events = stream
                    if let runner = hooks.runner, !lines.isEmpty { await runner.handle(lines, me: me, restoringHistory: restoring) }
                }
                for news in reader.news(update) {
                    switch news {
                    case .relayChanged(let snapshot): await self?.relayChanged(snapshot, of: account)
                    case .historyChanged(let relay, let note): await self?.historyChanged(relay, note, of: account)
                    case .ownListsChanged: await self?.ownListsChanged(of: account)
                    case .historyRead:
                        // Beside the updates (it waits for relays to answer), and dropped if the account goes.
                        tasks.start(dispatch) { answer in
                            await account.afterHistory()
                            // What NIP-05 said of people's names, now that it was asked.
                            if let marks = try? account.nip05Marks(), !marks.isEmpty { answer(.you(.nip05Loaded(marks))) }
                        }
                    default: if let action = Self.action(news) { dispatch(action) }
                    }
                }
            }
        }
    }

    /// The action each piece of news is, for what the runner only forwards.
    static func action(_ news: AccountNews) -> AppAction? {
        switch news {
        case .messagesArrived(let touched, let notifications, let listing, let details):
            return .sessions(.messagesArrived(touchedSessions: touched, notifications: notifications, listing: listing, details: details))
        case .contactsLoaded(let contacts): return .you(.contactsLoaded(contacts))
        case .profileNamesLoaded(let names): return .you(.profileNamesLoaded(names))
        case .ownProfileNameLoaded(let name): return .you(.ownProfileNameLoaded(name))
        case .addedYouChanged(let followers): return .you(.addedYouChanged(followers))
        case .deliveriesChanged(let rumors): return .post(.deliveriesChanged(rumors))
        case .sendQueueChanged(let news): return .post(.sendQueueChanged(news))
        case .sessionDeleted(let sid, let lines): return .sessions(.sessionDeleted(sessionID: sid, warnings: lines))
        case .postDeleted(let postID, let sid, let lines): return .post(.postDeleted(postID: postID, sessionID: sid, warnings: lines))
        case .failed(.storeIncoming, let error): return .failed(.storeIncoming, error)
        case .failed(.readProfileName, let error): return .failed(.readProfileName, error)
        case .relayChanged, .historyChanged, .ownListsChanged, .historyRead: return nil  // the runner's own (above)
        }
    }

    func historyChanged(_ relay: String, _ note: String?, of session: AccountSession) {
        guard account === session else { return }  // an account already closed
        accountView.historyNotes[relay] = note
        guard relays.entries.contains(where: { $0.url == relay }) else { return }
        dispatch(.settings(.relaysChanged(relayRows())))
    }

    func relayChanged(_ snapshot: RelaySnapshot, of session: AccountSession) {
        guard account === session, relays.entries.contains(where: { $0.url == snapshot.url }) else { return }
        accountView.relaySnapshots[snapshot.url] = snapshot
        dispatch(.settings(.relaysChanged(relayRows())))
    }

    /// The pool takes the edited list (on its own actor), then the rows on screen follow.
    func applyRelays() async -> [AppAction] {
        await account?.applyRelays()
        // Our kind 10050 and 10002 follow the edit, beside it: they need a connected relay.
        if let account { startAccountTask { _ in await account.publishOwnListsIfChanged() } }
        return [.settings(.relaysChanged(relayRows()))]
    }

    /// Edits the open account's relay list (none open: nothing to edit).
    func editRelays(_ edit: (inout RelayList) throws -> Void) throws {
        try account?.editRelays(edit)
    }

    func relayRows() -> [RelayRow] {
        relays.entries.map { entry in
            guard entry.enabled else { return RelayRow(url: entry.url, health: .disabled) }
            guard let s = accountView.relaySnapshots[entry.url] else { return RelayRow(url: entry.url, health: .connecting) }
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
            row.history = accountView.historyNotes[entry.url]
            return row
        }
    }
}
