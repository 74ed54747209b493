import LinkstrApp

extension Canvas {
    /// Draws a shown secret a character at a time (ASCII cells), so it never becomes a String that
    /// outlives the frame.
    mutating func putSecret(_ secret: RevealedSecret, x: Int, y: Int, _ style: Style, limit: Int) {
        secret.forEachCharacter { i, ch in
            if i < limit { put(String(ch), x: x + i, y: y, style) }
        }
    }
}
