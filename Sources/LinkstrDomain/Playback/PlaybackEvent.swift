import NostrProtocol

/// What the player did, as mpv's IPC tells it, so the status line says what happens and
/// never guesses.
public enum PlaybackEvent: Equatable, Sendable {
    /// The player was started (mpv: before it has opened anything).
    case starting(player: String)
    case playing(title: String?)
    /// Played to its end.
    case ended
    /// The user closed the player.
    case closed
    /// It could not play, and why, in words with the fix where there is one.
    case failed(String)
    /// A player without IPC (a `player` template) was started; nothing more is known.
    case handedOff(player: String)

    /// How the status line says it.
    public var words: String {
        switch self {
        case .starting(let player): return "starting \(player)…"
        case .playing(let title): return "playing" + (title.map { ": " + DisplayText.singleLine($0) } ?? "") + "."
        case .ended: return "playback ended."
        case .closed: return "player closed."
        case .failed(let why): return "could not play: " + why
        case .handedOff(let player): return "opened with \(player)."
        }
    }

    public var isFinal: Bool {
        switch self {
        case .ended, .closed, .failed, .handedOff: return true
        case .starting, .playing: return false
        }
    }
}

/// mpv's JSON IPC read one line at a time (hostile input like any other: at most 64 KiB a line, any
/// shape): the events that say how playback goes, the media title, and the errors yt-dlp's hook logs,
/// which make a failure's words.
public struct MpvEventReader: Sendable {
    public static let maxLine = 64 * 1024
    /// The last error the yt-dlp hook logged (cleaned, one line).
    public private(set) var ytdlError: String?
    private var title: String?
    private var failed = false
    /// The file loaded: a title that comes (or changes) after it is said at once (real mpv sends it
    /// before or after `file-loaded`, as the site answers).
    private var loaded = false

    public init() {}

    /// The requests sent once connected: the hook's warnings and errors, and the title when it is known.
    public static let requests = "{\"command\":[\"request_log_messages\",\"warn\"]}\n{\"command\":[\"observe_property\",1,\"media-title\"]}\n"

    /// The event `line` means, if any.
    public mutating func read(_ line: String) -> PlaybackEvent? {
        guard line.utf8.count <= Self.maxLine, let message = try? JSONParser.parse(line), let object = message.objectValue else { return nil }
        switch object["event"]?.stringValue {
        case "start-file":
            return nil
        case "file-loaded":
            loaded = true
            return .playing(title: title)
        case "property-change":
            if object["name"]?.stringValue == "media-title", let t = object["data"]?.stringValue, !t.isEmpty {
                let clean = DisplayText.singleLine(t)
                guard clean != title else { return nil }
                title = clean
                if loaded { return .playing(title: clean) }
            }
            return nil
        case "log-message":
            let prefix = object["prefix"]?.stringValue ?? "", level = object["level"]?.stringValue ?? ""
            if prefix.hasPrefix("ytdl"), level == "error" || level == "fatal" || level == "warn",
               let text = object["text"]?.stringValue, !text.isEmpty {
                let clean = DisplayText.singleLine(text)
                // The hook says "youtube-dl failed" after the tool's own "ERROR: …" line: keep the telling one.
                if !(ytdlError?.contains("ERROR") ?? false) { ytdlError = String(clean.prefix(300)) }
            }
            return nil
        case "end-file":
            switch object["reason"]?.stringValue {
            case "eof": return .ended
            case "error":
                failed = true
                return .failed(failureWords(object["file_error"]?.stringValue))
            default: return .closed
            }
        default:
            return nil
        }
    }

    /// Whether a failure was already reported (an exit status then adds nothing).
    public var reportedFailure: Bool { failed }

    /// Why it failed, in words with the fix: yt-dlp's last error when its hook logged one, else mpv's.
    public func failureWords(_ fileError: String?) -> String {
        if let ytdl = ytdlError {
            let lower = ytdl.lowercased()
            if lower.contains("not found") && (lower.contains("yt-dlp") || lower.contains("youtube-dl")) {
                return Self.installYtdlp
            }
            // The video itself is gone or closed: no yt-dlp would play it, so no update is advised.
            if Self.notAVersionProblem.contains(where: { lower.contains($0) }) { return "yt-dlp could not play this (\(ytdl))." }
            return "yt-dlp could not play this (\(ytdl)). An older yt-dlp often cannot play a site any more: "
                + "update it (`yt-dlp -U`, or `pipx upgrade yt-dlp`)."
        }
        return "mpv could not open it" + (fileError.map { " (\(DisplayText.singleLine($0)))" } ?? "") + "."
    }

    /// What the site says of the video itself (removed, private, for members, blocked where you are).
    static let notAVersionProblem = ["video unavailable", "private video", "has been removed", "members-only", "sign in to confirm your age",
                                     "not available in your country", "http error 404", "http error 403"]

    /// The words when yt-dlp is missing, with the fix.
    public static let installYtdlp = "this video needs yt-dlp, which is not installed: `sudo apt install yt-dlp`, or `pipx install yt-dlp` for the newest."
}
