import Foundation

/// The provider a link belongs to (wire document §12).
public enum LinkType: String, Sendable, CaseIterable {
    case tiktok, instagram, facebook, youtube, rumble, twitter, generic
}

/// How a link can be played.
public enum PlaybackStrategy: Equatable, Sendable {
    /// Download and play locally (mpv + yt-dlp here), with the embed as fallback.
    case extractionPreferred(embedURL: String)
    /// Only the provider's web player.
    case embedOnly(embedURL: String)
    /// Open in the browser.
    case link
}

public struct URLClassification: Equatable, Sendable {
    public let type: LinkType
    public let strategy: PlaybackStrategy

    /// `Video` only for extraction candidates, `Link` for everything else (as iOS labels cards).
    /// A playable link (extracted or embedded: YouTube plays through yt-dlp here too) is a video.
    public var label: String { isPlayable ? "Video" : "Link" }

    public var isPlayable: Bool { strategy != .link }

    public var embedURL: String? {
        switch strategy {
        case .extractionPreferred(let e), .embedOnly(let e): return e
        case .link: return nil
        }
    }
}

public enum URLClassifier {
    private static let providers: [(LinkType, [String])] = [
        (.tiktok, ["tiktok.com"]),
        (.instagram, ["instagram.com", "instagr.am"]),
        (.facebook, ["facebook.com", "fb.com", "fb.watch"]),
        (.youtube, ["youtube.com", "youtu.be"]),
        (.rumble, ["rumble.com", "rumble.video"]),
        (.twitter, ["x.com", "twitter.com", "fixupx.com", "fxtwitter.com", "vxtwitter.com"]),
    ]

    /// A host matches a domain when equal or a subdomain of it; `notfacebook.com` and `instagram.com.evil.com` do not.
    public static func host(_ host: String, matches domain: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }

    public static func linkType(of url: String) -> LinkType {
        guard let host = WebURL.host(of: url) else { return .generic }
        for (type, domains) in providers where domains.contains(where: { self.host(host, matches: $0) }) { return type }
        return .generic
    }

    public static func classify(_ url: String) -> URLClassification {
        let type = linkType(of: url)
        guard let c = URLComponents(string: url), let host = WebURL.host(of: url) else {
            return URLClassification(type: type, strategy: .link)
        }
        let rawParts = c.path.split(separator: "/").map(String.init)
        let parts = rawParts.map { $0.lowercased() }
        let query = c.queryItems ?? []
        func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
        let strategy: PlaybackStrategy
        switch type {
        case .tiktok: strategy = tiktok(url, host, parts, rawParts, query)
        case .instagram: strategy = instagram(parts, rawParts)
        case .facebook: strategy = facebook(url, c, host, parts, query)
        case .twitter:
            if let i = parts.firstIndex(of: "status"), i + 1 < parts.count, !parts[i + 1].isEmpty, parts[i + 1].allSatisfy(\.isASCIIDigit) {
                strategy = .extractionPreferred(embedURL: "https://x.com/i/status/\(parts[i + 1])")
            } else {
                strategy = .link
            }
        case .youtube:
            var id: String?
            if Self.host(host, matches: "youtu.be") {
                id = rawParts.first
            } else if let i = parts.firstIndex(where: { $0 == "shorts" || $0 == "embed" }), i + 1 < rawParts.count {
                id = rawParts[i + 1]
            } else {
                id = queryValue("v")
            }
            if let id, !id.isEmpty, let e = percentEncoded(id) {
                strategy = .embedOnly(embedURL: "https://www.youtube.com/embed/\(e)?playsinline=1&rel=0")
            } else {
                strategy = .embedOnly(embedURL: url)
            }
        case .rumble:
            if parts.first == "embed" {
                strategy = .embedOnly(embedURL: url)
            } else if var first = rawParts.first {
                if first.lowercased().hasSuffix(".html") { first = String(first.dropLast(5)) }
                let id = first.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? first
                strategy = .embedOnly(embedURL: id.isEmpty ? url : "https://rumble.com/embed/\(percentEncoded(id) ?? id)/")
            } else {
                strategy = .embedOnly(embedURL: url)
            }
        case .generic:
            strategy = .link
        }
        return URLClassification(type: type, strategy: strategy)
    }

    private static func tiktok(_ url: String, _ host: String, _ parts: [String], _ rawParts: [String], _ query: [URLQueryItem]) -> PlaybackStrategy {
        let isVideo = host == "vm.tiktok.com" || host == "vt.tiktok.com" || parts.contains("video")
            || query.contains { ["aweme_id", "video_id", "item_id"].contains($0.name) }
        guard isVideo else { return .link }
        if let i = parts.firstIndex(of: "video"), i + 1 < rawParts.count {
            let digits = rawParts[i + 1].filter(\.isASCIIDigit)
            if digits.count >= 8 { return .extractionPreferred(embedURL: "https://www.tiktok.com/embed/v2/\(digits)") }
        }
        return .extractionPreferred(embedURL: url)
    }

    private static func instagram(_ parts: [String], _ rawParts: [String]) -> PlaybackStrategy {
        for (i, part) in parts.enumerated() where ["reel", "reels", "p", "tv"].contains(part) {
            guard i + 1 < rawParts.count else { continue }
            let token = rawParts[i + 1].trimmingCharacters(in: CharacterSet(charactersIn: "/?&=#"))
            guard token.count >= 5, let code = percentEncoded(token) else { continue }
            let marker = part == "reels" ? "reel" : part
            let embed = "https://www.instagram.com/\(marker)/\(code)/embed"
            return (part == "reel" || part == "reels") ? .extractionPreferred(embedURL: embed) : .embedOnly(embedURL: embed)
        }
        return .link
    }

    private static func facebook(_ url: String, _ c: URLComponents, _ host: String, _ parts: [String], _ query: [URLQueryItem]) -> PlaybackStrategy {
        func sequence(_ a: String, _ b: String) -> Bool {
            zip(parts, parts.dropFirst()).contains { $0 == a && $1 == b }
        }
        var isReel = sequence("share", "r")
        for (i, part) in parts.enumerated() where ["reel", "reels", "r"].contains(part) && i + 1 < parts.count {
            if parts[i + 1].trimmingCharacters(in: CharacterSet(charactersIn: "/?&=#")).count >= 4 { isReel = true }
        }
        let isVideo = Self.host(host, matches: "fb.watch") || parts.contains("videos") || sequence("share", "v") || sequence("watch", "v")
            || query.contains { ["v", "video_id", "story_fbid"].contains($0.name) }
        guard isReel || isVideo else { return .link }
        let embed: String
        if c.path.lowercased().hasPrefix("/plugins/video.php") {
            embed = url
        } else {
            var canonical = c
            if !Self.host(host, matches: "fb.watch") {
                canonical.scheme = "https"
                canonical.host = "www.facebook.com"
                canonical.port = nil
            }
            let href = canonical.string ?? url
            let (w, h) = isReel ? (540, 960) : (560, 315)
            var plugin = URLComponents(string: "https://www.facebook.com/plugins/video.php")!
            plugin.queryItems = [URLQueryItem(name: "href", value: href), URLQueryItem(name: "show_text", value: "false"),
                                 URLQueryItem(name: "width", value: String(w)), URLQueryItem(name: "height", value: String(h)),
                                 URLQueryItem(name: "autoplay", value: "false")]
            // URLComponents leaves ':' '/' '?' '&' '=' in query values; a value that is itself a URL needs them encoded.
            plugin.percentEncodedQueryItems = plugin.queryItems!.map {
                URLQueryItem(name: $0.name, value: $0.value?.addingPercentEncoding(withAllowedCharacters: .urlUnreservedStrict))
            }
            embed = plugin.string ?? url
        }
        return isReel ? .extractionPreferred(embedURL: embed) : .embedOnly(embedURL: embed)
    }

    private static func percentEncoded(_ s: String) -> String? {
        s.addingPercentEncoding(withAllowedCharacters: .urlUnreservedStrict)
    }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters.
    static let urlUnreservedStrict = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
