import Foundation
import LinkstrConfig
import LinkstrMedia

extension ImageSetting {
    /// What this setting comes to in this terminal.
    public struct Resolved: Equatable, Sendable {
        /// nil: no pictures.
        public var proto: ImageProtocol?
        /// Pixel sequences go through tmux's passthrough to the terminal outside.
        public var throughTmux = false
        public var cell = TerminalImage.fallbackCell
        public static func == (a: Resolved, b: Resolved) -> Bool {
            a.proto == b.proto && a.throughTmux == b.throughTmux && a.cell.width == b.cell.width && a.cell.height == b.cell.height
        }
    }

    /// Decides from the environment, tmux's `allow-passthrough` (asked only inside tmux) and the terminal's
    /// answers (`query`: asked only where they can be trusted, never inside tmux, which answers for itself).
    /// Under NO_COLOR "auto" draws no coloured symbols; pixel pictures are content, not colour, and stay.
    public func resolve(environment env: [String: String], noColor: Bool, tmuxPassthrough: () -> Bool,
                        query: () -> TerminalQuery.Answer?, windowCell: () -> (width: Int, height: Int)?) -> Resolved {
        if self == .off { return Resolved(proto: nil) }
        let inTmux = env["TMUX"] != nil || (env["TERM"] ?? "").hasPrefix("tmux") || (env["TERM"] ?? "").hasPrefix("screen")
        let passthrough = inTmux && tmuxPassthrough()
        let answer = inTmux || self == .symbols ? nil : query()
        let cell = answer?.cell ?? windowCell() ?? TerminalImage.fallbackCell
        func resolved(_ proto: ImageProtocol?) -> Resolved {
            Resolved(proto: proto, throughTmux: inTmux && proto != .symbols && proto != nil, cell: cell)
        }
        switch self {
        case .kitty: return resolved(.kitty)
        case .sixel: return resolved(.sixel)
        case .iterm: return resolved(.iterm)
        case .symbols: return resolved(.symbols)
        case .off: return resolved(nil)
        case .auto:
            let fallback: ImageProtocol? = noColor ? nil : .symbols
            if inTmux {
                guard passthrough else { return resolved(fallback) }
                return resolved(Self.fromEnvironment(env) ?? fallback)
            }
            if answer?.kitty == true { return resolved(.kitty) }
            if answer?.sixel == true { return resolved(.sixel) }
            return resolved(Self.fromEnvironment(env) ?? fallback)
        }
    }

    /// The terminal's pictures by what it sets in the environment (inherited through tmux and ssh where the
    /// query cannot reach it).
    static func fromEnvironment(_ env: [String: String]) -> ImageProtocol? {
        let term = env["TERM"] ?? "", program = env["TERM_PROGRAM"] ?? ""
        if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || env["LC_TERMINAL"] == "iTerm2" || program == "WezTerm" || env["WEZTERM_PANE"] != nil { return .iterm }
        if term.hasPrefix("foot") || term == "mlterm" || term.hasPrefix("contour") { return .sixel }
        return nil
    }
}

/// Whether the tmux around us passes sequences on to the terminal outside (`allow-passthrough` on or all).
public enum TmuxPassthrough {
    public static func isOn() -> Bool {
        guard let tmux = Tools.find("tmux"), let value = Tools.run(tmux, ["show-options", "-pAv", "allow-passthrough"]) else { return false }
        let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return v == "on" || v == "all"
    }
}
