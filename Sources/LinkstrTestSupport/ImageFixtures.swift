import CImage
import LinkstrDomain

/// Images made with the same Debian libraries' encoders the app links (stb_image_write, libwebp), and a
/// GIF by hand: fixtures for the decoder's tests, the thumbnail server and the benchmark.
public enum ImageFixtures {
    /// `width`×`height`, the left half red and the right half blue, opaque.
    public static func halves(width: Int, height: Int) -> [UInt8] {
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        for _ in 0..<height {
            for x in 0..<width { rgba += x < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        }
        return rgba
    }

    /// `rgba` encoded as PNG, JPEG or WebP (lossless without a `quality`; JPEG's default 95); nil for GIF
    /// (no encoder: see `redGIF`).
    public static func encode(_ rgba: [UInt8], width: Int, height: Int, as format: ImageFormat, quality: Int? = nil) -> [UInt8]? {
        final class Sink { var bytes = [UInt8]() }
        let sink = Sink()
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void = { context, data, size in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            sink.bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
        }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        switch format {
        case .png: _ = stbi_write_png_to_func(write, context, Int32(width), Int32(height), 4, rgba, Int32(width * 4))
        case .jpeg: _ = stbi_write_jpg_to_func(write, context, Int32(width), Int32(height), 4, rgba, Int32(quality ?? 95))
        case .webp:
            var output: UnsafeMutablePointer<UInt8>?
            let size = quality.map { WebPEncodeRGBA(rgba, Int32(width), Int32(height), Int32(width * 4), Float($0), &output) }
                ?? WebPEncodeLosslessRGBA(rgba, Int32(width), Int32(height), Int32(width * 4), &output)
            defer { WebPFree(output) }
            return Array(UnsafeBufferPointer(start: output, count: size))
        case .gif: return nil
        }
        return sink.bytes
    }

    /// A 1×1 red GIF89a (global palette red, black), the classic smallest one.
    public static let redGIF: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44,
                                         0x01, 0x00, 0x3B]
}
