import LinkstrDomain
import Logging
import NostrProtocol
import Synchronization

let storageLog = Logger(label: "linkstr.storage")

/// One account's rows in the shared database. Every statement is scoped by `owner`, so accounts never
/// see each other's data; sensitive columns are sealed by the account's `FieldCipher`.
public final class AccountStore: Sendable {
    public let owner: Pubkey
    /// The account's number in `accounts`: what every table's `owner` column holds (migration 14).
    let number: Int64
    let db: Database
    let cipher: FieldCipher
    /// Sessions (snapshots, deletions, archive flag, derivation) are small and read on every ingest.
    let sessionCache = SessionCache()
    /// Rows whose sealed values did not open, left out of what was read (see `DamagedRows`).
    let damage = DamageLedger()

    init(owner: Pubkey, number: Int64, db: Database, cipher: FieldCipher) {
        self.owner = owner
        self.number = number
        self.db = db
        self.cipher = cipher
    }

    /// Opens the account for `secretKey`, creating its wrapped data key on first use.
    public static func open(_ db: Database, secretKey: SecretKey, now: Int64,
                            random: any RandomSource = SystemRandom()) throws -> AccountStore {
        let owner = secretKey.publicKey.hex
        if let row = try db.query("SELECT number, wrapped_data_key FROM accounts WHERE pubkey = ?", [.text(owner)]).first {
            // A damaged key is said in words (it once fell through to a second INSERT: "UNIQUE constraint failed").
            guard case .blob(let wrapped) = row["wrapped_data_key"], let number = row["number"].int,
                  let cipher = try? FieldCipher.unwrap(wrapped, for: secretKey, random: random) else { throw damagedDataKey }
            let store = AccountStore(owner: owner, number: number, db: db, cipher: cipher)
            store.recheckHeldUnderTheCurrentRule()
            return store
        }
        let (cipher, wrapped) = try FieldCipher.create(for: secretKey, random: random)
        let number = try db.write { c in
            try c.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) VALUES (?, ?, ?)", [.text(owner), .blob(wrapped), .integer(now)])
            let number = try Self.number(of: owner, c)
            try c.run("INSERT INTO account_state (owner) VALUES (?)", [.integer(number)])
            return number
        }
        let store = AccountStore(owner: owner, number: number, db: db, cipher: cipher)
        // The kept list is the user's, not a first run's: it is not replaced by the defaults.
        if try db.scalar("SELECT count(*) FROM relays WHERE owner = ?", [store.o]).int ?? 0 > 0 { try store.setSetting(.relaysInitialized, "1") }
        return store
    }

    /// The owner as every table stores it.
    var o: SQLValue { .integer(number) }

    private static func number(of owner: Pubkey, _ c: Connection) throws -> Int64 {
        guard let number = try c.scalar("SELECT number FROM accounts WHERE pubkey = ?", [.text(owner)]).int else {
            throw StorageError.corrupt("the account's row is missing")
        }
        return number
    }

    static let damagedDataKey = StorageError.cannotDecrypt(
        "this account's data key on this device is damaged, so nothing stored here for it can be read (your identity itself is fine). "
            + "`linkstr repair --rebuild` clears this account's local data, keeping the identity and its relays; the next sync fetches "
            + "what relays hold again.")

    /// Whether the account's stored data key opens with `secretKey` (false when it is damaged).
    public static func dataKeyOpens(_ db: Database, secretKey: SecretKey) throws -> Bool {
        guard let row = try db.query("SELECT wrapped_data_key FROM accounts WHERE pubkey = ?", [.text(secretKey.publicKey.hex)]).first else { return true }
        guard case .blob(let wrapped) = row["wrapped_data_key"] else { return false }
        return (try? FieldCipher.unwrap(wrapped, for: secretKey, random: SystemRandom())) != nil
    }

    /// Starts the account afresh when its data key is damaged: every sealed row is unreadable anyway, so
    /// they go, with a new data key; the relay list (not sealed) is kept so the next sync knows where to read.
    public static func rebuild(_ db: Database, secretKey: SecretKey, now: Int64, random: any RandomSource = SystemRandom()) throws -> AccountStore {
        let owner = secretKey.publicKey.hex
        let (cipher, wrapped) = try FieldCipher.create(for: secretKey, random: random)
        let number = try db.write { c in
            // The account keeps its number (its relays stay its own).
            try c.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) VALUES (?, ?, ?) "
                      + "ON CONFLICT (pubkey) DO UPDATE SET wrapped_data_key = excluded.wrapped_data_key", [.text(owner), .blob(wrapped), .integer(now)])
            let number = try Self.number(of: owner, c)
            for table in ownedTables where table != "relays" { try c.run("DELETE FROM \(table) WHERE owner = ?", [.integer(number)]) }
            try c.run("INSERT INTO account_state (owner) VALUES (?)", [.integer(number)])
            return number
        }
        let store = AccountStore(owner: owner, number: number, db: db, cipher: cipher)
        // The kept list is the user's, not a first run's: it is not replaced by the defaults.
        if try db.scalar("SELECT count(*) FROM relays WHERE owner = ?", [store.o]).int ?? 0 > 0 { try store.setSetting(.relaysInitialized, "1") }
        return store
    }

    /// The sealing context of a value: column, owner and row, bound as AAD.
    /// Built by appending to one reserved string: it runs for every sealed field written or read, and
    /// interpolation's generic path was 6 % of writing a post (profile of `ingest`).
    func ctx(_ column: String, _ row: String) -> String {
        var s = column
        s.reserveCapacity(column.utf8.count + owner.utf8.count + row.utf8.count + 2)
        s += "|"
        s += owner
        s += "|"
        s += row
        return s
    }

    // MARK: processed gift wraps

    /// Which of `wrapIDs` were already opened: one indexed query per few hundred ids, so the sync engine
    /// dedups before decrypting without holding every id of a long history in memory.
    public func alreadyProcessed(_ wrapIDs: [String]) throws -> Set<String> {
        try db.read { c in
            Set(try c.query(in: wrapIDs, "SELECT wrap_id FROM processed_wraps WHERE owner = ? AND wrap_id IN (%@)", leading: [o])
                .compactMap { $0["wrap_id"].text })
        }
    }

    /// Messages waiting for what they depend on (their session, their root, a membership snapshot).
    public func stagedCount() throws -> Int { Int(try db.scalar("SELECT count(*) FROM staged_messages WHERE owner = ?", [o]).int ?? 0) }

    public func processedWrapCount() throws -> Int { Int(try db.scalar("SELECT count(*) FROM processed_wraps WHERE owner = ?", [o]).int ?? 0) }

    /// Up to 64 rows a statement (a batch's 256 wraps in four statements, not 256); a remainder goes in
    /// parts of 32, 16, … 1 rows, so at most seven statements are ever cached (one per row count
    /// would be 64, each held by the connection for its life).
    func insertProcessed(_ wraps: [ProcessedWrap], now: Int64, _ c: Connection) throws {
        var start = 0
        while start < wraps.count {
            let left = wraps.count - start
            var size = 64
            while size > left { size /= 2 }
            let part = wraps[start..<start + size]
            var values = [SQLValue]()
            values.reserveCapacity(size * 4)
            for w in part { values += [o, .text(w.id), .integer(now), w.createdAt.map { .integer($0) } ?? .null] }
            try c.run("INSERT OR IGNORE INTO processed_wraps (owner, wrap_id, processed_at, created_at) VALUES " + Self.processedRows[size.trailingZeroBitCount], values)
            start += size
        }
    }
    /// The `VALUES` rows of 1, 2, 4, … 64 wraps (index: log₂ of the count).
    private static let processedRows = (0...6).map { Array(repeating: "(?, ?, ?, ?)", count: 1 << $0).joined(separator: ", ") }

    /// Records wraps that carried nothing to ingest (invalid, not linkstr) so they are never opened again.
    public func markProcessed(_ wrapIDs: [String], now: Int64) throws {
        guard !wrapIDs.isEmpty else { return }
        try db.write { try insertProcessed(wrapIDs.map { ProcessedWrap(id: $0) }, now: now, $0) }
    }

    // MARK: account flags

    /// Whether the first backfill into an empty store has completed (history then arrives read).
    public func historyRestored() throws -> Bool {
        try db.scalar("SELECT history_restored FROM account_state WHERE owner = ?", [o]).int == 1
    }

    public func setHistoryRestored() throws {
        try db.run("UPDATE account_state SET history_restored = 1 WHERE owner = ?", [o])
    }

    /// True when nothing conversational is stored yet (a fresh device or a cleared account).
    public func isConversationStoreEmpty() throws -> Bool {
        try db.scalar("""
            SELECT (SELECT count(*) FROM snapshots WHERE owner = ?1) + (SELECT count(*) FROM posts WHERE owner = ?1)
                 + (SELECT count(*) FROM staged_messages WHERE owner = ?1)
            """, [o]).int == 0
    }

    public func setting(_ setting: Setting) throws -> String? {
        try cipher.open(try db.scalar(Self.settingSQL, [o, .text(setting.rawValue)]), ctx("settings", setting.rawValue))
    }

    func setting(_ setting: Setting, _ c: Connection) throws -> String? {
        try cipher.open(try c.scalar(Self.settingSQL, [o, .text(setting.rawValue)]), ctx("settings", setting.rawValue))
    }

    private static let settingSQL = "SELECT value_enc FROM settings WHERE owner = ? AND key = ?"

    public func setSetting(_ setting: Setting, _ value: String?) throws {
        try db.write { try setSetting(setting, value, $0) }
    }

    func setSetting(_ setting: Setting, _ value: String?, _ c: Connection) throws {
        let key = setting.rawValue
        if let value {
            try c.run("INSERT OR REPLACE INTO settings (owner, key, value_enc) VALUES (?, ?, ?)", [o, .text(key), cipher.seal(value, ctx("settings", key))])
        } else {
            try c.run("DELETE FROM settings WHERE owner = ? AND key = ?", [o, .text(key)])
        }
    }

    // MARK: link metadata cache

    /// A page's title and the image it names for itself (`LinkPreview.imageURL`, kept sealed in the
    /// `thumbnail_enc` column, which no release ever filled with anything else).
    public struct LinkMetadata: Equatable, Sendable {
        public var title: String?
        public var imageURL: String?
        public var fetchedAt: Int64
        public init(title: String?, imageURL: String? = nil, fetchedAt: Int64) { self.title = title; self.imageURL = imageURL; self.fetchedAt = fetchedAt }
    }

    public func linkMetadata(for url: String) throws -> LinkMetadata? {
        let ref = cipher.reference(url)
        guard let r = try db.query("SELECT * FROM link_metadata WHERE owner = ? AND url_ref = ?", [o, .text(ref)]).first else { return nil }
        return LinkMetadata(title: try cipher.open(r["title_enc"], ctx("link_metadata.title", ref)),
                            imageURL: try cipher.open(r["thumbnail_enc"], ctx("link_metadata.thumbnail", ref)), fetchedAt: r["fetched_at"].int ?? 0)
    }

    /// Titles already cached for `urls` (failed fetches have none), in one read.
    public func linkTitles(for urls: [String]) throws -> [String: String] { try linkMetadataColumn("title", for: urls) }

    /// The images pages named for themselves, already cached for `urls`, in one read.
    public func linkImageURLs(for urls: [String]) throws -> [String: String] { try linkMetadataColumn("thumbnail", for: urls) }

    private func linkMetadataColumn(_ field: String, for urls: [String]) throws -> [String: String] {
        let byRef = Dictionary(Set(urls).map { (cipher.reference($0), $0) }, uniquingKeysWith: { a, _ in a })
        var values = [String: String]()
        try db.read { c in
            for r in try c.query(in: byRef.keys, "SELECT url_ref, \(field)_enc AS value FROM link_metadata WHERE owner = ? AND url_ref IN (%@)", leading: [o]) {
                let ref = r["url_ref"].text ?? ""
                if let url = byRef[ref], let value = try cipher.open(r["value"], ctx("link_metadata.\(field)", ref)) { values[url] = value }
            }
        }
        return values
    }

    public func storeLinkMetadata(_ m: LinkMetadata, for url: String) throws {
        let ref = cipher.reference(url)
        try db.run("INSERT OR REPLACE INTO link_metadata (owner, url_ref, title_enc, thumbnail_enc, fetched_at) VALUES (?, ?, ?, ?, ?)",
                   [o, .text(ref), cipher.seal(m.title, ctx("link_metadata.title", ref)), cipher.seal(m.imageURL, ctx("link_metadata.thumbnail", ref)),
                    .integer(m.fetchedAt)])
    }

    /// Clears hydrated previews (posts stay).
    public func clearLinkMetadata() throws { try db.run("DELETE FROM link_metadata WHERE owner = ?", [o]) }

    // MARK: removal

    /// Deletes every row this account owns, its wrapped data key included (secure_delete zeroes the pages).
    public func deleteAllData() throws {
        try writing { scope in
            for table in Self.ownedTables { try scope.c.run("DELETE FROM \(table) WHERE owner = ?", [o]) }
            try scope.c.run("DELETE FROM accounts WHERE number = ?", [o])
            scope.forgetSessions()
        }
        // Folding the WAL in makes secure_delete's zeroed pages the only copy; a reader holding the
        // log open can make it fail, and the deleted rows are gone either way.
        do { try db.checkpoint() } catch { storageLog.warning("WAL checkpoint after deleting an account failed: \(error)") }
    }

    static let ownedTables = ["account_state", "sessions", "snapshots", "session_deletions", "session_members", "membership_intervals",
                              "posts", "reactions", "tombstones", "staged_messages", "contacts", "relays", "processed_wraps",
                              "link_metadata", "settings", "profiles", "inbox_relays", "preferences", "drafts",
                              "deliveries", "relay_hints", "negentropy_refusals", "passed_over_events", "nip05_checks"]
}

/// The account's sessions in memory, as last committed: loaded on first use on the writer (so a load
/// never races a write), replaced by a write transaction only after it commits.
final class SessionCache: Sendable {
    private let sessions = Mutex<[String: SessionRecord]?>(nil)

    var value: [String: SessionRecord]? { sessions.withLock { $0 } }
    func set(_ all: [String: SessionRecord]?) { sessions.withLock { $0 = all } }
}

/// The account's sealed settings, by name (the key strings are stored: never rename a case's value).
public enum Setting: String, Sendable, CaseIterable {
    /// Our profile name as last published or received.
    case profileName = "profile.name"
    /// A profile name typed here that is not published yet.
    case profileNamePending = "profile.name.pending"
    /// A NIP-05 name (`name@domain`) to publish with the pending profile name ("" removes it).
    case profileNIP05Pending = "profile.nip05.pending"
    /// Our newest kind 0 (content and stamp), merged into when publishing.
    case ownProfileContent = "profile.own.content"
    case ownProfileStamp = "profile.own.stamp"
    /// The relay set our kind 10050 last announced.
    case inboxPublished = "inbox.published"
    /// The `created_at` of the kind 10050 last published: the next is dated after it (a replaceable event
    /// of the same second may lose to the older one on a relay).
    case inboxPublishedAt = "inbox.published.at"
    /// Our kind 10050 relays as chosen (space-separated; absent: the relays we use).
    case inboxRelays = "inbox.relays"
    /// The relay set (and markers) our kind 10002 last announced.
    case relayListPublished = "relays.list.published"
    /// Our blocked relays: the applied kind 10006 (JSON: tags, content, created_at), kept verbatim.
    case blockedRelays = "relays.blocked"
    /// The default relays were written once.
    case relaysInitialized = "relays.initialized"
    /// The tags of our applied follow list (JSON), kept verbatim for the next edit.
    case followListTags = "contacts.follow.tags"
    /// The app's `:` command history (JSON, oldest first), sealed like every setting: it may hold links.
    case commandHistory = "app.command.history"
    /// Sessions the user muted in the app (JSON list of ids): they never notify.
    case mutedSessions = "app.muted.sessions"
    /// Where the app was when it quit (JSON: pane, session, post), to open there again.
    case uiPosition = "app.ui.position"
    /// The membership rule what is staged was last checked under ("2": ten minutes allowed before a first
    /// membership); absent on a database staged under the first.
    case membershipRule = "ingest.membership.rule"
    /// The digest of the hooks the user said yes to (`HookSettings.fingerprint`): others ask first.
    case trustedHooks = "hooks.trusted"
}
