/// What an image from the web may cost before it is shown: decided here once, for previews
/// and saved images alike. A page's image is hostile until decoded within these bounds.
public enum ImageLimits {
    /// Bytes read of one image (a larger one is not decoded).
    public static let maxBytes = 8 << 20
    /// Pixels one decoded image may hold: 4 bytes each in memory, so 16 Mpx is 64 MiB at most. Checked
    /// from the header before decoding, so a decompression bomb costs a header read.
    public static let maxPixels = 16_000_000
    /// The longest side, whatever the pixel count.
    public static let maxSide = 16_384
}

/// The image formats linkstr draws, told by their first bytes (never by a server's word).
public enum ImageFormat: String, Equatable, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        func starts(_ magic: [UInt8]) -> Bool { head.count >= magic.count && Array(head.prefix(magic.count)) == magic }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, starts(Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The size a PNG or GIF header claims, read from its fixed place (a decoder may refuse a size it
    /// finds absurd before saying it); nil for the others, or a header too short.
    public static func claimedSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch sniff(bytes) {
        case .png?:
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (be32(16), be32(20))
        case .gif?:
            guard bytes.count >= 10 else { return nil }
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        default:
            return nil
        }
    }
}
