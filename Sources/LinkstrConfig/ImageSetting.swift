import Foundation

/// `images` in config.toml and `--images`: how pictures are drawn, or "auto" to ask the terminal
/// (resolved by the TUI, `ImageSetting+Resolve`).
public enum ImageSetting: String, Equatable, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm, symbols, off

    public static let choices = "\"auto\", \"kitty\", \"sixel\", \"iterm\", \"symbols\" or \"off\""
}
