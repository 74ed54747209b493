import CImage
import Foundation
import LinkstrDomain
import LinkstrMedia

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
            let bytes = encode(rgba, width, height, format)
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

    static func encode(_ rgba: [UInt8], _ width: Int, _ height: Int, _ format: ImageFormat) -> [UInt8] {
        final class Sink { var bytes = [UInt8]() }
        let sink = Sink()
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void = { context, data, size in
            Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue().bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
        }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        switch format {
        case .jpeg: _ = stbi_write_jpg_to_func(write, context, Int32(width), Int32(height), 4, rgba, 85)
        case .png: _ = stbi_write_png_to_func(write, context, Int32(width), Int32(height), 4, rgba, Int32(width * 4))
        case .webp:
            var output: UnsafeMutablePointer<UInt8>?
            let size = WebPEncodeRGBA(rgba, Int32(width), Int32(height), Int32(width * 4), 80, &output)
            defer { WebPFree(output) }
            return Array(UnsafeBufferPointer(start: output, count: size))
        case .gif: break
        }
        return sink.bytes
    }
}
