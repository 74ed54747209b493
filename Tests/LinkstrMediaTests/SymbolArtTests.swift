import LinkstrDomain
import LinkstrMedia
import XCTest

/// libchafa draws the pixels as cells: the left half red, the right half blue, in each colour mode.
final class SymbolArtTests: XCTestCase {
    func testTheHalvesKeepTheirColoursInEveryMode() {
        let image = DecodedImage(width: 40, height: 20, rgba: ImageDecoderTests.halves(width: 40, height: 20), format: .png)
        for colors in [SymbolArt.Colors.truecolor, .palette256, .palette16] {
            let art = SymbolArt.render(image, columns: 8, rows: 4, colors: colors)
            XCTAssertEqual([art.columns, art.rows, art.cells.count], [8, 4, 32])
            for y in 0..<4 {
                XCTAssertTrue(Self.shows(art.cell(x: 0, y: y), red: true), "\(colors) left: \(art.cell(x: 0, y: y))")
                XCTAssertTrue(Self.shows(art.cell(x: 7, y: y), red: false), "\(colors) right: \(art.cell(x: 7, y: y))")
            }
            // In the palette modes each cell names its palette entries (a space has no foreground to name).
            if colors != .truecolor {
                XCTAssertTrue(art.cells.allSatisfy { $0.backgroundIndex != nil && ($0.symbol == " " || $0.foregroundIndex != nil) }, "\(art.cells)")
            }
        }
    }

    /// The colour a cell shows most: its background when the symbol is a space, else either of its pair.
    static func shows(_ cell: SymbolArt.Cell, red: Bool) -> Bool {
        let colours = [cell.foreground, cell.background].compactMap { $0 }
        func isRed(_ c: UInt32) -> Bool { c >> 16 & 0xFF > 150 && c & 0xFF < 100 }
        func isBlue(_ c: UInt32) -> Bool { c & 0xFF > 150 && c >> 16 & 0xFF < 100 }
        return colours.contains { red ? isRed($0) : isBlue($0) }
    }

    func testABoxKeepsTheImagesShape() {
        XCTAssertTrue(SymbolArt.fit(width: 1920, height: 1080, columns: 40, rows: 20) == (40, 11))
        let tall = SymbolArt.fit(width: 1080, height: 1920, columns: 40, rows: 20)
        XCTAssertEqual(tall.rows, 20)
        XCTAssertTrue((22...23).contains(tall.columns), "\(tall)")
        XCTAssertTrue(SymbolArt.fit(width: 0, height: 10, columns: 4, rows: 3) == (4, 3))
    }
}
