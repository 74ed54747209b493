/// Chooses terminal colours for theme colours: true colour when the palette can be redefined,
/// otherwise the nearest of the xterm 256 or the 16 ANSI colours.
public enum ColorDepth: Equatable, Sendable {
    case none, ansi16, xterm256, trueColor
}

public enum ColorMapper {
    /// The xterm 256-colour cube and greys (indices 16–255).
    public static func nearest256(_ c: RGB) -> Int {
        let levels: [Int] = [0, 95, 135, 175, 215, 255]
        func index(_ v: UInt8) -> Int {
            var best = 0
            for (i, l) in levels.enumerated() where abs(Int(v) - l) < abs(Int(v) - levels[best]) { best = i }
            return best
        }
        let ri = index(c.r), gi = index(c.g), bi = index(c.b)
        let cube = 16 + 36 * ri + 6 * gi + bi
        let cubeColor = RGB(r: UInt8(levels[ri]), g: UInt8(levels[gi]), b: UInt8(levels[bi]))
        let grey = (Int(c.r) + Int(c.g) + Int(c.b)) / 3
        let gi2 = max(0, min(23, (grey - 8) / 10))
        let greyValue = UInt8(8 + gi2 * 10)
        let greyColor = RGB(r: greyValue, g: greyValue, b: greyValue)
        return distance(c, greyColor) < distance(c, cubeColor) ? 232 + gi2 : cube
    }

    static let ansi: [RGB] = [
        RGB(r: 0, g: 0, b: 0), RGB(r: 205, g: 0, b: 0), RGB(r: 0, g: 205, b: 0), RGB(r: 205, g: 205, b: 0),
        RGB(r: 0, g: 0, b: 238), RGB(r: 205, g: 0, b: 205), RGB(r: 0, g: 205, b: 205), RGB(r: 229, g: 229, b: 229),
        RGB(r: 127, g: 127, b: 127), RGB(r: 255, g: 0, b: 0), RGB(r: 0, g: 255, b: 0), RGB(r: 255, g: 255, b: 0),
        RGB(r: 92, g: 92, b: 255), RGB(r: 255, g: 0, b: 255), RGB(r: 0, g: 255, b: 255), RGB(r: 255, g: 255, b: 255),
    ]

    public static func nearest16(_ c: RGB) -> Int {
        var best = 0
        for (i, a) in ansi.enumerated() where distance(c, a) < distance(c, ansi[best]) { best = i }
        return best
    }

    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
