import LinkstrDomain

/// An editable single-line text with a cursor.
///
/// Every edit costs time in the size of the change, not of the text: the cursor is a UTF-8 offset
/// (always on a character boundary) and moves by characters from where it is, so a field holding a
/// megabyte of paste stays responsive. Equality compares bytes (not Unicode canonical equivalence),
/// which is what "did the field change" means for rendering.
public struct TextField: Equatable, Sendable {
    /// The most a field holds (a paste beyond it is cut, and the caller says so).
    public static let maxBytes = 1 << 20

    public private(set) var text: String
    /// UTF-8 offset of the cursor in `text`.
    public var cursor: Int

    public init(_ text: String = "") {
        var t = text
        if t.utf8.count > Self.maxBytes { t = Self.prefix(t, bytes: Self.maxBytes) }
        self.text = t
        cursor = t.utf8.count
    }

    public static func == (a: TextField, b: TextField) -> Bool {
        a.cursor == b.cursor && a.text.utf8.count == b.text.utf8.count && a.text.utf8.elementsEqual(b.text.utf8)
    }

    /// Characters before the cursor end here.
    public var cursorIndex: String.Index { text.utf8.index(text.utf8.startIndex, offsetBy: min(max(0, cursor), text.utf8.count)) }
    public var isEmpty: Bool { text.isEmpty }

    /// Inserts `s` at the cursor. False when it did not fit whole (it was cut at `maxBytes`).
    @discardableResult
    public mutating func insert(_ s: String) -> Bool {
        let room = Self.maxBytes - text.utf8.count
        let piece = s.utf8.count <= room ? s : Self.prefix(s, bytes: max(0, room))
        text.insert(contentsOf: piece, at: cursorIndex)
        cursor += piece.utf8.count
        return piece.utf8.count == s.utf8.count
    }

    public mutating func backspace() {
        guard cursor > 0 else { return }
        let end = cursorIndex
        let start = text.index(before: end)
        text.removeSubrange(start..<end)
        cursor = text.utf8.distance(from: text.utf8.startIndex, to: start)
    }

    public mutating func delete() {
        let start = cursorIndex
        guard start < text.endIndex else { return }
        text.removeSubrange(start..<text.index(after: start))
    }

    public mutating func move(_ by: Int) {
        var i = cursorIndex
        if by < 0 {
            for _ in 0..<(-by) where i > text.startIndex { i = text.index(before: i) }
        } else {
            for _ in 0..<by where i < text.endIndex { i = text.index(after: i) }
        }
        cursor = text.utf8.distance(from: text.utf8.startIndex, to: i)
    }

    public mutating func home() { cursor = 0 }
    public mutating func end() { cursor = text.utf8.count }
    public mutating func clear() { text = ""; cursor = 0 }

    /// Deletes the word before the cursor (Ctrl-W).
    public mutating func deleteWord() {
        while cursor > 0, text[text.index(before: cursorIndex)] == " " { backspace() }
        while cursor > 0, text[text.index(before: cursorIndex)] != " " { backspace() }
    }

    /// The longest prefix of whole scalars within `bytes` bytes (found from the cut, not by scanning).
    static func prefix(_ s: String, bytes: Int) -> String {
        guard s.utf8.count > bytes else { return s }
        var end = s.utf8.index(s.utf8.startIndex, offsetBy: bytes)
        while end > s.utf8.startIndex, UTF8.isContinuation(s.utf8[end]) { end = s.utf8.index(before: end) }
        return String(s.unicodeScalars[..<end])
    }
}
