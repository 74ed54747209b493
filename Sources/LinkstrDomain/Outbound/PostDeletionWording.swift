/// What the user reads after deleting a post, in the CLI and the terminal app alike.
public enum PostDeletionWording {
    /// `warnings`: best-effort steps that did not go through, one line each ("wss://r: kind 5 refused: …").
    public static func summary(_ warnings: [String]) -> String {
        warnings.isEmpty ? "post deleted." : "post deleted; " + warnings.joined(separator: "; ")
    }
}
