import CNcursesw
import Foundation
import LinkstrApp
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal through ncursesw. Only the UI thread touches it.
public final class NcursesTerminal {
    public private(set) var depth: ColorDepth = .none
    private var previous: Canvas?
    private var pairs: [Role: Int32] = [:]
    private var plan = ColorPlan(depth: .none, background: -1, pairs: [:])
    private var theme: Theme
    private var noColor = false
    private var started = false
    /// Mouse capture (`mouse = true`): off by default, so selecting text works as in any terminal.
    private var mouseCapture = false
    /// Links drawn as OSC 8 hyperlinks (`hyperlinks` in config.toml; on where the terminal takes them).
    public var hyperlinks = false
    /// Draws the canvas's pictures (`images` is not "off").
    public var painter: ImagePainter?

    public init(theme: Theme) { self.theme = theme }

    public func start(noColor: Bool, mouse: Bool = false) {
        mouseCapture = mouse
        self.noColor = noColor
        setlocale(LC_ALL, "")
        // A crash from here on puts these modes back before the process goes (FatalSignals).
        FatalSignals.arm(terminal: STDOUT_FILENO)
        initscr()
        raw()
        noecho()
        nonl()
        keypad(sw_stdscr(), true)
        _ = sw_escdelay_set(25)
        if mouse {
            _ = mousemask(sw_mouse_all(), nil)
            mouseinterval(0)
        }
        curs_set(0)
        nodelay(sw_stdscr(), true)
        started = true
        // Bracketed paste, so pasted text arrives as one event and never as keystrokes; focus events, so
        // news for the session on screen does not ring while the terminal has focus.
        writeRaw("\u{1B}[?2004h\u{1B}[?1004h")
        setUpColors(noColor: noColor)
    }

    public func stop(clearing: Bool = false) {
        guard started else { return }
        // No picture stays behind: kitty's lie above the text and outlive the screen they were put on.
        if let painter { writeRaw(painter.eraseAll()) }
        if clearing {
            // Nothing of the app's screen stays where the terminal keeps it (the alternate screen).
            werase(sw_stdscr())
            wrefresh(sw_stdscr())
            previous = nil
        }
        writeRaw("\u{1B}[?1004l\u{1B}[?2004l")
        endwin()
        FatalSignals.disarm()
        started = false
    }

    /// Takes the screen back after `stop()` (a suspend): curses mode returns with the next refresh.
    public func resume() {
        guard !started else { return }
        started = true
        FatalSignals.arm(terminal: STDOUT_FILENO)
        wrefresh(sw_stdscr())
        restoreModes()
    }

    /// Follows a terminal resize: asks the tty for its size and, when it changed, resizes curses to it.
    /// Returns the new size. (SIGWINCH reaches whichever thread the kernel picks, so ncurses' own handler
    /// and its KEY_RESIZE are not enough; the app wakes on the signal and calls this.)
    public func followResize() -> ScreenSize? {
        var rows: Int32 = 0, cols: Int32 = 0
        guard started, sw_tty_size(STDOUT_FILENO, &rows, &cols) == 0 else { return nil }
        let current = size
        guard Int(rows) != current.rows || Int(cols) != current.columns else { return nil }
        resizeterm(rows, cols)
        previous = nil
        return size
    }

    public var size: ScreenSize { ScreenSize(columns: Int(getmaxx(sw_stdscr())), rows: Int(getmaxy(sw_stdscr()))) }

    /// The next waiting input, or nil when none is waiting (the window never blocks: the app polls first).
    public func read() -> InputDecoder.Raw? {
        var ch: wint_t = 0
        let r = wget_wch(sw_stdscr(), &ch)
        if r == ERR { return nil }
        if r == KEY_CODE_YES { return .keyCode(Int32(ch)) }
        guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
        return .character(Character(scalar))
    }

    /// Re-sends the modes a shell may have reset while we were suspended (bracketed paste, mouse).
    public func restoreModes() {
        writeRaw("\u{1B}[?2004h\u{1B}[?1004h")
        _ = mousemask(0, nil)
        if mouseCapture { _ = mousemask(sw_mouse_all(), nil) }
        previous = nil
    }

    /// The last mouse event, after `KEY_MOUSE`.
    public func mouse() -> MouseEvent? {
        var e = MEVENT()
        guard getmouse(&e) == OK else { return nil }
        let s = e.bstate
        if s & sw_button4_pressed() != 0 { return MouseEvent(.wheelUp, column: Int(e.x), row: Int(e.y)) }
        if s & sw_button5_pressed() != 0 { return MouseEvent(.wheelDown, column: Int(e.x), row: Int(e.y)) }
        if s & (sw_button1_clicked() | sw_button1_pressed() | sw_button1_released()) != 0 {
            if s & sw_button1_released() != 0 && s & sw_button1_clicked() == 0 { return nil }
            return MouseEvent(.click, column: Int(e.x), row: Int(e.y))
        }
        return nil
    }

    /// Draws what changed since the last frame, then refreshes once.
    public func draw(_ canvas: Canvas, forceFull: Bool = false) {
        let full = forceFull || previous == nil || previous!.width != canvas.width || previous!.height != canvas.height
        // A full redraw starts from blank cells: what the canvas does not cover (a smaller canvas, the
        // right halves of wide characters) must not keep the previous screen's text.
        if full { werase(sw_stdscr()); clearok(sw_stdscr(), true) }
        for y in 0..<canvas.height {
            var x = 0
            while x < canvas.width {
                let cell = canvas[x, y]
                if !full, let p = previous, p[x, y] == cell { x += 1; continue }
                if cell.text.isEmpty { x += 1; continue }  // the right half of a wide character
                put(cell, x: x, y: y)
                x += 1
            }
        }
        let before = previous
        previous = canvas
        wrefresh(sw_stdscr())
        if hyperlinks { drawLinks(canvas, over: full ? nil : before) }
        if let painter, full || canvas.images != before?.images {
            // Where a picture drawn in cells was and none goes now, the canvas's cells are written again.
            let leaving = painter.cellsLeaving(canvas.images, full: full)
            writeRaw(cells(leaving, of: canvas) + painter.paint(canvas.images, full: full))
        }
    }

    /// The canvas's cells in `spans`, in their colours, the cursor saved and put back around them.
    private func cells(_ spans: [(y: Int, x: Int, end: Int)], of canvas: Canvas) -> String {
        guard !spans.isEmpty else { return "" }
        var out = "\u{1B}7"
        for span in spans where span.y < canvas.height && span.x < canvas.width {
            // A span that starts on the right half of a wide character starts with the character.
            let start = span.x > 0 && canvas[span.x, span.y].text.isEmpty ? span.x - 1 : span.x
            out += "\u{1B}[\(span.y + 1);\(start + 1)H"
            var style: Style?
            for x in start..<min(span.end, canvas.width) {
                let cell = canvas[x, span.y]
                if cell.text.isEmpty { continue }
                if cell.style != style { out += sgr(cell.style); style = cell.style }
                out += cell.text
            }
        }
        return out + "\u{1B}[0m\u{1B}8"
    }

    /// Pictures drawn in the background since the last frame: put on the screen as it is.
    public func imagesReady() {
        guard started, let painter, let canvas = previous, !canvas.images.isEmpty else { return }
        writeRaw(painter.paint(canvas.images, full: false))
    }

    /// OSC 8: curses cannot carry a hyperlink, so after the refresh the cells of each link that is new
    /// (or that curses just redrew, which dropped its link) are written again inside OSC 8, in their own
    /// colours, with the cursor saved and restored around it so curses' idea of the screen stays true.
    private func drawLinks(_ canvas: Canvas, over before: Canvas?) {
        let spans = canvas.links.filter { span in
            guard let before, before.links.contains(span) else { return true }
            return (span.x..<span.end).contains { before[$0, span.y] != canvas[$0, span.y] }
        }
        guard !spans.isEmpty else { return }
        var out = "\u{1B}7"
        for span in spans {
            out += "\u{1B}[\(span.y + 1);\(span.x + 1)H\u{1B}]8;;\(span.url)\u{1B}\\"
            var style: Style?
            for x in span.x..<span.end {
                let cell = canvas[x, span.y]
                if cell.text.isEmpty { continue }
                if cell.style != style { out += sgr(cell.style); style = cell.style }
                out += cell.text
            }
            out += "\u{1B}]8;;\u{1B}\\\u{1B}[0m"
        }
        writeRaw(out + "\u{1B}8")
    }

    /// The SGR sequence for a style, in the colours curses was given for its role.
    private func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if plan.pairs[style.role]?.dim == true { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let pair = plan.pairs[style.role] {
            codes.append(color(pair.foreground, foreground: true))
            codes.append(color(pair.background == -1 ? plan.background : pair.background, foreground: false))
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private func color(_ n: Int32, foreground: Bool) -> String {
        if n < 0 { return foreground ? "39" : "49" }
        switch depth {
        case .trueColor: return "\(foreground ? 38 : 48);2;\((n >> 16) & 0xFF);\((n >> 8) & 0xFF);\(n & 0xFF)"
        case .xterm256: return "\(foreground ? 38 : 48);5;\(n)"
        default: return n < 8 ? "\((foreground ? 30 : 40) + n)" : "\((foreground ? 90 : 100) + n - 8)"
        }
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        var attrs = rolePaint[Int(cell.style.role.rawValue)].attributes
        if cell.style.bold { attrs |= sw_a_bold() }
        if cell.style.reverse { attrs |= sw_a_reverse() }
        if cell.style.underline { attrs |= sw_a_underline() }
        let pair = rolePaint[Int(cell.style.role.rawValue)].pair
        // A cell is a base and at most three marks (`DisplayWidth.drawable`), then the terminating 0:
        // on the stack, not an array per cell.
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 8) { wide in
            var n = 0
            for u in cell.text.unicodeScalars where n < 7 { wide[n] = wchar_t(bitPattern: u.value); n += 1 }
            wide[n] = 0
            var cc = cchar_t()
            setcchar(&cc, wide.baseAddress, attrs, Int16(truncatingIfNeeded: pair), nil)
            mvwadd_wch(sw_stdscr(), Int32(y), Int32(x), &cc)
        }
    }

    /// Each role's colour pair and dim attribute, by raw value: looked up for every cell drawn.
    private var rolePaint: [(pair: Int32, attributes: attr_t)] = Array(repeating: (0, 0), count: Role.allCases.count)

    /// Another theme for the rest of the run: the colour pairs are made again and the next frame is drawn whole.
    public func use(_ theme: Theme) {
        self.theme = theme
        pairs = [:]
        setUpColors(noColor: noColor)
        previous = nil
    }

    /// Writes an escape sequence straight to the terminal (OSC 52 clipboard, bell, notifications).
    public func writeRaw(_ s: String) {
        FileHandle.standardOutput.write(Data(s.utf8))
    }

    private func setUpColors(noColor: Bool) {
        let colorful = !noColor && has_colors()
        if colorful, plan.depth == .none { start_color() }
        plan = ColorPlan.make(theme: theme, colors: colorful ? Int(sw_colors()) : 0, noColor: !colorful)
        depth = plan.depth
        // Without colour too: NO_COLOR's dim text is the dim attribute.
        defer {
            rolePaint = Role.allCases.map { role in
                (pairs[role] ?? 0, sw_a_normal() | (plan.pairs[role]?.dim == true ? sw_a_dim() : 0))
            }
        }
        guard depth != .none else { return }
        if plan.background == -1 || plan.pairs.values.contains(where: { $0.foreground == -1 }) { use_default_colors() }
        var number: Int32 = 1
        for role in Role.allCases {
            guard let p = plan.pairs[role] else { continue }
            init_extended_pair(number, p.foreground, p.background)
            pairs[role] = number
            number += 1
        }
        if let textPair = pairs[.text] { wbkgdset(sw_stdscr(), chtype(COLOR_PAIR(textPair))) }
    }
}
