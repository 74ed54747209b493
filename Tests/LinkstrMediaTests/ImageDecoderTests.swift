import LinkstrDomain
import LinkstrMedia
import LinkstrTestSupport
import XCTest

/// Images made with the same Debian libraries' encoders (`ImageFixtures`): each format decodes to its
/// pixels; hostile ones cost a header read and show nothing.
final class ImageDecoderTests: XCTestCase {
    static func halves(width: Int, height: Int) -> [UInt8] { ImageFixtures.halves(width: width, height: height) }
    static func encode(_ rgba: [UInt8], width: Int, height: Int, as format: ImageFormat) -> [UInt8] {
        ImageFixtures.encode(rgba, width: width, height: height, as: format) ?? []
    }
    static let redGIF = ImageFixtures.redGIF

    func testEachFormatDecodesToItsPixels() throws {
        let rgba = Self.halves(width: 8, height: 4)
        for format in [ImageFormat.png, .webp] {
            let image = try ImageDecoder.decode(Self.encode(rgba, width: 8, height: 4, as: format))
            XCTAssertEqual(image, DecodedImage(width: 8, height: 4, rgba: rgba, format: format), "\(format) is lossless")
        }
        let jpeg = try ImageDecoder.decode(Self.encode(Self.halves(width: 32, height: 16), width: 32, height: 16, as: .jpeg))
        XCTAssertEqual([jpeg.width, jpeg.height], [32, 16])
        let left = Array(jpeg.rgba[(8 * 32 + 2) * 4..<(8 * 32 + 2) * 4 + 4]), right = Array(jpeg.rgba[(8 * 32 + 29) * 4..<(8 * 32 + 29) * 4 + 4])
        XCTAssertTrue(left[0] > 200 && left[2] < 60, "red on the left: \(left)")
        XCTAssertTrue(right[2] > 200 && right[0] < 60, "blue on the right: \(right)")
        XCTAssertEqual(try ImageDecoder.decode(Self.redGIF), DecodedImage(width: 1, height: 1, rgba: [255, 0, 0, 255], format: .gif))
    }

    func testTheFormatIsToldByItsBytesNotItsName() {
        XCTAssertEqual(ImageFormat.sniff(Self.redGIF), .gif)
        XCTAssertEqual(ImageFormat.sniff(Self.encode(Self.halves(width: 2, height: 2), width: 2, height: 2, as: .webp)), .webp)
        XCTAssertNil(ImageFormat.sniff(Array("<html><title>x</title>".utf8)))
        XCTAssertNil(ImageFormat.sniff([UInt8]()))
        XCTAssertNil(ImageFormat.sniff(Array("RIFF\0\0\0\0WAVE".utf8)), "a RIFF that is not WebP")
    }

    func testHostileImagesCostAHeaderReadAndShowNothing() {
        func refused(_ bytes: [UInt8], _ expected: ImageError, line: UInt = #line) {
            XCTAssertThrowsError(try ImageDecoder.decode(bytes), line: line) { XCTAssertEqual($0 as? ImageError, expected, line: line) }
        }
        // A decompression bomb: a valid PNG header that claims 60 000 × 60 000 (14 GB of pixels).
        refused(Self.pngHeader(width: 60_000, height: 60_000), .tooLarge(width: 60_000, height: 60_000))
        refused(Self.pngHeader(width: 20_000, height: 10), .tooLarge(width: 20_000, height: 10))
        // A GIF's logical screen of 65 535 × 65 535, and nothing after it.
        refused(Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0], .tooLarge(width: 65_535, height: 65_535))
        let png = Self.encode(Self.halves(width: 64, height: 64), width: 64, height: 64, as: .png)
        refused(Array(png.prefix(png.count / 2)), .damaged(.png))
        refused(Array(Self.encode(Self.halves(width: 64, height: 64), width: 64, height: 64, as: .webp).prefix(40)), .damaged(.webp))
        refused(Array("<!doctype html>".utf8), .unsupported)
        refused([UInt8](repeating: 0xFF, count: ImageLimits.maxBytes + 1), .tooManyBytes(ImageLimits.maxBytes + 1))
    }

    /// A PNG signature and an IHDR chunk (RGBA, 8 bits) claiming `width`×`height`, with its CRC.
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let body = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(Int(~crc))
    }
}
