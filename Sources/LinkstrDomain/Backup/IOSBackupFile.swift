import Foundation

/// The iOS app's `.linkstrbackup` file (wire 2026 §8), field for field: the JSON of a default
/// `JSONEncoder` (dates as seconds since 2001-01-01 in a JSON number, `Data` as base64, nil optionals
/// left out, every other key required, empty arrays included). Decoding only checks the shape;
/// `BackupValidation` checks the meaning.
public struct IOSBackupFile: Codable, Equatable, Sendable {
    public var version: Int
    public var createdAt: Date
    public var nsec: String
    public var owner: String
    public var settings: Settings
    public var account: Account?
    public var sessions: [Session]
    public var posts: [Post]
    public var members: [Member]
    public var intervals: [Interval]
    public var reactions: [Reaction]
    public var deletions: [Deletion]
    public var contacts: [Contact]
    public var follows: [Follow]
    public var preferences: [Preference]

    public struct Settings: Codable, Equatable, Sendable {
        public var loopLocalVideos: Bool
        public var customRelays: Bool
        public var relays: [Relay]

        public init(loopLocalVideos: Bool, customRelays: Bool, relays: [Relay]) {
            self.loopLocalVideos = loopLocalVideos; self.customRelays = customRelays; self.relays = relays
        }
    }

    public struct Relay: Codable, Equatable, Sendable {
        public var url: String
        public var enabled: Bool
        public var createdAt: Date

        public init(url: String, enabled: Bool, createdAt: Date) {
            self.url = url; self.enabled = enabled; self.createdAt = createdAt
        }
    }

    public struct Account: Codable, Equatable, Sendable {
        public var followDate: Date?
        public var followID: String?
        /// Base64 of the JSON tag array of the applied follow list.
        public var followTags: Data?
        public var profileName: String?
        public var profileContent: String?
        public var profileDate: Date?
        public var profileID: String?
        public var createdAt: Date
        public var updatedAt: Date

        public init(followDate: Date? = nil, followID: String? = nil, followTags: Data? = nil, profileName: String? = nil, profileContent: String? = nil, profileDate: Date? = nil, profileID: String? = nil, createdAt: Date, updatedAt: Date) {
            self.followDate = followDate; self.followID = followID; self.followTags = followTags; self.profileName = profileName; self.profileContent = profileContent; self.profileDate = profileDate; self.profileID = profileID; self.createdAt = createdAt; self.updatedAt = updatedAt
        }
    }

    public struct Session: Codable, Equatable, Sendable {
        public var id: String
        public var name: String
        public var creator: String
        public var createdAt: Date
        public var updatedAt: Date
        public var archived: Bool
        public var membershipDate: Date?
        public var membershipID: String?

        public init(id: String, name: String, creator: String, createdAt: Date, updatedAt: Date, archived: Bool, membershipDate: Date? = nil, membershipID: String? = nil) {
            self.id = id; self.name = name; self.creator = creator; self.createdAt = createdAt; self.updatedAt = updatedAt; self.archived = archived; self.membershipDate = membershipDate; self.membershipID = membershipID
        }
    }

    public struct Post: Codable, Equatable, Sendable {
        public var id: String
        public var sessionID: String
        public var sender: String
        public var receiver: String
        public var url: String
        public var note: String?
        public var timestamp: Date
        public var archived: Bool
        public var readAt: Date?
        public var transportIDs: [String]

        public init(id: String, sessionID: String, sender: String, receiver: String, url: String, note: String? = nil, timestamp: Date, archived: Bool, readAt: Date? = nil, transportIDs: [String]) {
            self.id = id; self.sessionID = sessionID; self.sender = sender; self.receiver = receiver; self.url = url; self.note = note; self.timestamp = timestamp; self.archived = archived; self.readAt = readAt; self.transportIDs = transportIDs
        }
    }

    public struct Member: Codable, Equatable, Sendable {
        public var sessionID: String
        public var pubkey: String
        public var active: Bool
        public var createdAt: Date
        public var updatedAt: Date

        public init(sessionID: String, pubkey: String, active: Bool, createdAt: Date, updatedAt: Date) {
            self.sessionID = sessionID; self.pubkey = pubkey; self.active = active; self.createdAt = createdAt; self.updatedAt = updatedAt
        }
    }

    public struct Interval: Codable, Equatable, Sendable {
        public var sessionID: String
        public var pubkey: String
        public var start: Date
        public var end: Date?

        public init(sessionID: String, pubkey: String, start: Date, end: Date? = nil) {
            self.sessionID = sessionID; self.pubkey = pubkey; self.start = start; self.end = end
        }
    }

    public struct Reaction: Codable, Equatable, Sendable {
        public var sessionID: String
        public var postID: String
        public var pubkey: String
        public var emoji: String
        public var active: Bool
        public var updatedAt: Date
        public var eventID: String

        public init(sessionID: String, postID: String, pubkey: String, emoji: String, active: Bool, updatedAt: Date, eventID: String) {
            self.sessionID = sessionID; self.postID = postID; self.pubkey = pubkey; self.emoji = emoji; self.active = active; self.updatedAt = updatedAt; self.eventID = eventID
        }
    }

    /// No `postID`: the session's tombstone.
    public struct Deletion: Codable, Equatable, Sendable {
        public var sessionID: String
        public var postID: String?
        public var pubkey: String
        public var updatedAt: Date
        public var eventID: String

        public init(sessionID: String, postID: String? = nil, pubkey: String, updatedAt: Date, eventID: String) {
            self.sessionID = sessionID; self.postID = postID; self.pubkey = pubkey; self.updatedAt = updatedAt; self.eventID = eventID
        }
    }

    public struct Contact: Codable, Equatable, Sendable {
        public var pubkey: String
        public var alias: String?
        public var createdAt: Date
        public var profileName: String?
        public var profileDate: Date?
        public var profileID: String?

        public init(pubkey: String, alias: String? = nil, createdAt: Date, profileName: String? = nil, profileDate: Date? = nil, profileID: String? = nil) {
            self.pubkey = pubkey; self.alias = alias; self.createdAt = createdAt; self.profileName = profileName; self.profileDate = profileDate; self.profileID = profileID
        }
    }

    /// An "added you" record: `pubkey`'s follow list named us (`follows`) as of that event.
    public struct Follow: Codable, Equatable, Sendable {
        public var pubkey: String
        public var follows: Bool
        public var updatedAt: Date
        public var eventID: String

        public init(pubkey: String, follows: Bool, updatedAt: Date, eventID: String) {
            self.pubkey = pubkey; self.follows = follows; self.updatedAt = updatedAt; self.eventID = eventID
        }
    }

    public struct Preference: Codable, Equatable, Sendable {
        /// Base64 of the JSON-encoded signed kind 30078 event.
        public var event: Data
        public var pending: Bool

        public init(event: Data, pending: Bool) {
            self.event = event; self.pending = pending
        }
    }

    public init(version: Int, createdAt: Date, nsec: String, owner: String, settings: Settings, account: Account?,
                sessions: [Session], posts: [Post], members: [Member], intervals: [Interval], reactions: [Reaction],
                deletions: [Deletion], contacts: [Contact], follows: [Follow], preferences: [Preference]) {
        self.version = version; self.createdAt = createdAt; self.nsec = nsec; self.owner = owner; self.settings = settings
        self.account = account; self.sessions = sessions; self.posts = posts; self.members = members; self.intervals = intervals
        self.reactions = reactions; self.deletions = deletions; self.contacts = contacts; self.follows = follows; self.preferences = preferences
    }

    /// Every record the file holds (the wire 2026 §8 limit counts these).
    public var recordCount: Int {
        sessions.count + posts.count + members.count + intervals.count + reactions.count + deletions.count
            + contacts.count + follows.count + preferences.count + settings.relays.count
    }

    /// The JSON the iOS app writes (a default `JSONEncoder`), keys sorted so the same contents give the same file.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Shape only (required keys, types); nil when the bytes are not this format at all.
    public static func decode(_ data: Data) throws(BackupError) -> IOSBackupFile {
        // The version first, so a newer file says "update linkstr" instead of a shape error.
        struct Versioned: Decodable { let version: Int }
        guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
            throw .notABackup("not a linkstr backup (no version).")
        }
        guard versioned.version <= 1 else { throw .newerVersion }
        guard versioned.version == 1 else { throw .invalid("unsupported backup version \(versioned.version).") }
        do {
            return try JSONDecoder().decode(IOSBackupFile.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalid("missing \(BackupError.path(context.codingPath + [key])).")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalid("wrong type at \(BackupError.path(context.codingPath)).")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalid("missing value at \(BackupError.path(context.codingPath)).")
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalid("unreadable value at \(BackupError.path(context.codingPath)).")
        } catch {
            throw .invalid("unreadable backup.")
        }
    }
}

/// Dates in the file are `Date`s (seconds since 2001); everything here counts unix seconds.
extension Date {
    /// Whole unix seconds, clamped to years 1970–9999 (`BackupValidation` refuses dates outside them,
    /// so the clamp only keeps a hostile number from trapping).
    public var unixSeconds: Int64 {
        let t = timeIntervalSince1970
        guard t.isFinite else { return 0 }
        return Int64(min(max(t, 0), Double(Date.latestUnixSeconds)).rounded(.down))
    }
    /// 9999-12-31T23:59:59Z.
    public static let latestUnixSeconds: Int64 = 253_402_300_799
    public var isWithinBackupRange: Bool {
        let t = timeIntervalSince1970
        return t.isFinite && t >= 0 && t <= Double(Date.latestUnixSeconds)
    }
    public init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
}
