import Foundation
import LinkstrDomain

/// Our own lists as last published or read back from our relays, kept verbatim so the next edit keeps
/// what another client put there: blocked relays (kind 10006), the NIP-65 relay list (kind 10002), and
/// the inbox relays we chose (kind 10050; none chosen: the relays we use).
extension AccountStore {
    public struct BlockedRelayRecord: Equatable, Sendable {
        public var tags: [[String]]
        public var content: String
        public var createdAt: Int64
        /// Not yet accepted by a relay (edited while offline): published at the next chance.
        public var pending: Bool
        public init(tags: [[String]], content: String, createdAt: Int64, pending: Bool) {
            self.tags = tags; self.content = content; self.createdAt = createdAt; self.pending = pending
        }
        public var relays: [String] { BlockedRelayList.relays(tags: tags) }
    }

    public func blockedRelayRecord() throws -> BlockedRelayRecord? {
        guard let text = try setting(.blockedRelays) else { return nil }
        guard let o = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let tags = o["tags"] as? [[String]], let content = o["content"] as? String,
              let createdAt = (o["created_at"] as? NSNumber)?.int64Value else { throw StorageError.corrupt("the blocked relay list is not one") }
        return BlockedRelayRecord(tags: tags, content: content, createdAt: createdAt, pending: (o["pending"] as? Bool) ?? false)
    }

    public func setBlockedRelayRecord(_ record: BlockedRelayRecord) throws {
        let object: [String: Any] = ["tags": record.tags, "content": record.content, "created_at": NSNumber(value: record.createdAt),
                                     "pending": record.pending]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes, .sortedKeys]),
                          as: UTF8.self)
        try setSetting(.blockedRelays, text)
    }

    /// The relays never to dial (normalised).
    public func blockedRelays() throws -> Set<String> { Set(try blockedRelayRecord()?.relays ?? []) }
}

extension AccountStore {
    public func ownRelayList() throws -> OwnRelayList.Current? {
        guard let text = try setting(.relayListPublished) else { return nil }
        // Older databases hold nothing here: a list was never published before.
        guard let o = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let tags = o["tags"] as? [[String]], let content = o["content"] as? String,
              let createdAt = (o["created_at"] as? NSNumber)?.int64Value, let added = o["added"] as? [String] else {
            throw StorageError.corrupt("our relay list record is not one")
        }
        return OwnRelayList.Current(tags: tags, content: content, createdAt: createdAt, addedByUs: added)
    }

    public func setOwnRelayList(_ list: OwnRelayList.Current) throws {
        let object: [String: Any] = ["tags": list.tags, "content": list.content, "created_at": NSNumber(value: list.createdAt), "added": list.addedByUs]
        try setSetting(.relayListPublished, String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes, .sortedKeys]),
                                                    as: UTF8.self))
    }

    /// The inbox relays we chose (nil: the relays we use).
    public func chosenInboxRelays() throws -> [String]? {
        try setting(.inboxRelays).map { $0.split(separator: " ").map(String.init) }
    }

    public func setChosenInboxRelays(_ relays: [String]?) throws {
        try setSetting(.inboxRelays, relays.map { $0.joined(separator: " ") })
    }
}
