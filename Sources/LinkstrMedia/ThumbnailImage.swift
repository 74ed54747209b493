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

    /// `image` scaled to exactly `width`×`height` pixels (callers keep its shape with `SymbolArt.fit`): each
    /// pixel the mean of the source pixels it covers (a box filter; the nearest one when growing). Written
    /// here because Debian's stb_image_resize took 31–54 ms for 1280×720 → 640×360 on this machine, this
    /// a few (`linkstr-bench media`).
    public static func resized(_ image: DecodedImage, width w: Int, height h: Int) -> DecodedImage {
        guard w > 0, h > 0, w != image.width || h != image.height else { return image }
        let sw = image.width, sh = image.height
        var out = [UInt8](repeating: 0, count: w * h * 4)
        image.rgba.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<h {
                    let y0 = oy * sh / h, y1 = max(y0 + 1, (oy + 1) * sh / h)
                    for ox in 0..<w {
                        let x0 = ox * sw / w, x1 = max(x0 + 1, (ox + 1) * sw / w)
                        var r = 0, g = 0, b = 0, a = 0
                        for y in y0..<y1 {
                            var i = (y * sw + x0) * 4
                            for _ in x0..<x1 {
                                r += Int(src[i]); g += Int(src[i + 1]); b += Int(src[i + 2]); a += Int(src[i + 3])
                                i += 4
                            }
                        }
                        let n = (y1 - y0) * (x1 - x0), o = (oy * w + ox) * 4
                        dst[o] = UInt8(r / n); dst[o + 1] = UInt8(g / n); dst[o + 2] = UInt8(b / n); dst[o + 3] = UInt8(a / n)
                    }
                }
            }
        }
        return DecodedImage(width: w, height: h, rgba: out, format: image.format)
    }
}
