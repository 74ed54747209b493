import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync

/// What happened to the open account, with what the screen needs of it already read: the engine's
/// updates made into news in one place (`AccountNewsReader`), so the app's runner only forwards each to
/// its action. Domain values only; no front end type.
public enum AccountNews: Sendable {
    /// A batch was stored: the sessions it touched, the news worth telling (requests and declined
    /// sessions never ring), what each says of its post, and the list as the screen shows it with those
    /// rows read again (nil when that read failed: the screen reads the whole list instead).
    case messagesArrived(touched: Set<String>, notifications: [InboundNotification], listing: SessionListing?, details: [String: NewsDetail])
    case contactsLoaded([Contact])
    case profileNamesLoaded([Pubkey: String])
    /// Our own profile name as relays have it (another device or client may have changed it).
    case ownProfileNameLoaded(String?)
    case addedYouChanged([Pubkey])
    case relayChanged(RelaySnapshot)
    case historyChanged(relay: String, note: String?)
    /// The history is read: the after-history work may start (`AccountSession.afterHistory`).
    case historyRead
    case deliveriesChanged([String])
    case ownListsChanged
    case sendQueueChanged(SendQueueNews)
    case sessionDeleted(sessionID: String, warnings: [String])
    case postDeleted(postID: String, sessionID: String, warnings: [String])
    /// Something failed: what (`Failure`) and the error as the front ends carry it.
    case failed(Failure, ClientError)

    public enum Failure: Sendable, Equatable {
        /// What arrived could not be stored (or another store failure of the engine's), or preferences
        /// could not go out.
        case storeIncoming
        /// Our profile name could not be read.
        case readProfileName
    }
}

/// Makes the engine's updates into `AccountNews`, reading what each needs through the account's own
/// reads and use cases. One per reader of the updates; `shownList` says which list the screen shows.
public struct AccountNewsReader: Sendable {
    let account: AccountSession
    let actions: AccountActions
    let policy: SessionRequestPolicy
    let shownList: @Sendable () -> SessionList

    public init(account: AccountSession, requests: SessionRequestPolicy, shownList: @escaping @Sendable () -> SessionList) {
        self.account = account
        actions = account.actions(requests: requests)
        policy = requests
        self.shownList = shownList
    }

    /// The news one update makes (none for what the screen does not show).
    public func news(_ update: SyncUpdate) -> [AccountNews] {
        let reads = account.reads
        switch update {
        case .ingested(let touched, let notifications):
            account.search.invalidate(touched)
            // When the check cannot be made, nothing rings; when the details cannot be read, the news
            // says who did what.
            let shown = (try? actions.notifiable(notifications)) ?? []
            let details = (try? actions.newsDetails(shown)) ?? [:]
            let listing: SessionListing?
            do { listing = try account.sessions.refresh(touched, shownList(), policy: policy) } catch { listing = nil }
            return [.messagesArrived(touched: touched, notifications: shown, listing: listing, details: details)]
        case .contactsChanged:
            return (try? reads.contacts()).map { [.contactsLoaded($0)] } ?? []
        case .addedYouChanged(let followers):
            return [.addedYouChanged(followers)]
        case .profilesChanged:
            var news = (try? reads.profileNames()).map { [AccountNews.profileNamesLoaded($0)] } ?? []
            do {
                if try reads.setting(.profileNamePending) == nil { news.append(.ownProfileNameLoaded(try reads.setting(.profileName))) }
            } catch {
                news.append(.failed(.readProfileName, ClientError(error)))
            }
            return news
        case .relay(let snapshot):
            return [.relayChanged(snapshot)]
        case .backfillComplete:
            return [.historyRead]
        case .storeFailed(let failure):
            return [.failed(.storeIncoming, ClientError(.storage, failure.description))]
        case .preferencesUnsynced:
            // Not a storage failure: no relay took them.
            return [.failed(.storeIncoming, ClientError(.offline, StoreFailure.preferencesUnsyncedWords))]
        case .historyChanged(let relay, let note):
            return [.historyChanged(relay: relay, note: note)]
        case .deliveriesRecorded(let rumors):
            return [.deliveriesChanged(rumors)]
        case .ownListsChanged:
            return [.ownListsChanged]
        case .sendQueue(let news):
            return [.sendQueueChanged(news)]
        case .deletionAnswered(let action, let sid, let postID, let lines):
            if action == .sessionDelete { return [.sessionDeleted(sessionID: sid, warnings: lines)] }
            if action == .postDelete, let postID { return [.postDeleted(postID: postID, sessionID: sid, warnings: lines)] }
            return []
        case .notice, .storedAfterWaiting, .inboxDelivery, .restoringHistory, .postsDeleted:
            // Relays' words are noise on a status line; stored-after-waiting is good news the rows show;
            // each member's delivery comes as `deliveriesRecorded`; restored history never rings (the
            // ingest's rule); a deleted post's feed is read again with its batch's `ingested`.
            return []
        }
    }
}
