import Foundation
import NostrProtocol

/// The web-URL rule (wire 2026 §5, for what we send and what we accept): http or https, and a host
/// that is `localhost`, an IP literal, or at least two dot-separated labels of letters, digits and
/// `-` (not at a label's start or end). The URL text is otherwise kept as given.
public enum WebURL {
    /// The trimmed input when it is a valid http(s) URL, else nil. Used for received roots and deep links.
    public static func normalized(_ input: String) -> String? {
        if plainASCIIVerdict(input) == true { return input }
        return normalizedByFoundation(input)
    }

    /// The rule in full, on Foundation's parser (the plain ASCII shape above is decided without it).
    static func normalizedByFoundation(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty, !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace }),
              let c = URLComponents(string: s), let scheme = c.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = c.host, isValidHost(host) else { return nil }
        return s
    }

    /// What the composer accepts: a pasted `linkstr://open` link is unwrapped to its URL; text without
    /// a scheme gets `https://` (`//host` gets `https:`); then the web-URL rule.
    public static func normalizedUserInput(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty else { return nil }
        if s.lowercased().hasPrefix("linkstr:") { return DeepLink.unwrapOpenLink(s) }
        return withScheme(s)
    }

    /// The web-URL rule of wire 2026 §5 (URLV): text without a scheme gets `https://` (`//host` gets
    /// `https:`), then `normalized`. Deep links' `url` takes it too (`linkstr://open?url=example.com/post`).
    public static func withScheme(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty else { return nil }
        if s.hasPrefix("//") { return normalized("https:" + s) }
        return normalized(hasScheme(s) ? s : "https://" + s)
    }

    /// `localhost`, an IP literal, or two or more labels of letters, digits and inner `-`.
    public static func isValidHost(_ raw: String) -> Bool {
        let host = raw.hasPrefix("[") && raw.hasSuffix("]") ? String(raw.dropFirst().dropLast()) : raw
        guard !host.isEmpty else { return false }
        if host.lowercased() == "localhost" { return true }
        if host.contains(":") {
            // IPv6: hex digits, colons, and an IPv4 tail.
            return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } && host.filter { $0 == ":" }.count >= 2
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            guard let first = label.first, let last = label.last, first != "-", last != "-" else { return false }
            return label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }

    /// `scheme:` at the start, unless what follows the colon is a port number (`localhost:8080`).
    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":") else { return false }
        let scheme = s[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return false }
        let rest = s[s.index(after: colon)...]
        if let next = rest.first, next.isASCII, next.isNumber { return false }
        return true
    }

    /// The lowercased host of a URL string, with leading/trailing dots removed.
    public static func host(of url: String) -> String? {
        guard let h = URLComponents(string: url)?.host?.lowercased() else { return nil }
        let trimmed = h.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return trimmed.isEmpty ? nil : trimmed
    }
}
