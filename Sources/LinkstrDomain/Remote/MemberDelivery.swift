/// Where one member's copy of something we sent ended up (honest delivery). Only a relay that
/// member reads counts as delivered: their 10050, else their NIP-65 read relays. With neither known, our
/// relays are all there is ("shared relays only"): that is what the iOS app does, and all it can say.
public enum MemberDelivery: Equatable, Sendable {
    /// Still under way (the post is sent; delivery to their relays goes on beside it).
    case pending
    /// A relay they read accepted it.
    case inbox(relay: String)
    /// They named no relays: it is on our relays, which they may or may not read.
    case sharedOnly
    /// No relay they read has it, and why (in words, for the post detail and the doctor).
    case notDelivered(why: String)

    public var isDelivered: Bool { if case .inbox = self { return true } else { return false } }

    /// One line for the post detail: "delivered to their inbox (wss://…)".
    public var words: String {
        switch self {
        case .pending: return "delivering…"
        case .inbox(let relay): return "delivered to their inbox (\(relay))"
        case .sharedOnly: return "on shared relays only (they name no inbox)"
        case .notDelivered(let why): return "not delivered: \(why)"
        }
    }

    /// The stored form: a kind and its detail, one line each.
    public var stored: String {
        switch self {
        case .pending: return "pending"
        case .inbox(let relay): return "inbox\n" + relay
        case .sharedOnly: return "shared"
        case .notDelivered(let why): return "none\n" + why
        }
    }

    public init?(stored: String) {
        let parts = stored.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("pending"?, 1): self = .pending
        case ("inbox"?, 2): self = .inbox(relay: parts[1])
        case ("shared"?, 1): self = .sharedOnly
        case ("none"?, 2): self = .notDelivered(why: parts[1])
        default: return nil
        }
    }

    /// The short name a script reads in `--json` (`delivery` of a member).
    public var state: String {
        switch self {
        case .pending: return "pending"
        case .inbox: return "inbox"
        case .sharedOnly: return "shared_only"
        case .notDelivered: return "not_delivered"
        }
    }

    /// What the relay choice's reason means, in words.
    public static func words(_ reason: DeliveryRelayChoice.Unreached) -> String {
        switch reason {
        case .noList: return "they name no inbox"
        case .allBlocked: return "every relay they read is one you blocked"
        case .overBudget: return "their relays were beyond this send's connection budget"
        }
    }
}

/// One member's delivery of a post we sent, for the post detail and `linkstr show`.
public struct MemberDeliveryRow: Equatable, Sendable {
    public let member: Pubkey
    public let outcome: MemberDelivery
    public init(member: Pubkey, outcome: MemberDelivery) { self.member = member; self.outcome = outcome }
}
