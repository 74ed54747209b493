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

    /// One of the six ANSI hues (1–6, or the bright 9–14 for light colours when there are 16), by hue:
    /// pastel theme colours are nearer to grey than to any ANSI colour by distance, yet are meant as a
    /// hue. nil for greys (little saturation).
    public static func nearestByHue(_ c: RGB, bright: Bool) -> Int? {
        let r = Double(c.r) / 255, g = Double(c.g) / 255, b = Double(c.b) / 255
        let maxV = max(r, g, b), minV = min(r, g, b), delta = maxV - minV
        guard maxV > 0, delta / maxV >= 0.25 else { return nil }
        var hue: Double
        if maxV == r { hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6) }
        else if maxV == g { hue = 60 * ((b - r) / delta + 2) }
        else { hue = 60 * ((r - g) / delta + 4) }
        if hue < 0 { hue += 360 }
        // Terminal yellows and cyans are narrow hues; greens and blues wide (as people name theme colours).
        let ansi: Int
        switch hue {
        case 30..<75: ansi = 3     // yellow
        case 75..<165: ansi = 2    // green
        case 165..<200: ansi = 6   // cyan
        case 200..<270: ansi = 4   // blue
        case 270..<330: ansi = 5   // magenta
        default: ansi = 1          // red
        }
        return bright && maxV > 0.75 ? ansi + 8 : ansi
    }

    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}

/// How the theme is drawn on one terminal, decided from what terminfo says (pure, so every TERM can be
/// checked in tests). The palette is never redefined: terminals inside tmux or screen ignore it (or the
/// outer terminal does), giving wrong colours. Direct colour is used only where terminfo numbers colours
/// by RGB (COLORS of 2^24); else the nearest of the terminal's own 256, 16 or 8 colours. A foreground is
/// never the colour of its background: where the nearest colour would be (grey on black with 8 colours),
/// the terminal's default foreground is used, dimmed.
public struct ColorPlan: Equatable, Sendable {
    public struct Pair: Equatable, Sendable {
        public let foreground: Int32
        public let background: Int32
        /// Draw with A_DIM (the colour alone would not show the role).
        public let dim: Bool
    }

    public let depth: ColorDepth
    /// -1: the terminal's default.
    public let background: Int32
    public let pairs: [Role: Pair]

    public static func make(theme: Theme, colors: Int, noColor: Bool) -> ColorPlan {
        if noColor || colors < 8 {
            var pairs = [Role: Pair]()
            for role in Role.allCases { pairs[role] = Pair(foreground: -1, background: -1, dim: role == .dim || role == .tabInactive) }
            return ColorPlan(depth: .none, background: -1, pairs: pairs)
        }
        let depth: ColorDepth = colors >= 1 << 24 ? .trueColor : colors >= 256 ? .xterm256 : .ansi16
        // With 16 or 8 colours the terminal's own background (and text colour) read best: it may be light
        // or dark. Greys become the default colour dimmed: with 8 colours grey folds onto black.
        let background: Int32
        switch depth {
        case .trueColor: background = Self.rgb(theme.background)
        case .xterm256: background = Int32(ColorMapper.nearest256(theme.background))
        default: background = -1
        }
        var pairs = [Role: Pair]()
        for role in Role.allCases {
            guard let fg = theme.foreground[role] else { continue }
            let n: Int32?
            switch depth {
            case .trueColor: n = Self.rgb(fg)
            case .xterm256: n = Int32(ColorMapper.nearest256(fg))
            default:
                n = Self.quiet.contains(role) ? nil : ColorMapper.nearestByHue(fg, bright: colors >= 16).map(Int32.init)
            }
            if let n, n != background {
                pairs[role] = Pair(foreground: n, background: background, dim: false)
            } else {
                // The default foreground: plain for text, dimmed for the quiet roles and for greys.
                pairs[role] = Pair(foreground: -1, background: background, dim: role != .text)
            }
        }
        return ColorPlan(depth: depth, background: background, pairs: pairs)
    }

    /// Roles drawn as the default colour dimmed on 8 and 16 colours (hints, inactive tabs, borders).
    static let quiet: Set<Role> = [.text, .dim, .tabInactive, .border]

    static func rgb(_ c: RGB) -> Int32 { Int32(c.r) << 16 | Int32(c.g) << 8 | Int32(c.b) }
}
