import CChafa
import Foundation
import LinkstrDomain

/// How a terminal takes pictures (the `images` setting, resolved): kitty's graphics protocol, sixel,
/// iTerm2's inline images, or Unicode symbols in colour (every terminal).
public enum ImageProtocol: String, Equatable, Sendable, CaseIterable {
    case kitty, sixel, iterm, symbols
}

/// An image drawn into a box of terminal cells, as the bytes to write with the cursor at the box's top-left
/// cell. Symbols come as one string a row (the caller moves the cursor to each row); the pixel protocols as
/// one string. Nothing here writes to the terminal.
public enum TerminalImage {
    /// A cell's size in pixels: from the terminal (`CSI 16 t`) when it says, else this.
    public static let fallbackCell = (width: 10, height: 20)

    /// The sequences drawing `image` into `columns`×`rows` cells. `id` names a kitty image (1…2^24-1).
    public static func render(_ image: DecodedImage, columns: Int, rows: Int, as proto: ImageProtocol, colors: SymbolArt.Colors,
                              cell: (width: Int, height: Int) = fallbackCell, id: UInt32 = 1) -> [String] {
        let columns = max(1, columns), rows = max(1, rows)
        switch proto {
        case .symbols:
            return symbolRows(SymbolArt.render(image, columns: columns, rows: rows, colors: colors), colors: colors)
        case .kitty:
            let box = ThumbnailImage.resized(image, width: columns * max(1, cell.width), height: rows * max(1, cell.height))
            return [kitty(box, columns: columns, rows: rows, id: id)]
        case .sixel, .iterm:
            return [chafaPixels(image, columns: columns, rows: rows, mode: proto == .sixel ? CHAFA_PIXEL_MODE_SIXELS : CHAFA_PIXEL_MODE_ITERM2, cell: cell)]
        }
    }

    // MARK: symbols

    /// Each row as SGR and symbols: a colour is sent only when it changes, and a space's foreground,
    /// which shows nothing, never (a box scrolled in a feed is written again on every key).
    static func symbolRows(_ art: SymbolArt, colors: SymbolArt.Colors) -> [String] {
        struct Colour: Equatable { var rgb: UInt32?; var index: Int? }
        return (0..<art.rows).map { y in
            var row = "\u{1B}[0m"
            var fg: Colour?, bg: Colour?  // nil: not sent on this row yet
            for x in 0..<art.columns {
                let cell = art.cell(x: x, y: y)
                var codes = ""
                let wantBG = Colour(rgb: cell.background, index: cell.backgroundIndex)
                if bg != wantBG {
                    codes += color(wantBG.rgb, wantBG.index, foreground: false, colors, reset: "49")
                    bg = wantBG
                }
                let wantFG = Colour(rgb: cell.foreground, index: cell.foregroundIndex)
                if cell.symbol != " ", fg != wantFG {
                    codes += color(wantFG.rgb, wantFG.index, foreground: true, colors, reset: "39")
                    fg = wantFG
                }
                if !codes.isEmpty { row += "\u{1B}[" + codes.dropFirst() + "m" }
                row.unicodeScalars.append(cell.symbol)
            }
            return row + "\u{1B}[0m"
        }
    }

    /// `;`-led SGR parameters for one colour (`reset` where the image is transparent).
    private static func color(_ rgb: UInt32?, _ index: Int?, foreground: Bool, _ colors: SymbolArt.Colors, reset: String) -> String {
        switch colors {
        case .truecolor:
            guard let rgb else { return ";" + reset }
            return ";\(foreground ? 38 : 48);2;\(rgb >> 16 & 0xFF);\(rgb >> 8 & 0xFF);\(rgb & 0xFF)"
        case .palette256:
            guard let index else { return ";" + reset }
            return ";\(foreground ? 38 : 48);5;\(index)"
        case .palette16:
            guard let index else { return ";" + reset }
            return index < 8 ? ";\((foreground ? 30 : 40) + index)" : ";\((foreground ? 90 : 100) + index - 8)"
        }
    }

    // MARK: kitty

    /// Kitty's graphics protocol: the box's pixels (RGBA) sent under `id`, quietly (`q=2`: no answers
    /// arrive as input); `kittyPlace` puts them on the screen, as often as the same picture shows.
    static func kitty(_ image: DecodedImage, columns: Int, rows: Int, id: UInt32) -> String {
        let payload = Data(image.rgba).base64EncodedString()
        var out = ""
        var start = payload.startIndex
        var first = true
        repeat {
            let end = payload.index(start, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control = first ? "a=t,f=32,s=\(image.width),v=\(image.height),i=\(id),q=2,m=\(more)" : "m=\(more),q=2"
            out += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < payload.endIndex
        return out
    }

    /// Places the image sent under `id` at the cursor over `columns`×`rows` cells, as placement
    /// `placement` (one per box: the same picture may show twice), the cursor left where it was (`C=1`).
    public static func kittyPlace(id: UInt32, placement: UInt32, columns: Int, rows: Int) -> String {
        "\u{1B}_Ga=p,i=\(id),p=\(placement),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }
    /// Takes one placement off the screen (the pixels stay in the terminal for `kittyPlace`).
    public static func kittyErase(id: UInt32, placement: UInt32) -> String { "\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\" }
    /// Takes every image off the screen and out of the terminal's memory (quit, suspend, logout).
    public static let kittyEraseAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"

    // MARK: sixel, iTerm2

    private static func chafaPixels(_ image: DecodedImage, columns: Int, rows: Int, mode: ChafaPixelMode, cell: (width: Int, height: Int)) -> String {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(max(1, cell.width)), Int32(max(1, cell.height)))
        chafa_canvas_config_set_pixel_mode(config, mode)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        let info = chafa_term_db_get_fallback_info(chafa_term_db_get_default())
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return "" }
        defer { _ = g_string_free(printed, 1) }
        return String(cString: printed.pointee.str)
    }

    // MARK: tmux

    /// A sequence for the terminal outside tmux: wrapped in tmux's passthrough (`allow-passthrough on`),
    /// each ESC inside doubled.
    public static func tmuxPassthrough(_ sequence: String) -> String {
        "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }
}
