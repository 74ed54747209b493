import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrMedia
import LinkstrStorage

/// How the app was started.
public struct AppOptions: Sendable {
    public var home: String?
    /// `--relay`: exactly these relays for this run.
    public var relays: [String]
    public var passphraseFile: String?
    /// `--passphrase-command`, else `passphrase_command` in config.toml.
    public var passphraseCommand: PassphraseCommand?
    public var theme: String
    public var noColor: Bool
    /// Fetch titles of shared pages (`link_previews` in config.toml); cached titles show either way.
    /// Open where the app was when it quit (`reopen` in config.toml).
    public var reopen = true
    public var linkPreviews: Bool
    /// Hold strangers' sessions as requests (`session_requests` in config.toml).
    public var sessionRequests: Bool
    /// How news is announced (`notify` in config.toml).
    public var notify: NotifyMode = .both
    /// How much a notification says (`notify_text`, or `notify = "full"|"short"`).
    public var notifyWording: NotificationWording = .full
    /// `lock_after`: seconds without a key before the app locks; nil: never.
    public var lockAfter: Int64? = LockAfter.defaultSeconds
    /// `lock_keeps_syncing`: the lock leaves the account open and syncing.
    public var lockKeepsSyncing = false
    /// Mouse capture (`mouse = true` in config.toml); off, text selection works as everywhere.
    public var mouse = false
    /// Links drawn as OSC 8 hyperlinks (`hyperlinks` in config.toml, resolved for this terminal).
    public var hyperlinks = false
    /// How this terminal draws pictures (`images` in config.toml or `--images`, resolved), nil: not at all.
    public var images: ImageProtocol?
    /// Inside tmux with passthrough on: picture sequences are wrapped for the terminal outside.
    public var imagesThroughTmux = false
    /// A cell's size in pixels, as the terminal said (`CSI 16 t`), for the pixel protocols.
    public var cellPixels = TerminalImage.fallbackCell
    /// How videos play (`player`, `ytdl_format`, `mpv_args`, `playback` in config.toml).
    public var player = PlayerSettings()
    /// The media cache's limit in bytes (`media_cache_mb`).
    public var mediaCacheBytes = Thumbnails.defaultCacheBytes
    /// `queue_hold_after_days`: queued items older than this wait for a yes.
    public var queueHoldAfterDays = SendQueuePolicy.defaultHoldAfterDays
    /// `[hooks]` (or `hooks = false`).
    public var hooks = HookSettings()
    /// Where people's relay lists are looked up (`indexer_relays`).
    public var indexerRelays: [String] = []
    /// The keys in force (`keys.toml`).
    public var keymap = Keymap.standard
    /// A link to show once the account is open (`linkstr open URL`).
    public var openLink: DeepLink.Link?
    /// "linkstr 0.3.0 (commit …)", shown in Settings.
    public var version: String
    public init(home: String?, relays: [String], passphraseFile: String?, theme: String, noColor: Bool, linkPreviews: Bool = true,
                sessionRequests: Bool = true, openLink: DeepLink.Link? = nil, version: String = "") {
        self.home = home; self.relays = relays; self.passphraseFile = passphraseFile; self.theme = theme; self.noColor = noColor
        self.linkPreviews = linkPreviews
        self.sessionRequests = sessionRequests
        self.openLink = openLink
        self.version = version
    }
}
