import Foundation
import LinkstrDomain
import LinkstrMedia
import XCTest

/// An image as each terminal takes it, and a thumbnail made small once.
final class TerminalImageTests: XCTestCase {
    let image = DecodedImage(width: 40, height: 20, rgba: ImageDecoderTests.halves(width: 40, height: 20), format: .png)

    func testSymbolsAreOneRowOfColouredCellsPerRow() {
        for colors in [SymbolArt.Colors.truecolor, .palette256, .palette16] {
            let rows = TerminalImage.render(image, columns: 8, rows: 3, as: .symbols, colors: colors)
            XCTAssertEqual(rows.count, 3)
            for row in rows {
                XCTAssertTrue(row.hasPrefix("\u{1B}[0m\u{1B}["), "\(colors): \(row.debugDescription)")
                XCTAssertTrue(row.hasSuffix("\u{1B}[0m"))
                // What is left without the colour sequences is exactly eight cells.
                let bare = row.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
                XCTAssertEqual(bare.unicodeScalars.count, 8, "\(colors): \(bare.debugDescription)")
                XCTAssertFalse(bare.unicodeScalars.contains { $0.value < 0x20 })
            }
        }
        XCTAssertTrue(TerminalImage.render(image, columns: 8, rows: 3, as: .symbols, colors: .truecolor)[0].contains("38;2;"))
        XCTAssertTrue(TerminalImage.render(image, columns: 8, rows: 3, as: .symbols, colors: .palette256)[0].contains(";5;"))
    }

    func testKittySendsTheBoxesPixelsQuietlyInChunks() throws {
        let out = try XCTUnwrap(TerminalImage.render(image, columns: 30, rows: 6, as: .kitty, colors: .truecolor, cell: (10, 20), id: 77).first)
        XCTAssertTrue(out.hasPrefix("\u{1B}_Ga=t,f=32,s=300,v=120,i=77,q=2,m=1;"), String(out.prefix(80)))
        let chunks = out.components(separatedBy: "\u{1B}_G").dropFirst()
        XCTAssertEqual(chunks.count, Int((Double(300 * 120 * 4) / 3 * 4 / 4096).rounded(.up)))
        XCTAssertTrue(chunks.last!.hasPrefix("m=0,q=2;"))
        XCTAssertTrue(chunks.allSatisfy { $0.hasSuffix("\u{1B}\\") })
        let base64 = chunks.map { String($0.split(separator: ";", maxSplits: 1)[1].dropLast(2)) }.joined()
        XCTAssertEqual(Data(base64Encoded: base64)?.count, 300 * 120 * 4)
        XCTAssertEqual(TerminalImage.kittyPlace(id: 77, placement: 5, columns: 30, rows: 6), "\u{1B}_Ga=p,i=77,p=5,c=30,r=6,C=1,q=2\u{1B}\\")
        XCTAssertEqual(TerminalImage.kittyErase(id: 77, placement: 5), "\u{1B}_Ga=d,d=i,i=77,p=5,q=2\u{1B}\\")
    }

    func testSixelAndITermComeFromChafa() throws {
        let sixel = try XCTUnwrap(TerminalImage.render(image, columns: 8, rows: 2, as: .sixel, colors: .truecolor, cell: (10, 20)).first)
        XCTAssertTrue(sixel.hasPrefix("\u{1B}P"), sixel.prefix(20).debugDescription)
        XCTAssertTrue(sixel.contains("q"))
        XCTAssertTrue(sixel.hasSuffix("\u{1B}\\"))
        XCTAssertTrue(sixel.contains("#"), "colour registers")
        let iterm = try XCTUnwrap(TerminalImage.render(image, columns: 8, rows: 2, as: .iterm, colors: .truecolor, cell: (10, 20)).first)
        XCTAssertTrue(iterm.hasPrefix("\u{1B}]1337;File="), iterm.prefix(30).debugDescription)
    }

    func testTmuxPassthroughDoublesEveryEscape() {
        XCTAssertEqual(TerminalImage.tmuxPassthrough("\u{1B}_Ga=d\u{1B}\\"), "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d\u{1B}\u{1B}\\\u{1B}\\")
    }

    func testAThumbnailIsMadeSmallOnceAndStaysAnImage() throws {
        let big = DecodedImage(width: 2000, height: 1000, rgba: ImageDecoderTests.halves(width: 2000, height: 1000), format: .png)
        let thumb = ThumbnailImage.encode(big)
        XCTAssertEqual(thumb.format, .jpeg, "opaque: JPEG")
        XCTAssertEqual([thumb.width, thumb.height], [640, 320])
        XCTAssertLessThan(thumb.bytes.count, 60_000)
        let back = try ImageDecoder.decode(thumb.bytes)
        XCTAssertEqual([back.width, back.height], [640, 320])
        XCTAssertTrue(SymbolArtTests.shows(SymbolArt.render(back, columns: 4, rows: 2, colors: .truecolor).cell(x: 0, y: 0), red: true))

        var clear = ImageDecoderTests.halves(width: 20, height: 10)
        clear[3] = 0
        let transparent = ThumbnailImage.encode(DecodedImage(width: 20, height: 10, rgba: clear, format: .png))
        XCTAssertEqual(transparent.format, .png, "transparency kept: PNG")
        XCTAssertEqual(try ImageDecoder.decode(transparent.bytes).rgba[3], 0)
    }
}
