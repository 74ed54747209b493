import Foundation
import LinkstrDomain
import LinkstrMedia
import LinkstrTestSupport

/// Thumbnails (issue 29): decoding a page's image and drawing it as symbol cells, each timed on its own
/// (release, one core). The image is a 1280×720 photo-like gradient encoded here as JPEG, PNG and WebP.
enum MediaBench {
    static func run(runs: Int) throws {
        let (width, height) = (1280, 720)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                rgba[i] = UInt8(x * 255 / width); rgba[i + 1] = UInt8(y * 255 / height); rgba[i + 2] = UInt8((x ^ y) & 0xFF)
            }
        }
        print("media: \(width)×\(height) image, \(runs) runs each, 1 core")
        for format in [ImageFormat.jpeg, .png, .webp] {
            let bytes = ImageFixtures.encode(rgba, width: width, height: height, as: format, quality: format == .webp ? 80 : 85) ?? []
            let decode = try Timing.distribution(runs: runs) { _ in _ = try ImageDecoder.decode(bytes) }
            Timing.report("decode \(format.rawValue) (\(bytes.count / 1024) KiB)", String(format: "median %.2f ms, p99 %.2f ms", decode.median, decode.p99))
        }
        let image = DecodedImage(width: width, height: height, rgba: rgba, format: .png)
        for (columns, rows) in [(12, 3), (40, 11), (200, 56)] {
            for colors in [SymbolArt.Colors.truecolor, .palette256] {
                let draw = Timing.distribution(runs: runs) { _ in _ = SymbolArt.render(image, columns: columns, rows: rows, colors: colors) }
                Timing.report("symbols \(columns)×\(rows) cells, \(colors)", String(format: "median %.2f ms, p99 %.2f ms", draw.median, draw.p99))
            }
        }
    }
}
