import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// Terminal columns a character occupies: 0 (combining), 1, or 2 (East Asian wide, emoji).
public enum DisplayWidth {
    private static let localeReady: Bool = {
        // wcwidth needs a UTF-8 LC_CTYPE; the app sets the user's locale, tests may not.
        if setlocale(LC_CTYPE, nil).map({ String(cString: $0) }).map({ $0.uppercased().contains("UTF") }) != true {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        return true
    }()

    public static func of(_ c: Character) -> Int {
        if c.isASCII { return c.asciiValue! < 0x20 || c.asciiValue! == 0x7F ? 0 : 1 }  // controls (tab too) are never drawn
        _ = localeReady
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        // A text-default character made an emoji by VS16 (❤️, ✔️, ☺️) is drawn without the selector, one
        // column: terminals disagree on its width (tmux 3.3 and xterm say 1, kitty and WezTerm 2), so the
        // selector shifted box borders and left stray characters. See `drawable`.
        if scalars.count > 1, scalars.contains(where: { $0.properties.isEmojiModifier || $0 == "\u{200D}" }), first.properties.isEmoji { return 2 }
        let w = sw_wcwidth(first.value)
        return w < 0 ? 1 : Int(w)
    }

    public static func of(_ s: String) -> Int { simpleWidth(s) ?? s.reduce(0) { $0 + of($1) } }

    /// The width of a string made only of simple scalars (`isSimple`: one character and one column
    /// each), or nil for anything else. Nearly everything drawn is such text (ASCII, "·", "…", "●", box
    /// lines), and this skips splitting it into characters and asking each for its properties.
    public static func simpleWidth(_ s: String) -> Int? {
        var count = 0, ascii = true
        for byte in s.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { ascii = false; break }
            count += 1
        }
        if ascii { return count }
        count = 0
        for u in s.unicodeScalars {
            guard isSimple(u) else { return nil }
            count += 1
        }
        return count
    }

    /// A scalar that is a character of its own whatever surrounds it, one column wide, drawn as it is:
    /// printable ASCII, Latin letters and signs, general punctuation, arrows, box drawing, blocks and
    /// geometric shapes. Nothing that combines, joins, selects a variation or shows as an emoji is in
    /// these ranges (a test checks each one against the general path).
    @inline(__always)
    static func isSimple(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300, 0x2010..<0x2028, 0x2030..<0x203C, 0x2190..<0x2194,
             0x2500..<0x25AA, 0x25AC..<0x25B6, 0x25B7..<0x25C0, 0x25C1..<0x25FB:
            return true
        default:
            return false
        }
    }

    /// What of a character is drawn in its cell: the base scalar, then at most three zero-width marks
    /// (combining accents, the emoji variation selector). A ZWJ sequence, a skin tone or a flag's second
    /// letter would reach the terminal as further wide characters that terminals measure differently (and
    /// that ncurses cannot hold in one cell): the base alone keeps every later column where it belongs.
    public static func drawable(_ c: Character) -> String {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return "" }
        if scalars.count == 1 { return String(c) }
        _ = localeReady
        var out = String.UnicodeScalarView()
        out.append(first)
        var marks = 0
        let textDefault = !first.properties.isEmojiPresentation
        for u in scalars.dropFirst() {
            if u == "\u{200D}" { break }
            if u == "\u{FE0F}" && textDefault { continue }
            guard marks < 3, isZeroWidthMark(u) else { continue }
            out.append(u)
            marks += 1
        }
        return String(out)
    }

    /// A mark drawn on the character before it: combining marks and variation selectors.
    public static func isZeroWidthMark(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default: return u.properties.isVariationSelector
        }
    }

    /// `s` cut to at most `width` columns, ending in "…" when cut.
    public static func truncate(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if let simple = simpleWidth(s) {
            if simple <= width { return s }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: s.unicodeScalars.prefix(width - 1))
            out.append("…")
            return String(out)
        }
        if of(s) <= width { return s }
        var out = "", used = 0
        for c in s {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// `s` cut to `width` columns at the last whole word that fits, with "…" (mid-word only for a word
    /// longer than the line).
    public static func elide(_ s: String, to width: Int) -> String {
        guard of(s) > width else { return s }
        let cut = truncate(s, to: width)
        let body = cut.dropLast()  // the "…"
        guard let space = body.lastIndex(of: " "), body.distance(from: body.startIndex, to: space) >= width / 3 else { return cut }
        var head = String(body[..<space])
        while head.hasSuffix(" ") || head.hasSuffix("·") || head.hasSuffix(",") || head.hasSuffix(":") { head.removeLast() }
        return head + " …"
    }

    /// Hint items ("a add · x remove · …") as many as fit in `width`, whole, in order; "? help" (when
    /// present) goes last, after a "…" that says more exist.
    public static func fitItems(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        var items = text.components(separatedBy: " · ")
        let tail = items.firstIndex { $0.hasPrefix("? help") }.map { items.remove(at: $0) }
        let ending = tail.map { " · … · " + $0 } ?? " · …"
        var out = ""
        for item in items {
            let next = out.isEmpty ? item : out + " · " + item
            if of(next) + of(ending) > width { break }
            out = next
        }
        return out.isEmpty ? truncate(text, to: width) : out + ending
    }

    /// `s` broken into lines of at most `width` columns, at spaces where possible.
    public static func wrap(_ s: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines = [String](), line = "", used = 0
        for word in s.split(separator: " ", omittingEmptySubsequences: false) {
            var w = String(word)
            let ww = of(w)
            if used > 0, used + 1 + ww <= width { line += " " + w; used += 1 + ww; continue }
            if used > 0 { lines.append(line); line = ""; used = 0 }
            // A word longer than the line is cut into pieces.
            while of(w) > width {
                var piece = "", pw = 0
                while let c = w.first, pw + of(c) <= width { piece.append(c); pw += of(c); w.removeFirst() }
                if piece.isEmpty { w.removeFirst(); continue }
                lines.append(piece)
            }
            line = w
            used = of(w)
        }
        if used > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `s` padded with spaces (or truncated) to exactly `width` columns.
    public static func pad(_ s: String, to width: Int) -> String {
        let t = truncate(s, to: width)
        return t + String(repeating: " ", count: max(0, width - of(t)))
    }
}
