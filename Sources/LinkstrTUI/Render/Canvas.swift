import LinkstrDomain

/// What a cell means, not its colour: the theme maps roles to colours for the terminal at hand.
public enum Role: UInt8, CaseIterable, Sendable {
    case text, dim, title, accent, selection, unread, success, warning, error, link, note, label
    case tabActive, tabInactive, statusBar, border, secret, qr
    case dotConnecting, dotConnected, dotReadOnly, dotFailed, dotDisabled
    case avatar0, avatar1, avatar2, avatar3, avatar4, avatar5, avatar6, avatar7

    public static func avatar(_ n: Int) -> Role { Role(rawValue: Role.avatar0.rawValue + UInt8(n & 7))! }
}

public struct Style: Equatable, Hashable, Sendable {
    public var role: Role
    public var bold = false
    public var reverse = false
    public var underline = false
    public init(_ role: Role = .text, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role; self.bold = bold; self.reverse = reverse; self.underline = underline
    }
    public static let text = Style()
}

public struct Cell: Equatable, Sendable {
    /// One grapheme; "" for the second column of a wide character.
    public var text: String
    public var style: Style
    public static let blank = Cell(text: " ", style: .text)
}

/// A run of cells on one row that shows a link.
public struct LinkSpan: Equatable, Sendable {
    public var url: String
    public var x: Int
    public var y: Int
    /// One past the last column.
    public var end: Int
}

/// A box of cells that shows a link's thumbnail (drawn over the blank cells by the backend, after curses).
public struct ImageSpot: Equatable, Hashable, Sendable {
    public var link: String
    /// The thumbnail's revision: a picture fetched again is drawn again.
    public var revision: Int64
    public var x: Int
    public var y: Int
    public var columns: Int
    public var rows: Int
}

/// An in-memory screen: views draw into it, the terminal backend copies what changed, and tests read it.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Cells that show a link, for terminals that take OSC 8 hyperlinks (drawn over the text by the backend).
    public private(set) var links: [LinkSpan] = []
    /// Boxes that show thumbnails, for the backend to draw in the terminal's way of showing pictures.
    public private(set) var images: [ImageSpot] = []

    /// One-character strings for the ASCII bytes, made once.
    private static let asciiCells: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` at (x, y), never past `limit` columns (default: the right edge); returns the next x.
    /// Callers pass sanitized text; control characters would still be dropped here.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, _ style: Style = .text, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(limit.map { x + $0 } ?? width, width)
        var cx = x
        // Simple scalars, most of every screen: a cell each, no grapheme breaking (see `DisplayWidth.isSimple`).
        if DisplayWidth.simpleWidth(text) != nil {
            for u in text.unicodeScalars {
                if cx + 1 > end { break }
                if cx >= 0 { self[cx, y] = Cell(text: u.value < 0x80 ? Canvas.asciiCells[Int(u.value)] : String(u), style: style) }
                cx += 1
            }
            return cx
        }
        for c in text {
            let w = DisplayWidth.of(c)
            if w == 0 {
                // Only a combining mark joins the cell before it; controls and stray format characters
                // (a lone ZWJ, bidi marks) are never drawn.
                if let u = c.unicodeScalars.first, DisplayWidth.isZeroWidthMark(u), cx > x, cx - 1 < end,
                   !self[cx - 1, y].text.isEmpty, self[cx - 1, y].text.unicodeScalars.count < 4 {
                    self[cx - 1, y].text.unicodeScalars.append(u)
                }
                continue
            }
            if cx + w > end { break }
            if cx >= 0 {
                self[cx, y] = Cell(text: DisplayWidth.drawable(c), style: style)
                if w == 2 { self[cx + 1, y] = Cell(text: "", style: style) }
            }
            cx += w
        }
        return cx
    }

    /// Marks columns `x..<end` of row `y` as showing `url` (OSC 8). Only a URL a terminal can carry
    /// safely is kept: printable ASCII, at most 2,000 bytes (anything else stays plain text).
    public mutating func link(_ url: String, x: Int, y: Int, to end: Int) {
        guard y >= 0, y < height, x >= 0, end > x, url.utf8.count <= 2000, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return }
        links.removeAll { $0.y == y && $0.x < min(end, width) && x < $0.end }
        links.append(LinkSpan(url: url, x: x, y: y, end: min(end, width)))
    }

    /// Marks `columns`×`rows` cells from (x, y) as showing `link`'s thumbnail; the cells stay blank in
    /// the canvas. A box that does not fit on the screen is not drawn.
    public mutating func image(_ thumbnail: Thumbnail, x: Int, y: Int, columns: Int, rows: Int) {
        guard x >= 0, y >= 0, columns > 0, rows > 0, x + columns <= width, y + rows <= height else { return }
        for row in y..<y + rows { fill(y: row, from: x, to: x + columns, .text) }
        images.append(ImageSpot(link: thumbnail.link, revision: thumbnail.revision, x: x, y: y, columns: columns, rows: rows))
    }

    /// A box drawn over what was there (an overlay): its text is never a link, and no picture shows through.
    public mutating func cover(x: Int, y: Int, width: Int, height: Int) {
        links.removeAll { $0.y >= y && $0.y < y + height && $0.x < x + width && x < $0.end }
        images.removeAll { $0.y < y + height && y < $0.y + $0.rows && $0.x < x + width && x < $0.x + $0.columns }
    }

    /// Paints a row segment's background style (spaces).
    public mutating func fill(y: Int, from x: Int = 0, to end: Int? = nil, _ style: Style) {
        guard y >= 0, y < height else { return }
        var cx = max(0, x)
        while cx < min(end ?? width, width) { self[cx, y] = Cell(text: " ", style: style); cx += 1 }
    }

    /// The text of a row (tests read these).
    public func row(_ y: Int) -> String { (0..<width).map { self[$0, y].text }.joined() }

    public var lines: [String] { (0..<height).map(row) }

    /// Every cell style on a row that shows `needle`, for assertions about colour roles.
    public func styles(ofText needle: String, onRow y: Int) -> [Style] {
        let text = row(y)
        guard let r = text.range(of: needle) else { return [] }
        let start = text.distance(from: text.startIndex, to: r.lowerBound)
        var col = 0, i = 0, out = [Style]()
        while col < width {
            let cell = self[col, y]
            if !cell.text.isEmpty { if i >= start && i < start + needle.count { out.append(cell.style) }; i += cell.text.count }
            col += 1
        }
        return out
    }
}
