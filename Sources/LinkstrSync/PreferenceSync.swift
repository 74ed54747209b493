import LinkstrDomain
import NostrProtocol

/// Private preferences' decisions (kind 30078, wire 2026 §3), pure like `HistoryPager`: when the
/// initial backup is made, and when an upload of the pending records starts or runs again. The engine
/// feeds it what happened and carries out what it answers (`SyncEngine+Preferences`).
struct PreferenceSync: Equatable, Sendable {
    /// A relay sent its stored records (the preferences history chain settled once).
    private(set) var answered = false
    /// The initial backup was made this run.
    private(set) var seeded = false
    /// An upload pass runs, and whether another is wanted after it.
    private(set) var uploading = false
    private(set) var again = false

    enum Action: Equatable, Sendable {
        /// Give what was chosen here before preferences synced a record (`InitialPreferenceBackup`).
        case seedInitialBackup
        /// Start a pass that publishes the pending records.
        case startUpload
    }

    /// The stored records arrived: the backup once per run (seeding waits for them, wire 2026 §3.5), then
    /// an upload.
    mutating func historyAnswered() -> [Action] {
        answered = true
        var actions = [Action]()
        if !seeded {
            seeded = true
            actions.append(.seedInitialBackup)
        }
        return actions + uploadWanted()
    }

    /// Something is pending: a pass starts, or the running one is followed by another.
    mutating func uploadWanted() -> [Action] {
        if uploading {
            again = true
            return []
        }
        uploading = true
        again = false
        return [.startUpload]
    }

    /// A pass begins: it reads what is pending now, so what was asked for before it began is covered
    /// (a CLI command's last request, made while its save's pass was still to begin, costs no second pass
    /// and no second wait for a relay).
    mutating func uploadPassBegins() { again = false }

    /// A pass ended: true when another is to run now (something was saved meanwhile).
    mutating func uploadPassEnded(cancelled: Bool) -> Bool {
        if again && !cancelled {
            again = false
            return true
        }
        uploading = false
        again = false
        return false
    }
}

/// The initial backup of private preferences: what was chosen here before they synced (aliases,
/// archived sessions) and has no record yet gets one, dated at its origin (the session's first event;
/// an alias at 1) so that it never outranks an edit made elsewhere.
enum InitialPreferenceBackup {
    struct Archived: Equatable, Sendable {
        let sessionID: String
        /// When the session began (its first event), if known.
        let since: Int64?
    }

    /// The records to make, each with its date; `hasRecord` says whether one is stored already.
    static func records(contacts: [Contact], archived: [Archived], hasRecord: (PrivatePreference) -> Bool) -> [(PrivatePreference, createdAt: Int64)] {
        var out = [(PrivatePreference, createdAt: Int64)]()
        for contact in contacts {
            guard let alias = contact.alias else { continue }
            let p = PrivatePreference.alias(pubkey: contact.pubkey, name: alias)
            if !hasRecord(p) { out.append((p, 1)) }
        }
        for session in archived {
            let p = PrivatePreference.archive(sessionID: session.sessionID, archived: true)
            if !hasRecord(p) { out.append((p, max(1, session.since ?? 1))) }
        }
        return out
    }
}
