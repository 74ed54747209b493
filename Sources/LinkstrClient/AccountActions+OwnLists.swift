import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// Our blocked relays (kind 10006) and chosen inbox relays (kind 10050), edited the same way from the
/// app's Settings and `linkstr relays`: saved here first (in force at once: a blocked relay is never
/// dialled from now on), then published; what could not be published waits for the next chance.
extension AccountActions {
    public enum OwnListFailure: Error, Equatable, Sendable, CustomStringConvertible {
        case invalid(String)
        case ours(String)
        case alreadyBlocked(String)
        case notBlocked(String)
        /// Blocking the only relay we read gift wraps from would leave friends nowhere to deliver.
        case onlyInbox(String)
        public var description: String {
            switch self {
            case .invalid(let input): return RelayURL.invalidMessage + " (\(DisplayText.singleLine(input)))"
            case .ours(let url): return "\(url) is one of your relays: remove it first (linkstr relays remove \(url))."
            case .alreadyBlocked(let url): return "\(url) is already blocked."
            case .notBlocked(let url): return "\(url) is not blocked."
            case .onlyInbox(let url):
                return "\(url) is your only inbox relay (your kind 10050): choose another first (linkstr relays inbox URL…, or --reset for your relays)."
            }
        }
    }

    /// What an edit of one of our lists came to.
    public struct ListEdit: Equatable, Sendable {
        public let relay: String?
        /// Accepted by a relay; false: saved here, published at the next chance (`note` says why not now).
        public let published: Bool
        public let note: String?
    }

    public func blockedRelays() throws -> [String] { try store.blockedRelayRecord()?.relays ?? [] }

    /// Our blocked relays as stored, and whether the list waits to go out.
    public func blockedRelayRecord() throws -> AccountStore.BlockedRelayRecord? { try store.blockedRelayRecord() }

    /// Blocks `input` (not one of `ours`: the relays we use are removed from the list first).
    public func blockRelay(_ input: String, ours: [String], now: Int64) async throws -> ListEdit {
        guard let url = RelayURL.normalized(input) else { throw OwnListFailure.invalid(input) }
        guard !ours.contains(url) else { throw OwnListFailure.ours(url) }
        let current = try store.blockedRelayRecord()
        guard !(current?.relays.contains(url) ?? false) else { throw OwnListFailure.alreadyBlocked(url) }
        // A relay we publish as our inbox leaves it first: friends must not keep delivering where
        // we never read. Our kind 10002 holds only our relays, which cannot be blocked (`.ours`).
        let inbox = try store.chosenInboxRelays() ?? []
        if inbox.contains(url) {
            guard inbox.count > 1 else { throw OwnListFailure.onlyInbox(url) }
            try store.setChosenInboxRelays(inbox.filter { $0 != url })
        }
        let edit = try await saveBlocked(BlockedRelayList.edit(current: current.map { ($0.tags, $0.content, $0.createdAt) }, block: url, now: now), url)
        guard inbox.contains(url) else { return edit }
        let published = await (try engine()).publishOwnListsNow()
        let said = "also taken out of your inbox relays (kind 10050)" + (published ? ", published" : ": saved here; it goes to your relays at the next chance")
        return ListEdit(relay: url, published: edit.published, note: [edit.note, said].compactMap { $0 }.joined(separator: "; "))
    }

    public func unblockRelay(_ input: String, now: Int64) async throws -> ListEdit {
        guard let url = RelayURL.normalized(input) else { throw OwnListFailure.invalid(input) }
        guard let current = try store.blockedRelayRecord(), current.relays.contains(url) else { throw OwnListFailure.notBlocked(url) }
        return try await saveBlocked(BlockedRelayList.edit(current: (current.tags, current.content, current.createdAt), unblock: url, now: now), url)
    }

    private func saveBlocked(_ template: UnsignedEventTemplate, _ url: String) async throws -> ListEdit {
        try store.setBlockedRelayRecord(.init(tags: template.tags, content: template.content, createdAt: template.createdAt, pending: true))
        do {
            try await engine().publishBlockedRelays()
            return ListEdit(relay: url, published: true, note: nil)
        } catch {
            return ListEdit(relay: url, published: false, note: "saved here; it goes to your relays at the next chance (\(ClientError(error).description))")
        }
    }

    /// Keeps the relays an nprofile named for its person (looked up there for their relay lists).
    public func keepRelayHints(_ pubkey: Pubkey, from input: String) throws {
        let hints = PubkeyNormalizer.relayHints(in: input)
        if !hints.isEmpty { try store.setRelayHints(pubkey, hints) }
    }

    /// Our inbox relays: the ones chosen, and whether they are chosen (else: the relays we use).
    public func inboxRelays(ours: [String]) throws -> (relays: [String], chosen: Bool) {
        if let chosen = try store.chosenInboxRelays(), !chosen.isEmpty { return (chosen, true) }
        return (ours, false)
    }

    /// Chooses where we read gift wraps (nil or empty: the relays we use) and publishes our kind 10050.
    public func setInboxRelays(_ inputs: [String]?) async throws -> ListEdit {
        var urls = [String]()
        for input in inputs ?? [] {
            guard let url = RelayURL.normalized(input) else { throw OwnListFailure.invalid(input) }
            if !urls.contains(url) { urls.append(url) }
        }
        let blocked = Set(try blockedRelays())
        if let bad = urls.first(where: blocked.contains) { throw OwnListFailure.alreadyBlocked(bad) }
        try store.setChosenInboxRelays(urls.isEmpty ? nil : urls)
        let published = await (try engine()).publishOwnListsNow()
        return ListEdit(relay: nil, published: published, note: published ? nil : "saved here; it goes to your relays at the next chance")
    }
}
