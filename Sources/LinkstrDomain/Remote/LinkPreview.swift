import Foundation

/// What a shared page says about itself: its title (Open Graph, Twitter card, or `<title>`), the site,
/// and the image it names for itself (`og:image`, `twitter:image`), an absolute http(s) URL.
public struct LinkPreview: Equatable, Sendable {
    public var title: String
    public var siteName: String?
    public var imageURL: String?
    public init(title: String, siteName: String? = nil, imageURL: String? = nil) {
        self.title = title; self.siteName = siteName; self.imageURL = imageURL
    }

    /// Longest image URL kept; a longer one is not used.
    public static let maxImageURLLength = 2_048

    /// Longest title or site name kept (in characters), after cleaning.
    public static let maxLength = 200
}

/// Reads a preview out of the first bytes of an HTML page. Pages are hostile: nothing here trusts the
/// markup to be well formed, every value is entity-decoded, stripped of control and escape characters and
/// capped, and a page with no usable title gives nil.
public enum LinkPreviewParser {
    /// `pageURL`: where the page came from (after redirects), against which a relative image URL resolves.
    public static func parse(_ bytes: [UInt8], pageURL: String? = nil) -> LinkPreview? {
        let html = decode(bytes)
        var meta = [String: String]()
        var titleTag: String?
        var index = html.startIndex
        while let open = html[index...].firstIndex(of: "<") {
            guard let close = html[open...].firstIndex(of: ">") else { break }
            let tag = html[html.index(after: open)..<close]
            let name = tag.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" }.lowercased()
            index = html.index(after: close)
            if name == "meta" {
                let attributes = Self.attributes(of: tag.dropFirst(4))
                if let key = (attributes["property"] ?? attributes["name"])?.lowercased(), let content = attributes["content"], meta[key] == nil {
                    meta[key] = content
                }
            } else if name == "title", titleTag == nil {
                let end = html[index...].range(of: "</title", options: .caseInsensitive)?.lowerBound ?? html.endIndex
                titleTag = String(html[index..<end])
                index = end
            } else if name == "script" || name == "style" {
                // Their bodies may contain "<" and ">" that are not tags.
                index = html[index...].range(of: "</\(name)", options: .caseInsensitive)?.lowerBound ?? html.endIndex
            } else if name == "/head" || name == "body" {
                break
            }
        }
        let candidates = [meta["og:title"], meta["twitter:title"], titleTag]
        guard let title = candidates.lazy.compactMap({ $0.flatMap(clean) }).first else { return nil }
        let images = ["og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src"]
        let image = images.lazy.compactMap { meta[$0].flatMap { imageURL($0, pageURL: pageURL) } }.first
        return LinkPreview(title: title, siteName: meta["og:site_name"].flatMap(clean), imageURL: image)
    }

    /// An image URL as a page wrote it, made absolute against the page and held to the web-URL rule
    /// (http or https, a real host); nil when it is not one.
    static func imageURL(_ raw: String, pageURL: String?) -> String? {
        let written = decodeEntities(raw).trimmingWhitespace()
        guard !written.isEmpty, written.utf8.count <= LinkPreview.maxImageURLLength,
              // Control characters are refused as written, before URL parsing would percent-encode them.
              !written.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace })
        else { return nil }
        let base = pageURL.flatMap { URL(string: $0) }
        guard let absolute = URL(string: written, relativeTo: base)?.absoluteString,
              let scheme = URL(string: absolute)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return WebURL.normalized(absolute).flatMap { $0.utf8.count <= LinkPreview.maxImageURLLength ? $0 : nil }
    }

    /// UTF-8, else Latin-1 (every byte a character), so a page in a legacy encoding still gives something.
    static func decode(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // A page cut at the size limit may end inside a UTF-8 sequence: try without its last bytes first.
        for cut in 1...3 where bytes.count > cut {
            if let text = String(validating: bytes.dropLast(cut), as: UTF8.self) { return text }
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    static func clean(_ raw: String) -> String? {
        let text = DisplayText.singleLine(decodeEntities(raw))
        return text.isEmpty ? nil : String(text.prefix(LinkPreview.maxLength))
    }

    /// `name="value"`, `name='value'` and `name=value` pairs; names lowercased, first occurrence wins.
    static func attributes(of tag: Substring) -> [String: String] {
        var result = [String: String]()
        var rest = tag[...]
        while let start = rest.firstIndex(where: { $0.isLetter }) {
            rest = rest[start...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == "_" }
            rest = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            let value: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: quote) ?? body.endIndex
                value = body[..<end]
                rest = end < body.endIndex ? body[body.index(after: end)...] : body[end...]
            } else {
                value = rest.prefix { !$0.isWhitespace && $0 != "/" }
                rest = rest.dropFirst(value.count)
            }
            let key = name.lowercased()
            if result[key] == nil { result[key] = String(value) }
        }
        return result
    }

    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
                                                   "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘",
                                                   "rdquo": "”", "ldquo": "“", "middot": "·", "copy": "©", "reg": "®",
                                                   "trade": "™", "euro": "€", "laquo": "«", "raquo": "»", "deg": "°",
                                                   "times": "×", "szlig": "ß", "aacute": "á", "agrave": "à", "acirc": "â",
                                                   "auml": "ä", "ccedil": "ç", "eacute": "é", "egrave": "è", "ecirc": "ê",
                                                   "euml": "ë", "iacute": "í", "icirc": "î", "iuml": "ï", "ntilde": "ñ",
                                                   "oacute": "ó", "ocirc": "ô", "ouml": "ö", "uacute": "ú", "ugrave": "ù",
                                                   "ucirc": "û", "uuml": "ü", "Eacute": "É", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü"]

    /// Named entities in common use and every numeric one (`&#233;`, `&#xE9;`); unknown ones stay as written.
    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let entity = after[..<semi]
            var decoded: String?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[String(entity)]
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
