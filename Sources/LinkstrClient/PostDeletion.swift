import LinkstrDomain
import LinkstrSync

/// Deleting one of your posts, for the terminal app and the CLI alike (one use case, one behaviour).
///
/// The `root_delete` notice is what removes the post for the other members (iOS honours it), so it goes
/// first and must be accepted: if it is refused, nothing changes and the error says why. The NIP-09
/// kind 5 for the wraps that carried the post is best effort: relays may refuse it (rust-nostr's relay
/// refuses deletion requests for events another key signed, and gift wraps are signed by one-time keys),
/// which is reported by relay and never undoes the deletion.
public enum PostDeletion {
    public struct Outcome: Equatable, Sendable {
        /// What relays kept, one line each ("wss://r kept a copy of its sealed envelope (…)").
        public let warnings: [String]
        public var summary: String { PostDeletionWording.summary(warnings) }
    }

    /// Carries out `plan` (made by `OutboundPlanner.deletePost`, which refuses what is not ours).
    public static func carryOut(_ plan: OutboundPlanner.DeletePlan, engine: SyncEngine) async throws -> Outcome {
        // Sent and acknowledged, it is also applied locally (the tombstone) by the engine.
        _ = try await engine.send([plan.notice])
        guard let request = plan.deletionRequest else {
            return Outcome(warnings: ["relays may keep copies of its sealed envelope (which ones carried it is not known here)."])
        }
        return Outcome(warnings: await engine.publishBestEffort(request).deletionLines(kept: "a copy of its sealed envelope"))
    }
}
