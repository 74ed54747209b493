import LinkstrMedia

/// Puts the canvas's pictures on the terminal after curses' refresh, and takes them off again (issue 29).
/// Curses knows nothing of them: their cells are blank in its idea of the screen. So a picture drawn in
/// cells (symbols, sixel, iTerm2) is taken off by having curses paint its rows again (`rowsLeaving`,
/// before the refresh), and a kitty picture, which lies above the text, by deleting its placement. Only
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

    /// Before the refresh: the rows (first, count) that curses must paint again because a picture drawn
    /// in cells leaves them. Everything counts as leaving on a full redraw.
    func rowsLeaving(_ spots: [ImageSpot], full: Bool) -> [(y: Int, rows: Int)] {
        guard inCells else { return [] }
        let now = Set(spots)
        return shown.filter { full || !now.contains($0) }.map { ($0.y, $0.rows) }
    }

    /// After the refresh: the bytes that take leaving pictures off (kitty) and draw the new ones, and the
    /// ones on rows curses just painted again. Pictures not drawn yet are drawn when `art` has them.
    func paint(_ spots: [ImageSpot], repainted: [(y: Int, rows: Int)], full: Bool) -> String {
        let now = Set(spots)
        var out = ""
        if inCells {
            // Curses painted these rows again: the pictures on them are gone from the screen.
            shown = shown.filter { spot in
                now.contains(spot) && !full && !repainted.contains { $0.y < spot.y + spot.rows && spot.y < $0.y + $0.rows }
            }
        } else {
            // A full redraw clears the screen, which may take kitty's placements with it: all placed again.
            for spot in shown where full || !now.contains(spot) { out += wrap(TerminalImage.kittyErase(id: ImageArt.kittyID(key(spot)))) }
            shown = full ? [] : shown.intersection(now)
        }
        for spot in spots where !shown.contains(spot) {
            let key = key(spot)
            guard let rows = art.lookup(key) else { continue }
            switch art.proto {
            case .symbols:
                for (i, row) in rows.enumerated() { out += "\u{1B}[\(spot.y + 1 + i);\(spot.x + 1)H" + row }
            case .kitty:
                let id = ImageArt.kittyID(key)
                let sequence = sent.contains(id) ? TerminalImage.kittyPlace(id: id, columns: spot.columns, rows: spot.rows) : rows.joined()
                out += "\u{1B}[\(spot.y + 1);\(spot.x + 1)H" + wrap(sequence)
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

    private func key(_ spot: ImageSpot) -> ImageArt.Key { ImageArt.Key(link: spot.link, revision: spot.revision, columns: spot.columns, rows: spot.rows) }

    private func wrap(_ sequence: String) -> String { throughTmux ? TerminalImage.tmuxPassthrough(sequence) : sequence }
}
