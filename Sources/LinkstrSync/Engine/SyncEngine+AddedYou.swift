import LinkstrDomain
import LinkstrRelay
import NostrProtocol

/// "Added you": the newest follow list per author seen by the last look (and live since, when watched).
struct AddedYouState {
    var lists: [Pubkey: AddedYouRule.FollowList] = [:]
    var watching = false
}

/// "Added you" (wire 2026 §7.2): who follows us now, by their newest verified follow list; paged per
/// relay, then watched live while it is shown.
extension SyncEngine {
    /// Who follows you now. nil: no relay answered. Read-only. Each relay's lists naming us are paged
    /// (200 at a time, doubling to 1 600 on a crowded second, `HistoryPager`); `complete` is false when a
    /// relay's pages did not all come (closed, timed out, a second too crowded to read): the list may
    /// then be short.
    public func addedYou(timeout: Duration = .seconds(10)) async -> (followers: [Pubkey], complete: Bool)? {
        func lists(_ events: [NostrEvent]) -> [AddedYouRule.FollowList] { events.compactMap(Self.followList) }
        guard let relays = await connectedRelays(), !relays.isEmpty else { return nil }
        var found: [AddedYouRule.FollowList] = []
        var complete = true
        var answered = false
        for relay in relays.sorted() {
            guard let paged = await pagedFollowLists(relay: relay, timeout: timeout) else { continue }
            answered = true
            found += lists(paged.events)
            if paged.outcome != .finished { complete = false }
        }
        guard answered else { return nil }
        let authors = Array(Set(found.map(\.author))).sorted()
        // Their newest lists, which may no longer name us (an unfollow a relay has not caught up with).
        for start in stride(from: 0, to: authors.count, by: AddedYouRule.authorsPerQuery) {
            let batch = Array(authors[start..<min(start + AddedYouRule.authorsPerQuery, authors.count)])
            found += lists(await query([Filter(authors: batch, kinds: [3], limit: 2 * batch.count)], timeout: timeout) ?? [])
        }
        addedYou.lists = [:]
        for list in found { keepNewer(list) }
        let followers = currentFollowers
        if addedYou.watching { await subscribeAddedYouRows(followers) }
        return (followers, complete)
    }

    private var currentFollowers: [Pubkey] { AddedYouRule.followers(Array(addedYou.lists.values), me: me) }

    /// A verified kind 3 as a follow list; nil for anything else.
    static func followList(_ e: NostrEvent) -> AddedYouRule.FollowList? {
        guard e.kind == 3, e.isValid else { return nil }
        return AddedYouRule.FollowList(author: e.pubkey.hex, stamp: LWWStamp(createdAt: e.createdAt, eventID: e.id.hex), tags: e.tags)
    }

    @discardableResult
    private func keepNewer(_ list: AddedYouRule.FollowList) -> Bool {
        if let current = addedYou.lists[list.author], !FollowListRule.shouldApply(list.stamp, over: current.stamp) || current == list { return false }
        addedYou.lists[list.author] = list
        return true
    }

    /// Keeps "added you" current while it is shown: new lists naming us (`limit: 1`: what comes from now
    /// on, and one stored at most; nostr-relay reads `limit: 0` as no limit) and the newest lists of the
    /// people listed (an unfollow). Off again: both closed.
    public func watchAddedYou(_ on: Bool) async {
        guard on != addedYou.watching else { return }
        addedYou.watching = on
        if on {
            ensureConsuming()
            await subscribe(.addedYouNew, [Filter(kinds: [3], tags: ["p": [me]], limit: 1)])
            await subscribeAddedYouRows(currentFollowers)
        } else {
            await unsubscribe(.addedYouNew)
            await unsubscribe(.addedYouRows)
        }
    }

    private func subscribeAddedYouRows(_ followers: [Pubkey]) async {
        let shown = Array(followers.prefix(AddedYouRule.watchedRows))
        guard !shown.isEmpty else { return await unsubscribe(.addedYouRows) }
        var filters: [Filter] = []
        for start in stride(from: 0, to: shown.count, by: AddedYouRule.authorsPerQuery) {
            let batch = Array(shown[start..<min(start + AddedYouRule.authorsPerQuery, shown.count)])
            filters.append(Filter(authors: batch, kinds: [3], limit: 2 * batch.count))
        }
        await subscribe(.addedYouRows, filters)
    }

    func addedYouListArrived(_ e: NostrEvent) async {
        guard addedYou.watching, let list = Self.followList(e), list.author != me else { return }
        let before = currentFollowers
        guard keepNewer(list) else { return }
        let after = currentFollowers
        guard after != before else { return }
        updateSink.yield(.addedYouChanged(after))
        // A new follower's later lists are watched too (an unfollow).
        if !Set(after).isSubset(of: before) { await subscribeAddedYouRows(after) }
    }

    /// One relay's kind 3 lists naming us, page by page. nil: the relay did not take the first page.
    private func pagedFollowLists(relay: String, timeout: Duration) async -> (events: [NostrEvent], outcome: HistoryPager.Outcome)? {
        var pager = HistoryPager(relayLimit: await pool.effectiveLimit(HistoryPager.Limits.followLists.max, relay), limits: .followLists)
        var events: [String: NostrEvent] = [:]
        var actions = pager.start()
        var pages = 0
        while let action = actions.first {
            actions.removeFirst()
            switch action {
            case .close: continue
            case .settled(let outcome): return (Array(events.values), outcome)
            case .request(let page), .requestLater(let page, _, _):
                if case .requestLater(_, let wait, _) = action { await sleep(wait) }
                pages += 1
                guard let answer = await queryEach([Filter(kinds: [3], tags: ["p": [me]], until: page.wireUntil, limit: page.limit)],
                                                   relays: [relay], timeout: timeout) else {
                    return pages == 1 ? nil : (Array(events.values), .incomplete(.disconnected))
                }
                let sent = answer.sources[relay] ?? []
                for e in answer.events where sent.contains(e.id.hex) {
                    let names = isAddressedToUs(e)
                    pager.received(id: e.id.hex, createdAt: e.createdAt, matchesFilter: e.kind == 3 && names, page: page.number)
                    events[e.id.hex] = e
                }
                actions += pager.ended(answer.ends[relay] ?? .timedOut, page: page.number)
            }
        }
        return (Array(events.values), pager.outcome ?? .incomplete(.timedOut))
    }
}
