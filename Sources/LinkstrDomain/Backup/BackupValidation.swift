import Foundation
import NostrProtocol

/// The wire 2026 §8 limits of a `.linkstrbackup` file, decided once.
public enum BackupLimits {
    public static let fileBytes = 128 * 1024 * 1024
    public static let records = 250_000
    public static let relays = 100
    public static let identifier = 1024
}

/// A backup whose every field passed wire 2026 §8: its key, and the preferences it holds already opened.
public struct ValidatedBackup: Sendable {
    public let file: IOSBackupFile
    public let secretKey: SecretKey
    public var owner: Pubkey { file.owner }
    /// The applied follow list's tags, decoded (nil: the file has none).
    public let followTags: [[String]]?
    /// Normalized relay URLs with their flags (empty unless `customRelays`).
    public let relays: [(url: String, enabled: Bool, addedAt: Int64)]
    public let preferences: [(preference: PrivatePreference, event: NostrEvent, pending: Bool)]
}

/// Checks a decoded backup against every rule of wire 2026 §8. The first broken rule is the error; nothing is
/// written before all of them passed.
public enum BackupValidation {
    public static func validate(_ data: Data) throws(BackupError) -> ValidatedBackup {
        guard data.count <= BackupLimits.fileBytes else {
            throw .tooLarge("\(data.count / (1024 * 1024)) MiB; a backup holds at most 128 MiB.")
        }
        return try validate(try IOSBackupFile.decode(data))
    }

    public static func validate(_ f: IOSBackupFile) throws(BackupError) -> ValidatedBackup {
        guard f.version == 1 else { throw f.version > 1 ? .newerVersion : .invalid("unsupported backup version \(f.version).") }
        guard f.recordCount <= BackupLimits.records else {
            throw .tooLarge("\(f.recordCount) records; a backup holds at most \(BackupLimits.records).")
        }
        guard f.settings.relays.count <= BackupLimits.relays else {
            throw .tooLarge("\(f.settings.relays.count) relays; a backup holds at most \(BackupLimits.relays).")
        }
        guard let key = try? SecretKey.parse(f.nsec) else { throw .invalid("nsec is not a valid secret key.") }
        try hex(f.owner, "owner")
        guard key.publicKey.hex == f.owner else { throw .invalid("owner is not the public key of nsec.") }
        try date(f.createdAt, "createdAt")

        // Settings.
        if !f.settings.customRelays && !f.settings.relays.isEmpty { throw .invalid("relays are listed but customRelays is false.") }
        var relays: [(url: String, enabled: Bool, addedAt: Int64)] = []
        var relayURLs = Set<String>()
        for (i, r) in f.settings.relays.enumerated() {
            guard let url = RelayURL.normalized(r.url), let c = URLComponents(string: url), c.user == nil, c.password == nil else {
                throw .invalid("settings.relays[\(i)].url is not a ws:// or wss:// relay address.")
            }
            guard relayURLs.insert(url).inserted else { throw .invalid("settings.relays[\(i)].url appears twice.") }
            try date(r.createdAt, "settings.relays[\(i)].createdAt")
            relays.append((url, r.enabled, r.createdAt.unixSeconds))
        }

        // Account.
        var followTags: [[String]]?
        if let a = f.account {
            try optionalIdentifier(a.followID, "account.followID")
            try optionalIdentifier(a.profileID, "account.profileID")
            for (d, name) in [(a.followDate, "followDate"), (a.profileDate, "profileDate"), (a.createdAt, "createdAt"), (a.updatedAt, "updatedAt")] {
                if let d { try date(d, "account.\(name)") }
            }
            if let data = a.followTags {
                guard let tags = try? JSONDecoder().decode([[String]].self, from: data) else {
                    throw .invalid("account.followTags is not a JSON array of tags.")
                }
                followTags = tags
            }
        }

        // Sessions.
        var sessions = Set<String>()
        for (i, s) in f.sessions.enumerated() {
            let at = "sessions[\(i)]"
            try identifier(s.id, "\(at).id")
            guard sessions.insert(s.id).inserted else { throw .invalid("\(at).id appears twice.") }
            guard !s.name.trimmingWhitespace().isEmpty else { throw .invalid("\(at).name is blank.") }
            try hex(s.creator, "\(at).creator")
            try optionalIdentifier(s.membershipID, "\(at).membershipID")
            for d in [s.createdAt, s.updatedAt] { try date(d, at) }
            if let d = s.membershipDate { try date(d, "\(at).membershipDate") }
        }

        // Posts.
        var posts = [String: String]()  // post id → session id
        for (i, p) in f.posts.enumerated() {
            let at = "posts[\(i)]"
            try identifier(p.id, "\(at).id")
            try identifier(p.sessionID, "\(at).sessionID")
            guard sessions.contains(p.sessionID) else { throw .invalid("\(at) belongs to a session the backup does not hold.") }
            guard posts.updateValue(p.sessionID, forKey: p.id) == nil else { throw .invalid("\(at).id appears twice.") }
            try hex(p.sender, "\(at).sender")
            try hex(p.receiver, "\(at).receiver")
            guard WebURL.normalized(p.url) == p.url else { throw .invalid("\(at).url is not a normalized web address.") }
            try date(p.timestamp, "\(at).timestamp")
            if let d = p.readAt { try date(d, "\(at).readAt") }
            for id in p.transportIDs { try identifier(id, "\(at).transportIDs") }
        }

        // Members and intervals.
        var members = Set<String>()
        for (i, m) in f.members.enumerated() {
            let at = "members[\(i)]"
            try identifier(m.sessionID, "\(at).sessionID")
            guard sessions.contains(m.sessionID) else { throw .invalid("\(at) belongs to a session the backup does not hold.") }
            try hex(m.pubkey, "\(at).pubkey")
            guard members.insert(m.sessionID + ":" + m.pubkey).inserted else { throw .invalid("\(at) appears twice.") }
            for d in [m.createdAt, m.updatedAt] { try date(d, at) }
        }
        for (i, v) in f.intervals.enumerated() {
            let at = "intervals[\(i)]"
            try identifier(v.sessionID, "\(at).sessionID")
            guard sessions.contains(v.sessionID) else { throw .invalid("\(at) belongs to a session the backup does not hold.") }
            try hex(v.pubkey, "\(at).pubkey")
            try date(v.start, "\(at).start")
            if let end = v.end {
                try date(end, "\(at).end")
                guard end >= v.start else { throw .invalid("\(at) ends before it starts.") }
            }
        }

        // Reactions and deletions.
        var reactions = Set<String>()
        for (i, r) in f.reactions.enumerated() {
            let at = "reactions[\(i)]"
            try identifier(r.sessionID, "\(at).sessionID")
            try identifier(r.postID, "\(at).postID")
            try identifier(r.eventID, "\(at).eventID")
            guard posts[r.postID] == r.sessionID else { throw .invalid("\(at) is about a post the backup does not hold in that session.") }
            try hex(r.pubkey, "\(at).pubkey")
            guard !r.emoji.trimmingWhitespace().isEmpty, r.emoji.utf8.count <= BackupLimits.identifier else { throw .invalid("\(at).emoji is empty or too long.") }
            guard reactions.insert([r.sessionID, r.postID, r.pubkey, r.emoji].joined(separator: ":")).inserted else {
                throw .invalid("\(at) appears twice.")
            }
            try date(r.updatedAt, "\(at).updatedAt")
        }
        var deletions = Set<String>()
        for (i, d) in f.deletions.enumerated() {
            let at = "deletions[\(i)]"
            try identifier(d.sessionID, "\(at).sessionID")
            try optionalIdentifier(d.postID, "\(at).postID")
            try identifier(d.eventID, "\(at).eventID")
            try hex(d.pubkey, "\(at).pubkey")
            guard deletions.insert(d.sessionID + ":" + (d.postID ?? "")).inserted else { throw .invalid("\(at) appears twice.") }
            try date(d.updatedAt, "\(at).updatedAt")
        }

        // Contacts and follows.
        var contacts = Set<String>()
        for (i, c) in f.contacts.enumerated() {
            let at = "contacts[\(i)]"
            try hex(c.pubkey, "\(at).pubkey")
            guard contacts.insert(c.pubkey).inserted else { throw .invalid("\(at).pubkey appears twice.") }
            try optionalIdentifier(c.profileID, "\(at).profileID")
            try date(c.createdAt, "\(at).createdAt")
            if let d = c.profileDate { try date(d, "\(at).profileDate") }
        }
        var follows = Set<String>()
        for (i, x) in f.follows.enumerated() {
            let at = "follows[\(i)]"
            try hex(x.pubkey, "\(at).pubkey")
            guard follows.insert(x.pubkey).inserted else { throw .invalid("\(at).pubkey appears twice.") }
            try identifier(x.eventID, "\(at).eventID")
            try date(x.updatedAt, "\(at).updatedAt")
        }

        // Preferences: each one passes wire 2026 §3.3 for this key; one per preference key.
        var preferences: [(preference: PrivatePreference, event: NostrEvent, pending: Bool)] = []
        var keys = Set<String>()
        for (i, p) in f.preferences.enumerated() {
            let at = "preferences[\(i)]"
            guard let event = try? NostrEvent(json: String(decoding: p.event, as: UTF8.self)) else {
                throw .invalid("\(at).event is not a Nostr event.")
            }
            let preference: PrivatePreference
            switch PrivatePreference.check(event, secretKey: key) {
            case .success(let opened): preference = opened
            case .failure(let why): throw .invalid("\(at) is refused: \(why.rawValue).")
            }
            guard keys.insert(preference.key).inserted else { throw .invalid("\(at) is a second record for the same preference.") }
            preferences.append((preference, event, p.pending))
        }
        return ValidatedBackup(file: f, secretKey: key, followTags: followTags, relays: relays, preferences: preferences)
    }

    // MARK: field rules

    private static func identifier(_ s: String, _ at: String) throws(BackupError) {
        guard !s.isEmpty else { throw .invalid("\(at) is empty.") }
        guard s.utf8.count <= BackupLimits.identifier else { throw .invalid("\(at) is longer than \(BackupLimits.identifier) characters.") }
        guard s.trimmingWhitespace() == s else { throw .invalid("\(at) has surrounding spaces.") }
    }

    private static func optionalIdentifier(_ s: String?, _ at: String) throws(BackupError) {
        if let s { try identifier(s, at) }
    }

    /// Normalized hex: 64 lowercase hex digits.
    private static func hex(_ s: String, _ at: String) throws(BackupError) {
        guard s.utf8.count == 64, s.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .invalid("\(at) is not a public key in lowercase hex.")
        }
    }

    private static func date(_ d: Date, _ at: String) throws(BackupError) {
        guard d.isWithinBackupRange else { throw .invalid("\(at) holds a date outside 1970–9999.") }
    }
}
