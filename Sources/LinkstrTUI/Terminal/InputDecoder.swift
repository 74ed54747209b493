import LinkstrApp

/// Turns the terminal's input stream (as ncurses delivers it: characters and key codes) into app
/// input: keys, bracketed pastes (`ESC [200~ … ESC [201~`) and escape-prefixed sequences.
public struct InputDecoder: Sendable {
    public enum Raw: Equatable, Sendable {
        case character(Character)
        case keyCode(Int32)
    }

    public enum Event: Equatable, Sendable {
        case key(Key)
        case paste(String)
        /// Focus events (DECSET 1004): `ESC [ I` gained, `ESC [ O` lost.
        case focus(Bool)
    }

    private var pending: [Character] = []
    private var pasting: String?

    public init() {}

    /// Feeds one raw input; returns what is complete. `flush()` after a read timeout resolves a lone ESC.
    public mutating func feed(_ raw: Raw) -> [Event] {
        switch raw {
        case .keyCode(let code):
            if pasting != nil { return [] }
            var out = flush()
            if let key = Self.key(forCode: code) { out.append(.key(key)) }
            return out
        case .character(let ch):
            if pasting != nil {
                // Appended in place: copying the paste per character would be quadratic.
                pasting!.append(ch)
                if ch == "~", pasting!.hasSuffix("\u{1B}[201~") {
                    let text = String(pasting!.dropLast(6))
                    pasting = nil
                    return [.paste(text)]
                }
                // A paste that never ends: keep memory bounded (1 MiB) and still wait for the end marker.
                if pasting!.utf8.count > 1 << 20 { pasting = String(pasting!.suffix(16)) }
                return []
            }
            if ch == "\u{1B}" && pending.isEmpty { pending = [ch]; return [] }
            if !pending.isEmpty {
                pending.append(ch)
                let s = String(pending)
                if s == "\u{1B}[200~" { pending = []; pasting = ""; return [] }
                if "\u{1B}[200~".hasPrefix(s) { return [] }
                if s.count == 2, ch != "[", ch != "O" {
                    // Alt-<key> arrives as ESC + key: treat it as Esc then the key.
                    pending = []
                    return [.key(.escape)] + feed(.character(ch))
                }
                if s == "\u{1B}[I" || s == "\u{1B}[O" { pending = []; return [.focus(s == "\u{1B}[I")] }
                if let k = Self.csi(s) { pending = []; return [.key(k)] }
                if s.count > 8 || (s.count > 2 && (ch.isLetter || ch == "~")) { pending = []; return [] }  // an unknown sequence: drop it
                return []
            }
            return [.key(Self.key(for: ch))]
        }
    }

    /// Called when no more input is waiting: a pending lone ESC is the Escape key.
    public mutating func flush() -> [Event] {
        guard !pending.isEmpty, pasting == nil else { return [] }
        let wasEscape = pending == ["\u{1B}"]
        pending = []
        return wasEscape ? [.key(.escape)] : []
    }

    public var isPasting: Bool { pasting != nil }
    /// An escape sequence or a paste has begun and is not complete yet.
    public var hasPending: Bool { !pending.isEmpty || pasting != nil }

    static func key(for ch: Character) -> Key {
        switch ch {
        case "\r", "\n": return .enter
        case "\t": return .tab
        case "\u{7F}", "\u{08}": return .backspace
        case "\u{1B}": return .escape
        default:
            if let a = ch.asciiValue, a < 0x20 { return .ctrl(Character(UnicodeScalar(a + 0x60))) }
            return .char(ch)
        }
    }

    static func csi(_ s: String) -> Key? {
        switch s {
        case "\u{1B}[A", "\u{1B}OA": return .up
        case "\u{1B}[B", "\u{1B}OB": return .down
        case "\u{1B}[C", "\u{1B}OC": return .right
        case "\u{1B}[D", "\u{1B}OD": return .left
        case "\u{1B}[H", "\u{1B}[1~", "\u{1B}OH": return .home
        case "\u{1B}[F", "\u{1B}[4~", "\u{1B}OF": return .end
        case "\u{1B}[3~": return .delete
        case "\u{1B}[5~": return .pageUp
        case "\u{1B}[6~": return .pageDown
        case "\u{1B}[Z": return .backTab
        default: return nil
        }
    }

    /// ncurses KEY_* codes (ncurses.h values, stable across builds).
    static func key(forCode code: Int32) -> Key? {
        switch code {
        case 0o402: return .down
        case 0o403: return .up
        case 0o404: return .left
        case 0o405: return .right
        case 0o406: return .home
        case 0o550: return .end
        case 0o407: return .backspace
        case 0o512: return .delete
        case 0o522: return .pageDown
        case 0o523: return .pageUp
        case 0o541: return .backTab
        case 0o527, 0o534: return .enter  // KEY_ENTER, KEY_SEND? keypad Enter
        case 0o411...0o450: return .function(Int(code - 0o410))
        default: return nil
        }
    }
}
