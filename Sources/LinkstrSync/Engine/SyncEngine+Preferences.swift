import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Private preferences: what was decided (`PreferenceSync`, pure) and the upload's task.
struct PreferencesState {
    var sync = PreferenceSync()
    /// The upload of pending records running now (ended by `stop()`).
    var uploadTask: Task<Void, Never>?
}

/// Private preferences (kind 30078, wire 2026 §3): received, saved here (applied at once, kept pending,
/// then published), seeded once from what was chosen before they synced.
extension SyncEngine {
    func ingestPreference(_ e: NostrEvent) {
        let preference: PrivatePreference
        switch PrivatePreference.check(e, secretKey: identity) {
        case .success(let p): preference = p
        case .failure(let why):
            // Ignored, as the spec asks; the log says why (never what it holds).
            log.debug("private preference ignored", metadata: ["event": "\(e.id.hex.prefix(12))", "why": "\(why.rawValue)"])
            // Another app's record under our key, for good: counted as held by the next NIP-77 sync. (Not
            // ours that fail to read: a later linkstr may read them.)
            if why == .otherApp, e.isValid { passOver(e, .preferences) }
            return
        }
        guard write("a private preference", { try store.receivePreference(preference, event: e) }) == true else { return }
        announce(preference)
    }

    private func announce(_ preference: PrivatePreference) {
        switch preference {
        case .alias: updateSink.yield(.contactsChanged)
        case .archive(let sid, _): updateSink.yield(.ingested(touchedSessions: [sid], notifications: []))
        }
    }

    /// A change made here: applied at once and kept as pending, then published (a relay that is not
    /// reachable now gets it when it is). Nothing is made when the stored record already says so.
    public func savePreference(_ preference: PrivatePreference) throws {
        try savePreference(preference, createdAt: nil)
        scheduleUpload()
    }

    /// Publishes what is pending and returns when that is done or has failed (the CLI, before it exits).
    public func publishPendingPreferences() async {
        scheduleUpload()
        await preferences.uploadTask?.value
    }

    func scheduleUpload() { carryOut(preferences.sync.uploadWanted()) }

    private func carryOut(_ actions: [PreferenceSync.Action]) {
        for action in actions {
            switch action {
            case .seedInitialBackup: seedInitialBackup()
            case .startUpload: preferences.uploadTask = tasks.start { [weak self] in await self?.runUploads() }
            }
        }
    }

    private func runUploads() async {
        repeat {
            preferences.sync.uploadPassBegins()
            await uploadPendingPreferences()
        } while preferences.sync.uploadPassEnded(cancelled: Task.isCancelled)
        preferences.uploadTask = nil
    }

    /// `createdAt` nil: dated now, after the record it replaces; else as given (the initial backup).
    private func savePreference(_ preference: PrivatePreference, createdAt: Int64?) throws {
        let current = try store.preference(dTag: PrivatePreference.dTag(for: preference.key, secretKey: identity))
        if current?.preference == preference { return }
        let at = createdAt ?? PrivatePreference.publicationTime(now: clock(), after: current?.stamp)
        try store.savePreference(preference, event: try preference.event(secretKey: identity, createdAt: at, random: random))
        announce(preference)
    }

    /// After a relay sent the stored records: the initial backup (once per run), then an upload.
    func preferencesHistoryAnswered() { carryOut(preferences.sync.historyAnswered()) }

    /// What was chosen here before preferences synced (aliases, archived sessions) and has no record yet
    /// gets one (`InitialPreferenceBackup`).
    private func seedInitialBackup() {
        write("the initial backup of private preferences") {
            let targets = try store.storedPreferenceTargets()
            let archived = try store.sessionSummaries(archived: true).map { row in
                InitialPreferenceBackup.Archived(sessionID: row.id, since: try store.session(row.id)?.derived.timeline.first?.createdAt)
            }
            let records = InitialPreferenceBackup.records(contacts: try store.contacts(), archived: archived) { p in
                targets.contains(store.preferenceTarget(p.key))
            }
            for (p, createdAt) in records { try savePreference(p, createdAt: createdAt) }
        }
    }

    /// Publishes the pending records one at a time, each waiting for a relay's OK; a failure keeps them
    /// pending for the next reconnect.
    private func uploadPendingPreferences() async {
        guard let pending = read("the pending private preferences", { try store.pendingPreferenceEvents() }), !pending.isEmpty else { return }
        if await pool.untilWritable() != nil {
            updateSink.yield(.preferencesUnsynced)
            return
        }
        for event in pending {
            guard case .success = await pool.publish([event], Self.publishTimeout, false) else {
                updateSink.yield(.preferencesUnsynced)
                return
            }
            write("a published private preference") { try store.markPreferencePublished(event.id.hex) }
        }
        log.info("private preferences published", metadata: ["count": "\(pending.count)"])
    }
}
