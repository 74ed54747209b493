/// Making remote text safe for a terminal. Everything from relays and peers is hostile: control
/// characters (ESC, CSI, OSC, BEL, C1 controls, bidi overrides) could move the cursor, retitle the
/// window, write the clipboard (OSC 52) or hide text. They never reach the screen.
public enum DisplayText {
    /// Removes control and formatting characters; newlines and tabs become spaces; runs of spaces collapse.
    public static func singleLine(_ s: String) -> String {
        // Most names, notes and links are already one clean line of printable ASCII: kept as they are,
        // without decoding scalars (every screen cleans each row's text again).
        if isCleanASCIILine(s) { return s }
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for u in s.unicodeScalars {
            if isWhitespaceLike(u) {
                if !lastWasSpace { out.append(" "); lastWasSpace = true }
                continue
            }
            guard isSafe(u) else { continue }
            out.append(u)
            lastWasSpace = false
        }
        var result = String(out)
        while result.last == " " { result.removeLast() }
        return result
    }

    /// Keeps line breaks (as "\n") but removes every other control or formatting character.
    /// Every kind of line break counts (terminals and tmux paste with CR, Windows text has CRLF, which
    /// Swift holds as one character): each becomes "\n", the lines cleaned one by one.
    public static func multiLine(_ s: String) -> String {
        s.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { singleLine(String($0)) }.joined(separator: "\n")
    }

    /// Printable ASCII with no space at either end and no two in a row: what `singleLine` would return unchanged.
    static func isCleanASCIILine(_ s: String) -> Bool {
        var previousWasSpace = true
        for byte in s.utf8 {
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else if byte > 0x20 && byte < 0x7F {
                previousWasSpace = false
            } else {
                return false
            }
        }
        return !previousWasSpace || s.isEmpty
    }

    static func isWhitespaceLike(_ u: Unicode.Scalar) -> Bool {
        u == " " || u == "\t" || u == "\n" || u == "\r" || u == "\u{0B}" || u == "\u{0C}" || u == "\u{85}"
            || u == "\u{2028}" || u == "\u{2029}" || u.properties.generalCategory == .spaceSeparator
    }

    static func isSafe(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            // Zero-width joiner is a format character, but emoji sequences need it.
            return u == "\u{200D}"
        default:
            return true
        }
    }
}
