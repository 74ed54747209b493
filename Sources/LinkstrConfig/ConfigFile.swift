import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrStorage

/// `config.toml` in the config directory: `theme = "storm"`, `link_previews = false`, `session_requests = false`,
/// `tls_ca_file = "…"`. A missing file is fine; a malformed one, or a key with the wrong type, is an error
/// that names the file and the line or key.
public struct ConfigFile: Equatable, Sendable {
    public var theme: String?
    /// Whether the app fetches titles of shared pages (which tells those sites our address). Default: yes.
    public var linkPreviews = true
    /// Whether sessions from people who are not contacts wait as requests. Default: yes.
    public var sessionRequests = true
    /// A PEM file of CA certificates trusted besides the system's (self-hosted relays with their own CA).
    public var tlsCAFile: String?
    /// How news is announced: "both" (default), "bell", "desktop" or "off".
    public var notify: NotifyMode = .both
    /// `notify_text`: how much a notification says ("full": who, where and what; "short": who did what).
    public var notifyWording: NotificationWording = .full
    /// `lock_after`: seconds without a key before the app locks; nil: never ("off").
    public var lockAfter: Int64? = LockAfter.defaultSeconds
    /// `lock_keeps_syncing`: the lock leaves the account open (its keys in memory) so sync goes on.
    public var lockKeepsSyncing = false
    /// `queue_hold_after_days`: a queued item older than this waits for a yes before it goes (0: never).
    public var queueHoldAfterDays = SendQueuePolicy.defaultHoldAfterDays
    /// `[hooks]` (`on_post`, `on_reaction`, `on_request`, `on_session`), or `hooks = false`.
    public var hooks = HookSettings()
    /// The app takes the mouse (clicks, wheel) only when asked: otherwise the terminal keeps it for selecting text.
    public var mouse = false
    /// Links as OSC 8 hyperlinks: "auto" (where the terminal is known to take them), "on" or "off".
    public var hyperlinks: HyperlinkSetting = .auto
    /// Whether the app opens where it was when it quit (pane, session, post). Default: yes.
    public var reopen = true
    /// How pictures are drawn: "auto" (default: ask the terminal), "kitty", "sixel", "iterm", "symbols" or "off".
    public var images: ImageSetting = .auto
    /// The media cache's size in MiB (thumbnails and saved media, least recently used out first). Default: 1024.
    public var mediaCacheMB = 1024
    public static let mediaCacheRange = 16...1_048_576
    /// `passphrase_command`: a program that prints the identity's passphrase (`PassphraseCommand`).
    public var passphraseCommand: PassphraseCommand?
    /// `player`: another program for videos, as a command line (`{url}` for the link); nil: mpv.
    public var player: [String]?
    /// `ytdl_format`: mpv's `--ytdl-format`; `mpv_args`: more arguments for mpv.
    public var ytdlFormat: String?
    public var mpvArguments: [String] = []
    /// `playback`: "window" (default) or "terminal" (mpv draws in this terminal, the app suspended).
    public var playsInTerminal = false
    /// `indexer_relays`: where people's relay lists are looked up beyond our relays.
    public var indexerRelays = ConfigFile.defaultIndexers
    /// Well-known public indexers of kinds 0, 3, 10002 and 10050.
    public static let defaultIndexers = ["wss://purplepag.es", "wss://user.kindpag.es", "wss://indexer.coracle.social"]

    public init() {}

    /// Reads the file once; `~` is the home directory, a relative `tls_ca_file` is relative to the config directory.
    public static func load(in configDirectory: URL) throws -> ConfigFile {
        let url = configDirectory.appendingPathComponent("config.toml")
        var config = ConfigFile()
        guard let text = try ConfigText.read(url) else { return config }
        let toml = try TOMLFile.parse(text, source: url.path)
        config.theme = try toml.string("theme")
        config.linkPreviews = try toml.bool("link_previews") ?? true
        config.reopen = try toml.bool("reopen") ?? true
        config.sessionRequests = try toml.bool("session_requests") ?? true
        config.mouse = try toml.bool("mouse") ?? false
        if let mode = try toml.string("notify") {
            // "full" and "short" say how much (both ways: bell and desktop); the others say which way.
            if let wording = NotificationWording(rawValue: mode) {
                config.notifyWording = wording
            } else if let parsed = NotifyMode(rawValue: mode) {
                config.notify = parsed
            } else {
                throw TOMLFile.Failure("\(url.path): notify is \"both\", \"bell\", \"desktop\" or \"off\" (which way), or \"full\" or \"short\" (how much)")
            }
        }
        if let text = try toml.string("lock_after") {
            let parsed = LockAfter.parse(text)
            guard parsed.valid else {
                throw TOMLFile.Failure("\(url.path): lock_after is a time (\"30s\", \"15m\", \"2h\", up to a week) or \"off\"")
            }
            config.lockAfter = parsed.seconds
        }
        config.lockKeepsSyncing = try toml.bool("lock_keeps_syncing") ?? false
        config.hooks = try hookSettings(toml, path: url.path)
        if let days = try toml.int("queue_hold_after_days") {
            guard (0...3650).contains(days) else { throw TOMLFile.Failure("\(url.path): queue_hold_after_days is a number of days from 0 (never hold) to 3650") }
            config.queueHoldAfterDays = days
        }
        if let text = try toml.string("notify_text") {
            guard let wording = NotificationWording(rawValue: text) else {
                throw TOMLFile.Failure("\(url.path): notify_text is \"full\" or \"short\"")
            }
            config.notifyWording = wording
        }
        if let value = try? toml.bool("hyperlinks") {
            config.hyperlinks = value ? .on : .off
        } else if let value = try? toml.string("hyperlinks") {
            guard let parsed = HyperlinkSetting(rawValue: value) else {
                throw TOMLFile.Failure("\(url.path): hyperlinks is \"auto\", \"on\" or \"off\"")
            }
            config.hyperlinks = parsed
        } else if toml.has("hyperlinks") {
            throw TOMLFile.Failure("\(url.path): hyperlinks is \"auto\", \"on\" or \"off\"")
        }
        if let value = try toml.string("images") {
            guard let parsed = ImageSetting(rawValue: value) else { throw TOMLFile.Failure("\(url.path): images is \(ImageSetting.choices)") }
            config.images = parsed
        }
        if let mb = try toml.int("media_cache_mb") {
            guard mediaCacheRange.contains(mb) else {
                throw TOMLFile.Failure("\(url.path): media_cache_mb is a size in MiB from \(mediaCacheRange.lowerBound) to \(mediaCacheRange.upperBound)")
            }
            config.mediaCacheMB = mb
        }
        if let line = try? toml.string("passphrase_command") {
            guard let command = PassphraseCommand(line: line) else {
                throw TOMLFile.Failure("\(url.path): passphrase_command is a command line (\"pass show linkstr\"), with its quotes closed")
            }
            config.passphraseCommand = command
        } else if let words = try? toml.strings("passphrase_command") {
            guard let command = PassphraseCommand(words: words) else { throw TOMLFile.Failure("\(url.path): passphrase_command names no program") }
            config.passphraseCommand = command
        } else if toml.has("passphrase_command") {
            throw TOMLFile.Failure("\(url.path): passphrase_command is a command line (\"pass show linkstr\") or an array of its words")
        }
        if let words = try? toml.string("player") {
            let parts = words.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            config.player = parts.isEmpty ? nil : parts
        } else if let parts = try? toml.strings("player") {
            config.player = parts.isEmpty ? nil : parts
        } else if toml.has("player") {
            throw TOMLFile.Failure("\(url.path): player is a command line (\"vlc --play-and-exit {url}\") or an array of its words")
        }
        config.ytdlFormat = try toml.string("ytdl_format").flatMap { $0.isEmpty ? nil : $0 }
        config.mpvArguments = try toml.strings("mpv_args") ?? []
        if let mode = try toml.string("playback") {
            guard mode == "window" || mode == "terminal" else { throw TOMLFile.Failure("\(url.path): playback is \"window\" or \"terminal\"") }
            config.playsInTerminal = mode == "terminal"
        }
        if let relays = try toml.strings("indexer_relays") {
            config.indexerRelays = []
            for relay in relays {
                guard let url = RelayURL.normalized(relay) else {
                    throw TOMLFile.Failure("\(url.path): indexer_relays holds ws:// or wss:// relay URLs (\(DisplayText.singleLine(relay)) is not one)")
                }
                if !config.indexerRelays.contains(url) { config.indexerRelays.append(url) }
            }
        }
        if let path = try toml.string("tls_ca_file"), !path.isEmpty {
            let expanded = (path as NSString).expandingTildeInPath
            config.tlsCAFile = expanded.hasPrefix("/") ? expanded : configDirectory.appendingPathComponent(expanded).path
        }
        return config
    }
}

/// `hyperlinks` in config.toml.
public enum HyperlinkSetting: String, Equatable, Sendable {
    case auto, on, off

    /// Whether to draw OSC 8 hyperlinks in the terminal this environment describes. "auto" says yes only
    /// where the terminal is known to take them; tmux passes them on only when set up to, so inside tmux
    /// "auto" is no (a terminal that does not know OSC 8 ignores it, but the links cost bytes each frame).
    public func enabled(environment env: [String: String]) -> Bool {
        switch self {
        case .on: return true
        case .off: return false
        case .auto:
            if env["TMUX"] != nil || (env["TERM"] ?? "").hasPrefix("screen") { return false }
            if ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].contains(env["TERM_PROGRAM"] ?? "") { return true }
            if env["KITTY_WINDOW_ID"] != nil || env["WT_SESSION"] != nil || env["KONSOLE_VERSION"] != nil { return true }
            if let vte = env["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
            let term = env["TERM"] ?? ""
            return ["xterm-kitty", "foot", "alacritty", "wezterm", "xterm-ghostty"].contains { term.hasPrefix($0) }
        }
    }
}

/// `keys.toml` in the config directory: per context, an action and its key or keys, e.g.
/// `[global]` `next_unread = "U"`, `[feed]` `search = ["s", "/"]`. A missing file is the defaults; a
/// mistake (unknown context or action, a key name that is not one, a key bound twice) is an error that
/// names the file and the place.
public enum KeymapFile {
    public static func load(in configDirectory: URL) throws -> Keymap {
        let url = configDirectory.appendingPathComponent("keys.toml")
        guard let text = try ConfigText.read(url) else { return .standard }
        let toml = try TOMLFile.parse(text, source: url.path)
        var tables = [String: [String: [String]]]()
        for context in toml.keys {
            let table = try toml.table(context)
            var actions = [String: [String]]()
            for action in table.keys {
                if let one = try? table.string(action) { actions[action] = [one]; continue }
                guard let many = try? table.strings(action) else {
                    throw TOMLFile.Failure("\(url.path): \(context).\(action) must be a key (\"u\") or a list of keys ([\"u\", \"U\"])")
                }
                actions[action] = many
            }
            tables[context] = actions
        }
        do { return try Keymap.make(tables) } catch { throw TOMLFile.Failure("\(url.path): \(error.description)") }
    }
}

extension ConfigFile {
    /// How videos play, as configured; `terminalOutput`: mpv's video output when playing in the terminal.
    public func playerSettings(terminalOutput: String?) -> PlayerSettings {
        PlayerSettings(template: player, ytdlFormat: ytdlFormat, mpvArguments: mpvArguments, terminalOutput: terminalOutput)
    }

    /// Whether mpv draws in the terminal: `playback = "terminal"`, or no display to open a window on
    /// (neither `DISPLAY` nor `WAYLAND_DISPLAY` set: over SSH, on a console), where a window could not
    /// open. A `player` template is the user's own choice and is left alone.
    public func playsInTerminal(environment: [String: String]) -> Bool {
        playsInTerminal || (player == nil && !PlayerSettings.hasDisplay(environment))
    }
}

extension ConfigFile {
    /// `hooks = false` turns hooks off; `[hooks]` names a command per kind of news: a command line (words
    /// split at spaces, quotes group, no shell) or an array of its words.
    static func hookSettings(_ toml: TOMLFile, path: String) throws(TOMLFile.Failure) -> HookSettings {
        if let on = try? toml.bool("hooks") { return HookSettings(enabled: on) }
        let table = try toml.table("hooks")
        var commands = [HookSettings.Kind: [String]]()
        for key in table.keys {
            guard let kind = HookSettings.Kind(rawValue: key) else {
                throw TOMLFile.Failure("\(path): hooks.\(key) is not a hook (\(HookSettings.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if let line = try? table.string(key) {
                guard let words = PassphraseCommand(line: line)?.words else { throw TOMLFile.Failure("\(path): hooks.\(key) names no program (or a quote is left open)") }
                commands[kind] = words
            } else if let words = try? table.strings(key), let first = words.first, !first.isEmpty {
                commands[kind] = words
            } else {
                throw TOMLFile.Failure("\(path): hooks.\(key) is a command line (\"notify-send linkstr\") or an array of its words")
            }
        }
        return HookSettings(commands: commands)
    }
}

