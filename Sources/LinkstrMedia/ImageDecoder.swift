import CImage
import LinkstrDomain

/// An image as pixels: RGBA, 8 bits a channel, rows one after another (`width * 4` bytes each).
public struct DecodedImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]
    public let format: ImageFormat

    public init(width: Int, height: Int, rgba: [UInt8], format: ImageFormat) {
        self.width = width; self.height = height; self.rgba = rgba; self.format = format
    }
}

/// Why an image shows nothing.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not PNG, JPEG, GIF or WebP by its first bytes.
    case unsupported
    /// More bytes, pixels or side than `ImageLimits` allow (told before decoding).
    case tooLarge(width: Int, height: Int)
    case tooManyBytes(Int)
    /// Truncated or broken: the decoder gave up.
    case damaged(ImageFormat)

    public var description: String {
        switch self {
        case .unsupported: return "not an image linkstr draws (PNG, JPEG, GIF, WebP)"
        case .tooLarge(let w, let h): return "the image is too large to draw (\(w)×\(h))"
        case .tooManyBytes(let n): return "the image is too large to draw (\(n) bytes)"
        case .damaged(let f): return "the \(f.rawValue.uppercased()) image is damaged"
        }
    }
}

/// Decodes PNG, JPEG, GIF (its first frame) and WebP with Debian's libstb and libwebp, within
/// `ImageLimits`: the format by its magic bytes, the size from the header before any pixel is decoded.
public enum ImageDecoder {
    public static func decode(_ bytes: [UInt8]) throws(ImageError) -> DecodedImage {
        guard bytes.count <= ImageLimits.maxBytes else { throw .tooManyBytes(bytes.count) }
        guard let format = ImageFormat.sniff(bytes) else { throw .unsupported }
        if let claimed = ImageFormat.claimedSize(bytes) { try withinLimits(claimed.width, claimed.height) }
        let (width, height) = try dimensions(bytes, format)
        guard width > 0, height > 0 else { throw .damaged(format) }
        try withinLimits(width, height)
        switch format {
        case .webp: return try decodeWebP(bytes, width, height)
        case .png, .jpeg, .gif: return try decodeSTB(bytes, format, width, height)
        }
    }

    static func withinLimits(_ width: Int, _ height: Int) throws(ImageError) {
        guard width <= ImageLimits.maxSide, height <= ImageLimits.maxSide, width * height <= ImageLimits.maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }

    /// The size the header claims (nothing decoded yet).
    static func dimensions(_ bytes: [UInt8], _ format: ImageFormat) throws(ImageError) -> (Int, Int) {
        var w: Int32 = 0, h: Int32 = 0, channels: Int32 = 0
        let ok: Bool = bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .webp: return WebPGetInfo(buffer.baseAddress, buffer.count, &w, &h) != 0
            case .png, .jpeg, .gif: return stbi_info_from_memory(buffer.baseAddress, Int32(buffer.count), &w, &h, &channels) != 0
            }
        }
        guard ok else { throw .damaged(format) }
        return (Int(w), Int(h))
    }

    private static func decodeSTB(_ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) throws(ImageError) -> DecodedImage {
        var w: Int32 = 0, h: Int32 = 0, channels: Int32 = 0
        let pixels = bytes.withUnsafeBufferPointer { buffer in
            stbi_load_from_memory(buffer.baseAddress, Int32(buffer.count), &w, &h, &channels, 4)
        }
        guard let pixels else { throw .damaged(format) }
        defer { stbi_image_free(pixels) }
        // The decoder answers what it decoded; it must be what the header said (a frame may differ).
        guard Int(w) == width, Int(h) == height else { throw .damaged(format) }
        return DecodedImage(width: width, height: height, rgba: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)), format: format)
    }

    private static func decodeWebP(_ bytes: [UInt8], _ width: Int, _ height: Int) throws(ImageError) -> DecodedImage {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let decoded = bytes.withUnsafeBufferPointer { input in
            rgba.withUnsafeMutableBufferPointer { output in
                WebPDecodeRGBAInto(input.baseAddress, input.count, output.baseAddress, output.count, Int32(width * 4))
            }
        }
        guard decoded != nil else { throw .damaged(.webp) }
        return DecodedImage(width: width, height: height, rgba: rgba, format: .webp)
    }
}
