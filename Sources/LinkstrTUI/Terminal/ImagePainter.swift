import LinkstrMedia

/// Puts the canvas's pictures on the terminal after curses' refresh, and takes them off again.
/// Curses knows nothing of them: their cells are blank in its idea of the screen. So a picture drawn in
/// cells (symbols, sixel, iTerm2) is taken off by writing the canvas's own cells again where it was and
/// no new picture goes (`cellsLeaving`; repainting whole rows through curses cost a 200-column terminal a
/// millisecond a key), and a kitty picture, which lies above the text, by deleting its placement. Only
/// the UI thread uses it.
public final class ImagePainter {
    public let art: ImageArt
    let throughTmux: Bool
    /// The boxes on the screen now, drawn.
    private(set) var shown = Set<ImageSpot>()
    /// Kitty images the terminal holds (sent once, placed again by id).
    private var sent = Set<UInt32>()

    public init(art: ImageArt, throughTmux: Bool) {
        self.art = art
        self.throughTmux = throughTmux
    }

    var inCells: Bool { art.proto != .kitty }

    /// The cells (row, columns `x..<end`) a picture drawn in cells leaves that no new picture covers: the
    /// terminal writes the canvas's cells there again. None on a full redraw (curses paints everything).
    func cellsLeaving(_ spots: [ImageSpot], full: Bool) -> [(y: Int, x: Int, end: Int)] {
        guard inCells, !full else { return [] }
        let now = Set(spots)
        var spans = [(y: Int, x: Int, end: Int)]()
        for old in shown where !now.contains(old) {
            for y in old.y..<old.y + old.rows {
                var left = [(old.x, old.x + old.columns)]
                for new in spots where new.y <= y && y < new.y + new.rows {
                    left = left.flatMap { a, b in [(a, min(b, new.x)), (max(a, new.x + new.columns), b)].filter { $0.0 < $0.1 } }
                }
                spans += left.map { (y, $0.0, $0.1) }
            }
        }
        return spans
    }

    /// After the refresh: the bytes that take leaving kitty pictures off and draw the new ones. Pictures
    /// not drawn yet are drawn when `art` has them.
    func paint(_ spots: [ImageSpot], full: Bool) -> String {
        let now = Set(spots)
        var out = ""
        if inCells {
            // A full redraw painted over every picture; otherwise those that stay are still on the screen.
            shown = full ? [] : shown.intersection(now)
        } else {
            // A full redraw clears the screen, which may take kitty's placements with it: all placed again.
            for spot in shown where full || !now.contains(spot) {
                out += wrap(TerminalImage.kittyErase(id: ImageArt.kittyID(key(spot)), placement: Self.placement(spot)))
            }
            shown = full ? [] : shown.intersection(now)
        }
        for spot in spots where !shown.contains(spot) {
            let key = key(spot)
            guard let rows = art.lookup(key) else { continue }
            switch art.proto {
            case .symbols:
                for (i, row) in rows.enumerated() { out += "\u{1B}[\(spot.y + 1 + i);\(spot.x + 1)H" + row }
            case .kitty:
                // Sent once, then placed by id wherever it shows.
                let id = ImageArt.kittyID(key)
                if !sent.contains(id) { out += wrap(rows.joined()) }
                out += "\u{1B}[\(spot.y + 1);\(spot.x + 1)H"
                    + wrap(TerminalImage.kittyPlace(id: id, placement: Self.placement(spot), columns: spot.columns, rows: spot.rows))
                sent.insert(id)
            case .sixel, .iterm:
                out += "\u{1B}[\(spot.y + 1);\(spot.x + 1)H" + wrap(rows.joined())
            }
            shown.insert(spot)
        }
        // The cursor is saved and put back, so curses' idea of where it is stays true.
        return out.isEmpty ? "" : "\u{1B}7" + out + "\u{1B}8"
    }

    /// Takes every picture off (quit, suspend, the editor): what is drawn in cells goes with the screen.
    func eraseAll() -> String {
        shown = []
        guard !inCells else { return "" }
        sent = []
        return wrap(TerminalImage.kittyEraseAll)
    }

    /// A box's placement id: its place on the screen (two boxes never share one).
    static func placement(_ spot: ImageSpot) -> UInt32 { UInt32(truncatingIfNeeded: spot.y * 4096 + spot.x) % 0xFF_FFFE + 1 }

    private func key(_ spot: ImageSpot) -> ImageArt.Key { ImageArt.Key(link: spot.link, revision: spot.revision, columns: spot.columns, rows: spot.rows) }

    private func wrap(_ sequence: String) -> String { throughTmux ? TerminalImage.tmuxPassthrough(sequence) : sequence }
}
