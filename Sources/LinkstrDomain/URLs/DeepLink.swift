import Foundation
import NostrProtocol

/// `linkstr://open?url=…`, `linkstr://share?url=…&note=…` and `linkstr://save?url=…` deep links, as the
/// iOS app reads them since 2026 (wire 2026 §5). The older base64 `?p=` form is no longer accepted.
public enum DeepLink {
    public enum Action: String, Equatable, Sendable, CaseIterable {
        /// Show the link (ready to open it or share it into a session).
        case open
        /// Share it into a session, with the note filled in.
        case share
        /// Keep it for later: here, shown like `open` (there is no saved-links list in the terminal).
        case save
    }

    /// What a deep link carries.
    public struct Link: Equatable, Sendable {
        public let action: Action
        public let url: String
        public let note: String?
        public init(action: Action = .open, url: String, note: String? = nil) { self.action = action; self.url = url; self.note = note }
    }

    /// A note longer than this is cut (characters).
    public static let noteLimit = 4_000

    /// `linkstr://open?url=<u>`: what a post's "copy linkstr link" gives, the URL and nothing else.
    public static func encode(url: String) -> String { encode(Link(url: url)) }

    public static func encode(_ link: Link) -> String {
        var items = [("url", link.url)]
        if link.action == .share, let note = link.note { items.append(("note", note)) }
        let query = items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .urlUnreservedStrict) ?? "")" }
        return "linkstr://\(link.action.rawValue)?" + query.joined(separator: "&")
    }

    /// The link's action, URL and note, or nil (nothing opens): scheme `linkstr`, host open, share or
    /// save (any case), no path, the first `url` passing the web-URL rule (a scheme-less one gets
    /// `https://`, as iOS does); a blank note is none.
    public static func parse(_ text: String) -> Link? {
        guard let c = URLComponents(string: text.trimmingWhitespace()), c.scheme?.lowercased() == "linkstr",
              let action = c.host.flatMap({ Action(rawValue: $0.lowercased()) }), c.path.isEmpty || c.path == "/",
              let raw = c.queryItems?.first(where: { $0.name == "url" })?.value, let url = WebURL.withScheme(raw) else { return nil }
        var note = c.queryItems?.first(where: { $0.name == "note" })?.value?.trimmingWhitespace()
        if note?.isEmpty == true { note = nil }
        if let n = note, n.count > noteLimit { note = String(n.prefix(noteLimit)) }
        return Link(action: action, url: url, note: action == .share ? note : nil)
    }

    /// The web URL a deep link carries (any of the three actions), or nil.
    public static func decode(_ text: String) -> String? { parse(text)?.url }

    /// Paste unwrapping: the URL of an input that is exactly a `linkstr://open` link. Nil for anything
    /// else, including the other actions, a link inside other text and a linkstr link nested in one.
    public static func unwrapOpenLink(_ input: String) -> String? {
        guard let link = parse(input), link.action == .open, !link.url.lowercased().contains("linkstr:") else { return nil }
        return link.url
    }
}
