import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// Our follow list's subscription, and which relays answered it.
struct FollowListState {
    var subscribed = false
    /// Relays that answered the follow-list request (EOSE): our applied list is as new as they know.
    var answered = Set<String>()
}

/// Our own follow list (wire 2026 §7.1): received, and edited with two devices on one key in mind.
extension SyncEngine {
    func subscribeFollowList() async {
        guard !followList.subscribed else { return }
        followList.subscribed = true
        await subscribe(.followList, [Filter(authors: [me], kinds: [3], limit: 1)])
    }

    /// An edit starts from the newest list a relay knows, never from a guess: wait (bounded) until one
    /// answered the follow-list query; none ⇒ the list is unavailable and nothing is published.
    func waitForFollowList(upTo wait: Duration) async throws {
        ensureConsuming()
        await subscribeFollowList()
        if followList.answered.isEmpty { await park(.followListAnswered, upTo: wait) }
        guard !followList.answered.isEmpty else {
            throw DomainError.message(FollowListRule.unavailable)
        }
    }

    func ingestFollowList(_ e: NostrEvent) {
        guard e.kind == 3, e.pubkey.hex == me, e.isValid else { return }
        if write("the follow list", { try store.ingestFollowList(author: me, createdAt: e.createdAt, eventID: e.id.hex, tags: e.tags, now: clock()) }) == .applied {
            updateSink.yield(.contactsChanged)
            scheduleProfileRefresh()
        }
    }

    /// Publishes the follow list with exactly `keys` (see `editContacts`).
    public func setContacts(_ keys: [Pubkey]) async throws {
        try await editContacts { _ in keys }
    }

    /// Edits the follow list (wire 2026 §7.1): `edit` turns the applied list's keys into the wanted
    /// ones; the applied list's tags are kept verbatim (other tags, relay hints, petnames), the new
    /// list is dated after it, and once a relay accepted it, it is applied like any list of ours.
    ///
    /// Two devices editing at once: once ours is accepted, a one-shot request for our newest list is a
    /// barrier (what the relays sent before accepting ours is handled when it ends) and a look at what
    /// they hold. If another device's list won, the edit is made again on it (as iOS does); if one
    /// arrived meanwhile and lost to ours, ours lacks its change, so the edit is made again on that list
    /// too (better than iOS, which keeps ours and loses the other device's contact). At most
    /// `FollowListRule.maxAttempts` publications in all.
    public func editContacts(waitingUpTo wait: Duration = .seconds(10), _ edit: @Sendable ([Pubkey]) -> [Pubkey]) async throws {
        try await waitForFollowList(upTo: wait)
        var base = try store.ownFollowList()
        for attempt in 1...FollowListRule.maxAttempts {
            let tags = FollowListRule.tags(base: base.tags, keeping: edit(FollowListRule.keys(base.tags)))
            let createdAt = FollowListRule.publicationTime(now: clock(), after: base.stamp)
            let event: NostrEvent
            do {
                event = try await publish(NostrEventTemplates.followList(tags: tags, createdAt: createdAt))
            } catch let refused as PublishError {
                // A relay may refuse a list that raced another one ("error: unknown" from nostr-relay):
                // look at what it holds and make the edit again on that.
                guard case .rejected = refused, attempt < FollowListRule.maxAttempts else { throw refused }
                await ownListsSince(base.stamp, except: nil)
                base = try store.ownFollowList()
                log.info("follow list refused; editing it again", metadata: ["attempt": "\(attempt)"])
                continue
            }
            await ownListsSince(base.stamp, except: event.id)
            let meanwhile = try store.ownFollowList()
            let outcome = try store.ingestFollowList(author: me, createdAt: event.createdAt, eventID: event.id.hex, tags: event.tags, now: clock())
            updateSink.yield(.contactsChanged)
            // The list that counts now: ours if it won, else the newer one; if it already holds the edit
            // made on what arrived meanwhile, both devices' changes are in it (this ends the exchange
            // when both made their edit again at once).
            let winner = outcome == .applied ? meanwhile : try store.ownFollowList()
            let published = Set(FollowListRule.keys(event.tags)), current = outcome == .applied ? published : Set(FollowListRule.keys(winner.tags))
            if (outcome == .applied && meanwhile.stamp == base.stamp) || Set(edit(FollowListRule.keys(winner.tags))) == current {
                await refreshProfileSubscription()
                return
            }
            if outcome == .applied {
                // Another device's list arrived while ours was on its way and lost to ours.
                base = (meanwhile.tags, LWWStamp(createdAt: event.createdAt, eventID: event.id.hex))
                log.info("follow list published beside another device's; merging it", metadata: ["attempt": "\(attempt)"])
            } else {
                base = winner
                log.info("follow list lost to a newer one; editing it again", metadata: ["attempt": "\(attempt)"])
            }
        }
        throw DomainError.message(FollowListRule.changedElsewhere)
    }

    /// What another device published at about the same moment, handled before we decide: a short pause
    /// lets a relay's broadcast of a list stored just before ours arrive (relays send it after storing,
    /// not atomically with our OK), then a one-shot request is a barrier for everything sent before its
    /// end and brings the lists the relays still hold from `stamp`'s second on.
    private func ownListsSince(_ stamp: LWWStamp?, except ours: EventID?) async {
        await sleep(Self.followListSettle)
        let filter = Filter(authors: [me], kinds: [3], since: stamp?.createdAt)
        for other in await query([filter], timeout: .seconds(5)) ?? [] where other.id != ours { ingestFollowList(other) }
    }

    /// How long a follow list edit waits for another device's list to reach us (`ownListsSince`).
    public static let followListSettle: Duration = .milliseconds(250)
}
