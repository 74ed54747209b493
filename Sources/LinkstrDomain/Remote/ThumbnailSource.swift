/// Where a post's thumbnail comes from: a YouTube video's own image by its id, with no page
/// fetched; else the image the page names (`LinkPreview.imageURL`).
public enum ThumbnailSource {
    /// YouTube's thumbnail of the video `url` plays, or nil when it is not a YouTube video with an id.
    public static func youTube(for url: String) -> String? {
        let c = URLClassifier.classify(url)
        guard c.type == .youtube, let embed = c.embedURL, let range = embed.range(of: "/embed/") else { return nil }
        let id = embed[range.upperBound...].prefix { $0 != "?" && $0 != "/" }
        // Video ids are 11 characters of base64url; anything else is not one (a channel, a playlist).
        guard id.count == 11, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        return "https://i.ytimg.com/vi/\(id)/hqdefault.jpg"
    }

    /// The thumbnail for a post's link: YouTube's for a video, else the page's own image.
    public static func url(for link: String, page: LinkPreview?) -> String? {
        youTube(for: link) ?? page?.imageURL
    }
}
