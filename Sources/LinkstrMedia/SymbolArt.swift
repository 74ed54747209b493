import CChafa
import LinkstrDomain

/// An image as terminal cells: each a symbol (blocks, borders, space) with a foreground and a background
/// colour, chosen by libchafa to look like the pixels at `columns`×`rows` cells. What every terminal can
/// show (the `symbols` images mode, and the fallback of the others).
public struct SymbolArt: Equatable, Sendable {
    /// How many colours the terminal has: chafa picks each cell's pair among them.
    public enum Colors: Equatable, Sendable {
        case truecolor, palette256, palette16
    }

    public struct Cell: Equatable, Sendable {
        public let symbol: Unicode.Scalar
        /// 0xRRGGBB; nil where the image is transparent (the terminal's own background shows).
        public let foreground: UInt32?
        public let background: UInt32?
        /// The palette entries in the 256- and 16-colour modes (nil in truecolour).
        public let foregroundIndex: Int?
        public let backgroundIndex: Int?
    }

    public let columns: Int
    public let rows: Int
    /// Row after row.
    public let cells: [Cell]

    public func cell(x: Int, y: Int) -> Cell { cells[y * columns + x] }

    /// Draws `image` into `columns`×`rows` cells (at least one each; the image is stretched to fill
    /// them: callers fit the box to the image's aspect with `fit`).
    public static func render(_ image: DecodedImage, columns: Int, rows: Int, colors: Colors) -> SymbolArt {
        let columns = max(1, columns), rows = max(1, rows)
        let symbols = chafa_symbol_map_new()
        let config = chafa_canvas_config_new()
        defer {
            chafa_canvas_config_unref(config)
            chafa_symbol_map_unref(symbols)
        }
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue
                                                                         | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        let mode: ChafaCanvasMode = switch colors {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .palette256: CHAFA_CANVAS_MODE_INDEXED_240  // the cube and greys: the 16 basic colours are the user's theme
        case .palette16: CHAFA_CANVAS_MODE_INDEXED_16
        }
        chafa_canvas_config_set_canvas_mode(config, mode)
        chafa_canvas_config_set_symbol_map(config, symbols)
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                                         Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        var cells = [Cell]()
        cells.reserveCapacity(columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let scalar = Unicode.Scalar(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))) ?? " "
                var fg: Int32 = -1, bg: Int32 = -1, rawFG: Int32 = -1, rawBG: Int32 = -1
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                if colors != .truecolor { chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &rawFG, &rawBG) }
                cells.append(Cell(symbol: scalar, foreground: fg < 0 ? nil : UInt32(fg), background: bg < 0 ? nil : UInt32(bg),
                                  foregroundIndex: rawFG < 0 ? nil : Int(rawFG), backgroundIndex: rawBG < 0 ? nil : Int(rawBG)))
            }
        }
        return SymbolArt(columns: columns, rows: rows, cells: cells)
    }

    /// The largest box of at most `columns`×`rows` cells with the image's aspect, for cells `cellAspect`
    /// times as tall as wide (2 in most terminal fonts).
    public static func fit(width: Int, height: Int, columns: Int, rows: Int, cellAspect: Double = 2) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (max(1, columns), max(1, rows)) }
        let imageAspect = Double(width) / Double(height)  // wide / tall, in pixels
        var c = columns
        var r = Int((Double(c) / imageAspect / cellAspect).rounded())
        if r > rows {
            r = rows
            c = Int((Double(r) * imageAspect * cellAspect).rounded())
        }
        return (min(columns, max(1, c)), min(rows, max(1, r)))
    }
}
