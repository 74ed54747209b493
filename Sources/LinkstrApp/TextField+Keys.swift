/// The line editing every text field shares (the readline keys).
extension TextField {
    public mutating func edit(_ key: Key) {
        switch key {
        case .char(let c): insert(String(c))
        case .backspace: backspace()
        case .delete, .ctrl("d"): delete()
        case .left, .ctrl("b"): move(-1)
        case .right, .ctrl("f"): move(1)
        case .home, .ctrl("a"): home()
        case .end, .ctrl("e"): end()
        case .ctrl("w"): deleteWord()
        case .ctrl("u"): clear()
        default: break
        }
    }
}
