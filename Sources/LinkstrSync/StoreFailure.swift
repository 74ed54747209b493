import LinkstrDomain

/// A read or write of the store that the engine needed and that failed, as it travels on the update
/// stream (`SyncUpdate.storeFailed`): typed, so a front end words it as a storage failure without
/// parsing a sentence; `description` is the sentence.
public struct StoreFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Step: Equatable, Sendable {
        /// A read that decides a write (nothing was written on a guess).
        case read
        case save
        /// A batch of received messages: kept in memory and written again when there is room.
        case incoming(messages: Int)
    }

    public let step: Step
    /// What was read or saved ("a profile", "the send queue").
    public let what: String
    /// The store's own words.
    public let detail: String

    public init(_ step: Step, what: String, detail: String) {
        self.step = step
        self.what = what
        self.detail = detail
    }

    public var description: String {
        switch step {
        case .read: "could not read \(what): \(detail)"
        case .save: "could not save \(what): \(detail)"
        case .incoming(let n):
            "could not store \(n) incoming message\(n == 1 ? "" : "s"): \(detail) they are kept and stored as soon as there is room."
        }
    }

    /// What `preferencesUnsynced` says.
    public static let preferencesUnsyncedWords = "couldn't sync private preferences. local data is kept; linkstr will retry when you reconnect."
}

extension SyncUpdate {
    /// What the engine's own news says, in a sentence (nil for the rest): a store failure, messages
    /// stored after waiting for room, preferences that could not go out.
    public var enginesWords: String? {
        switch self {
        case .storeFailed(let failure): failure.description
        case .storedAfterWaiting(let n): "stored \(n) incoming message\(n == 1 ? "" : "s") that had waited for room."
        case .preferencesUnsynced: StoreFailure.preferencesUnsyncedWords
        default: nil
        }
    }
}
