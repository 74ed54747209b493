import Foundation
import NostrProtocol

/// The web-URL rule (wire document §9): http or https with a non-empty host.
public enum WebURL {
    /// The trimmed input when it is a valid http(s) URL, else nil. Used for received roots and deep links.
    public static func normalized(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty, !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace }),
              let c = URLComponents(string: s), let scheme = c.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = c.host, !host.isEmpty else { return nil }
        return s
    }

    /// What the composer accepts: like `normalized`, but text without a scheme gets `https://`.
    public static func normalizedUserInput(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty else { return nil }
        return normalized(hasScheme(s) ? s : "https://" + s)
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
