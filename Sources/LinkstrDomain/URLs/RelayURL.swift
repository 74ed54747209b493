import Foundation
import NostrProtocol

/// Relay URL rules (wire document §8.8): ws or wss with a host; stored with lowercase scheme and host,
/// no fragment, and no lone "/" path.
public enum RelayURL {
    public static let invalidMessage = "enter a valid relay url (ws:// or wss://)."
    public static let duplicateMessage = "that relay is already in your list."

    public static let defaults = [
        "wss://relay.damus.io", "wss://relay.primal.net", "wss://nos.lol",
        "wss://nostr.satoshisfrens.win", "wss://relay.snort.social",
    ]

    public static func normalized(_ input: String) -> String? {
        let s = input.trimmingWhitespace()
        guard !s.isEmpty, !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }),
              var c = URLComponents(string: s), let scheme = c.scheme?.lowercased(),
              scheme == "ws" || scheme == "wss", let host = c.host, !host.isEmpty else { return nil }
        c.scheme = scheme
        c.host = host.lowercased()
        c.fragment = nil
        if c.path == "/" { c.path = "" }
        return c.string
    }

    /// Validates `input` for adding to `existing`, with the iOS error texts.
    public static func validateNew(_ input: String, existing: [String]) -> Result<String, DomainError> {
        guard let url = normalized(input) else { return .failure(.message(invalidMessage)) }
        guard !existing.contains(url) else { return .failure(.message(duplicateMessage)) }
        return .success(url)
    }

    /// True when the relay is on this machine (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

/// A user-facing error from a domain rule, worded for people (lowercase, as the iOS app words them).
public enum DomainError: Error, Equatable, Sendable, CustomStringConvertible {
    case message(String)
    public var description: String { if case .message(let m) = self { return m }; return "" }
}
