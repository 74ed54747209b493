import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// `[hooks]` in config.toml: a command per kind of news, argv-split (no shell unless
/// the user writes one), given the news as one JSON object on standard input.
public struct HookSettings: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case onPost = "on_post", onReaction = "on_reaction", onRequest = "on_request", onSession = "on_session"

        /// The event type (`AccountEvents`) each hook runs for.
        public var eventType: String {
            switch self {
            case .onPost: return "post"
            case .onReaction: return "reaction"
            case .onRequest: return "request"
            case .onSession: return "session"
            }
        }
    }

    public var commands: [Kind: [String]]
    /// `hooks = false` or `--no-hooks`.
    public var enabled: Bool

    public init(commands: [Kind: [String]] = [:], enabled: Bool = true) {
        self.commands = commands.filter { !($0.value.first ?? "").isEmpty }
        self.enabled = enabled
    }

    public var isEmpty: Bool { commands.isEmpty }

    /// The commands as one text, the same for the same hooks: what the user said yes to is kept as its
    /// digest, so a config edited by someone else asks again before it runs.
    public var fingerprint: String {
        let text = Kind.allCases.compactMap { kind in commands[kind].map { kind.rawValue + "=" + $0.joined(separator: "\u{1F}") } }.joined(separator: "\n")
        return SHA256.hash(text).hex
    }

    /// The hook for an event of `type`, if one is set.
    public func command(forEvent type: String) -> (Kind, [String])? {
        guard enabled, let kind = Kind.allCases.first(where: { $0.eventType == type }), let argv = commands[kind] else { return nil }
        return (kind, argv)
    }
}

extension AccountSession {
    /// Whether the user said yes to exactly these hooks on this account (a config edited since asks again).
    public func hooksTrusted(_ hooks: HookSettings) throws -> Bool {
        try store.setting(.trustedHooks) == hooks.fingerprint
    }

    /// The user's yes to these hooks.
    public func trustHooks(_ hooks: HookSettings) throws { try store.setSetting(.trustedHooks, hooks.fingerprint) }
}
