import CImage
import LinkstrDomain

/// A thumbnail as it is kept: at most `maxSide` pixels on its longer side, re-encoded once (JPEG, or PNG
/// where it is transparent), so the cache holds tens of kilobytes a link however large the page's image,
/// and drawing it again costs a small decode.
public enum ThumbnailImage {
    public static let maxSide = 640

    /// `image` made small (never larger) and encoded.
    public static func encode(_ image: DecodedImage, maxSide: Int = maxSide) -> (bytes: [UInt8], format: ImageFormat, width: Int, height: Int) {
        let small = scaled(image, maxSide: maxSide)
        let transparent = stride(from: 3, to: small.rgba.count, by: 4).contains { small.rgba[$0] < 250 }
        var out = [UInt8]()
        small.rgba.withUnsafeBufferPointer { pixels in
            withUnsafeMutablePointer(to: &out) { context in
                let append: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void = { context, data, size in
                    guard let context, let data, size > 0 else { return }
                    context.assumingMemoryBound(to: [UInt8].self).pointee
                        += UnsafeRawBufferPointer(start: data, count: Int(size))
                }
                if transparent {
                    _ = stbi_write_png_to_func(append, context, Int32(small.width), Int32(small.height), 4, pixels.baseAddress, Int32(small.width * 4))
                } else {
                    _ = stbi_write_jpg_to_func(append, context, Int32(small.width), Int32(small.height), 4, pixels.baseAddress, 85)
                }
            }
        }
        return (out, transparent ? .png : .jpeg, small.width, small.height)
    }

    /// `image` scaled to fit `maxSide` (its shape kept), or itself when it already fits.
    public static func scaled(_ image: DecodedImage, maxSide: Int) -> DecodedImage {
        let longer = max(image.width, image.height)
        guard longer > maxSide, maxSide > 0 else { return image }
        return resized(image, width: max(1, image.width * maxSide / longer), height: max(1, image.height * maxSide / longer))
    }

    /// `image` scaled to exactly `width`×`height` pixels (callers keep its shape with `SymbolArt.fit`).
    public static func resized(_ image: DecodedImage, width w: Int, height h: Int) -> DecodedImage {
        guard w > 0, h > 0, w != image.width || h != image.height else { return image }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let ok = image.rgba.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stbir_resize_uint8(input.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                                   output.baseAddress, Int32(w), Int32(h), Int32(w * 4), 4)
            }
        }
        // Resizing valid pixels into a buffer of the right size fails only when memory runs out.
        guard ok != 0 else { return image }
        return DecodedImage(width: w, height: h, rgba: out, format: image.format)
    }
}
