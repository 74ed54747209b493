import Foundation
import NostrProtocol

/// `linkstr://open?url=…` deep links (readme v2) and the older `?p=<token>` form (wire document §10).
public enum DeepLink {
    public static func encode(url: String) -> String {
        var c = URLComponents()
        c.scheme = "linkstr"
        c.host = "open"
        c.percentEncodedQueryItems = [URLQueryItem(name: "url", value: url.addingPercentEncoding(withAllowedCharacters: .urlUnreservedStrict))]
        return c.string!
    }

    /// The normalized web URL a deep link carries, or nil (nothing opens).
    public static func decode(_ link: String) -> String? {
        guard let c = URLComponents(string: link.trimmingWhitespace()),
              c.scheme?.lowercased() == "linkstr", c.host?.lowercased() == "open",
              c.path.isEmpty || c.path == "/" else { return nil }
        let items = c.queryItems ?? []
        if let url = items.first(where: { $0.name == "url" })?.value {
            return WebURL.normalized(url)
        }
        guard let token = items.first(where: { $0.name == "p" })?.value else { return nil }
        var b64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard let bytes = Base64.decode(b64), let value = try? JSONParser.parse(bytes),
              case .object(let o) = value, case .string(let url)? = o["url"],
              case .integer? = o["timestamp"], case .string? = o["messageGUID"] else { return nil }
        return WebURL.normalized(url)
    }

    /// Builds the iOS `?p=` token form (for tests and interop).
    public static func encodeToken(url: String, timestamp: Int64, messageGUID: String) -> String {
        let json = JSONWriter.encode(.object(JSONObject([("url", .string(url)), ("timestamp", .integer(timestamp)), ("messageGUID", .string(messageGUID))])))
        let token = Base64.encode(Array(json.utf8)).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "linkstr://open?p=\(token)"
    }
}
