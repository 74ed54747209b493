import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Profiles: whose kind 0 the profiles subscription asks for, and which relays answered it.
struct ProfilesState {
    /// Contacts and session members, in parts (`ProfileParts`, pure).
    var people = ProfileParts(perPart: SyncEngine.authorsPerFilter)
    var authors: Set<Pubkey> { people.authors }
    var subscribed: Bool { people.subscribed }
    var parts: [Int: [Pubkey]] { people.parts }
    var partOf: [Pubkey: Int] { people.partOf }
    /// Relays that answered the profiles request (EOSE): our own kind 0 is known from them.
    var answered = Set<String>()
    /// Each relay's parts still to read, one at a time (`+ProfileHistory`).
    var waiting: [String: [Int]] = [:]
    /// A profile name typed while offline going out (`startPublishingPendingProfileName`); ended by `stop()`.
    var pendingNameTask: Task<Void, Never>?
}

/// Profiles (kind 0) of the people we know and our own, their inbox and relay lists (kinds 10050 and
/// 10002), and publishing our name merged into our newest kind 0.
extension SyncEngine {
    /// Asks every relay for the kind 0 of the people we know, replacing the previous request when that set
    /// changed (a REQ with the same id replaces it; the pool re-sends it after reconnects).
    func refreshProfileSubscription() async {
        undebounce(.profileRefresh)
        guard let authors = read("the people we know", { try store.profileAuthors() }) else { return }
        // Decided before anything is awaited: a refresh that overlaps this one sees the parts made here.
        let change = profiles.people.take(authors)
        guard change != .unchanged else { return }
        // Their profiles and lists: new ones here (what relays hold comes with each relay's history of
        // them, `+ProfileHistory`); all of them when nothing reads that history (an engine not started).
        let since = started ? clock() - Self.profilesClockSkew : nil
        let filters = profiles.people.filters(me: me, ownListKinds: Self.ownListKinds, kinds: Self.profileKinds, since: since)
        // Whatever ran for the old set is closed first.
        if change == .remade { await closeProfileHistory(on: nil) }
        await subscribe(.profiles, filters)
        for (relay, status) in history.relayStatus.sorted(by: { $0.key < $1.key }) where status.isReadable {
            if case .grew(let newParts) = change { await readProfileParts(newParts, on: relay) } else { await startProfileHistory(relay) }
        }
    }

    /// Our own lists: blocked relays (kind 10006) and relays (kind 10002).
    static let ownListKinds = [BlockedRelayList.kind, OwnRelayList.kind]

    /// New sessions or contacts arrive in bursts; look at the set of people once the burst is over.
    func scheduleProfileRefresh() { debounce(.profileRefresh, .seconds(1)) }

    func ingestProfile(_ e: NostrEvent, from relay: String?) {
        let author = e.pubkey.hex
        // Cheap checks before the signature: only what we asked for is worth verifying.
        let route = ProfileEventRoute.of(kind: e.kind, author: author, me: me, ownListKinds: Self.ownListKinds,
                                         relayListKinds: [InboxRelayRule.inboxKind, InboxRelayRule.relayListKind], wanted: profiles.authors)
        switch route {
        case .ignore: return
        case .ownList: return ingestOwnList(e)
        case .theirRelayList: return storeDiscoveredList(e, wanted: profiles.authors, foundOn: relay, now: clock())
        case .ownProfile:
            guard e.isValid, let current = read("our profile", { try store.ownProfile() }) else { return }
            if case .apply(_, let stamp) = ProfileRule.decide(kind: e.kind, author: me, createdAt: e.createdAt, eventID: e.id.hex, content: e.content,
                                                              known: [me], current: current?.stamp, now: clock()) {
                write("our profile") { try store.setOwnProfile(content: e.content, stamp: stamp) }
                // Unless a name typed here is still waiting to be published, the relays' name is ours.
                if case .some(nil) = read("the pending profile name", { try store.setting(.profileNamePending) }) {
                    write("our profile name") { try store.setSetting(.profileName, NostrEventTemplates.profileName(fromContent: e.content)) }
                    scheduleProfilesChanged()
                }
            }
            return
        case .theirProfile: break
        }
        guard e.isValid, let current = read("a profile", { try store.profileStamp(author) }) else { return }
        let decision = ProfileRule.decide(kind: e.kind, author: author, createdAt: e.createdAt, eventID: e.id.hex, content: e.content,
                                          known: profiles.authors, current: current, now: clock())
        guard write("a profile", { try store.applyProfile(author, decision) }) == true else {
            // An older one a relay still keeps: counted as held by the next NIP-77 sync.
            if case .ignore(.older) = decision, current?.eventID != e.id.hex { passOver(e, .author(author)) }
            return
        }
        // Where to look for their relays when their lists are nowhere else.
        let nip05 = NIP05Relays.identifier(fromProfileContent: e.content)?.text
        write("a profile's NIP-05") { try store.setProfileNIP05(author, nip05) }
        scheduleProfilesChanged()
    }

    /// One reload for a burst of profiles (the first answer brings one per person).
    private func scheduleProfilesChanged() { debounce(.profilesChanged, .milliseconds(200)) }

    func announceProfilesChanged() {
        undebounce(.profilesChanged)
        updateSink.yield(.profilesChanged)
    }

    /// Publishes a profile name typed while offline on a task of the engine's, ended by `stop()`: a sync's
    /// deadline and the app's updates never wait for it (`sync --timeout 10` took 27.5 s with
    /// every relay down and a name pending). What has not gone out by then stays pending (`profileNamePending`).
    public func startPublishingPendingProfileName() {
        guard profiles.pendingNameTask == nil else { return }
        profiles.pendingNameTask = tasks.start { [weak self] in await self?.publishPendingProfileName() }
    }

    /// Until the pending profile name went out or failed (callers bound this by their deadline).
    public func waitForPendingProfileName() async { await profiles.pendingNameTask?.value }

    /// A profile name typed here that no relay has accepted yet.
    public var profileNamePending: Bool {
        if case .some(.some) = read("the pending profile name", { try store.setting(.profileNamePending) }) { return true }
        return false
    }

    /// Publishes a name typed while offline or at account creation (`profile.name.pending`), if any; a
    /// failure leaves it pending for the next start, and says why.
    public func publishPendingProfileName() async {
        guard case .some(let name?) = read("the pending profile name", { try store.setting(.profileNamePending) }) else { return }
        let nip05 = read("the pending NIP-05 name", { try store.setting(.profileNIP05Pending) }) ?? nil
        do { try await publishProfileName(name, nip05: nip05) } catch {
            log.info("pending profile name not published", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// Publishes our profile name (nil or empty removes it) merged into our newest kind 0, after waiting
    /// (bounded) for a relay to tell us what that is; once accepted it is our name here too and no longer
    /// pending. Returns the published event. Our stored kind 0 must be readable: a kind 0 made without
    /// it would strip the fields other clients set, so nothing is published then.
    @discardableResult
    public func publishProfileName(_ name: String?, nip05: String? = nil, waitingUpTo wait: Duration = .seconds(5)) async throws -> NostrEvent {
        if profiles.answered.isEmpty { await park(.profilesAnswered, upTo: wait) }
        let existing = try store.ownProfile()
        // Replaceable: relays keep the newest, so ours must be dated after the one it replaces.
        let now = max(clock(), (existing?.stamp.createdAt ?? 0) + 1)
        let event = try await publish(NostrEventTemplates.profile(name: name, existingContent: existing?.content, now: now, nip05: nip05))
        try store.setOwnProfile(content: event.content, stamp: LWWStamp(createdAt: event.createdAt, eventID: event.id.hex))
        try store.setSetting(.profileName, name?.isEmpty == false ? name : nil)
        try store.setSetting(.profileNamePending, nil)
        if nip05 != nil { try store.setSetting(.profileNIP05Pending, nil) }
        return event
    }
}
