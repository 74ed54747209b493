import LinkstrDomain

public struct SettingsState: Equatable, Sendable {
    public enum Section: Int, Equatable, Sendable { case relays, storage, identity }
    public var relays: [RelayRow] = []
    public var selection = 0
    public var section: Section = .relays
    public var adding: TextField?
    /// A relay asked to be added, until the list shows it (then "added" replaces "adding…").
    public var pendingAdd: String?
    public var showStats = false
    /// The nsec, only between an explicit confirmation and leaving the pane (or 60 s).
    public var revealedSecret: RevealedSecret?
    public var revealedUntil: Int64?
    public var identityActionSelection = 0
    /// The media cache's usage, read when the pane opens and after clearing.
    public var mediaUsage: MediaUsage?
    /// Our blocked relays (`b`) or inbox relays (`i`), while shown in place of the relays we use.
    public var ownList: OwnRelayListState?
    public init() {}

    /// The header figure: relays connected or read-only, of all.
    public var header: String {
        "\(relays.filter { $0.health == .connected || $0.health == .readOnly }.count) / \(relays.count)"
    }
}

public struct RelayRow: Equatable, Sendable {
    public enum Health: String, Equatable, Sendable { case connecting, connected, readOnly = "read-only", failed, disabled }
    public var url: String
    public var health: Health
    public var error: String?
    public var sent = 0
    public var received = 0
    public var latencyMilliseconds: Double?
    public var lastConnectedAt: Int64?
    /// Why the relay's history is not read to its end (a refused page being asked again, …); nil when it is.
    public var history: String?
    public init(url: String, health: Health, error: String? = nil) { self.url = url; self.health = health; self.error = error }
}

/// The sealed export's passphrase, typed twice (wire 2026 §8; linkstr's own form).
public struct ExportBackupForm: Equatable, Sendable {
    public var path: String
    public var passphrase = TextField()
    public var confirm = TextField()
    public var focusConfirm = false
    public var busy = false
    public var error: String?
    public init(path: String) { self.path = path }
}

/// What the media cache holds, against its limit (`media_cache_mb`).
public struct MediaUsage: Equatable, Sendable {
    public var files: Int
    public var bytes: Int64
    public var limit: Int64
    public init(files: Int, bytes: Int64, limit: Int64) { self.files = files; self.bytes = bytes; self.limit = limit }
}

/// One of our own relay lists in Settings, edited here as with `linkstr relays`: the blocked
/// relays (kind 10006: never dialled) or the inbox relays (kind 10050: where we read gift wraps).
public struct OwnRelayListState: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case blocked, inbox }
    public var kind: Kind
    public var relays: [String] = []
    /// Blocked: not yet accepted by a relay (published at the next chance). Inbox: chosen here (else
    /// the relays we use).
    public var pending = false
    public var chosen = false
    public var selection = 0
    public var adding: TextField?
    public var loaded = false
    public init(_ kind: Kind) { self.kind = kind }
}
