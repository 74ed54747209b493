/// How saving a post's media for offline goes: the status line's progress bar, and its end.
public enum SaveProgress: Equatable, Sendable {
    /// Under way; the fraction when the size is known.
    case saving(Double?)
    case saved(bytes: Int64, video: Bool)
    case cancelled
    case failed(String)

    public var isFinal: Bool { if case .saving = self { return false } else { return true } }

    /// The status line: a bar of `width` cells while saving, else what happened. `play`: what plays the
    /// saved copy where it is said (the app's key `o`; the CLI names its command).
    public func words(width: Int = 20, play: String = "o") -> String {
        switch self {
        case .saving(let fraction?):
            let filled = Int((fraction * Double(width)).rounded(.down))
            return "saving ▕" + String(repeating: "█", count: filled) + String(repeating: "░", count: max(0, width - filled))
                + "▏ \(Int((fraction * 100).rounded(.down)))% · s again cancels"
        case .saving(nil): return "saving… · s again cancels"
        case .saved(let bytes, let video):
            return "saved for offline (\(MediaSize.words(bytes)))" + (video ? ": \(play) plays it from the cache." : ".")
        case .cancelled: return "save cancelled; nothing was kept."
        case .failed(let why): return "could not save: " + why
        }
    }
}
