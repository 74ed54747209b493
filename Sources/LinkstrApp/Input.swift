/// A key as the app understands it, decoded from the terminal by the front end.
public enum Key: Equatable, Sendable {
    case char(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case ctrl(Character)
    case function(Int)
}

public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case click, wheelUp, wheelDown }
    public var kind: Kind
    public var column: Int
    public var row: Int
    public init(_ kind: Kind, column: Int, row: Int) { self.kind = kind; self.column = column; self.row = row }
}
