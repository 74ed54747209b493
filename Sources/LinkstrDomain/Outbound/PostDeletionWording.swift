/// What the user reads after deleting a post, in the CLI and the terminal app alike.
public enum PostDeletionWording {
    /// `warnings`: what relays kept, one line each ("wss://r kept a copy of its sealed envelope (…)").
    /// The post is gone for every member either way; the lines are the detail.
    public static func summary(_ warnings: [String]) -> String {
        warnings.isEmpty ? "post deleted for everyone." : "post deleted for everyone; " + warnings.joined(separator: "; ")
    }

    /// The same for a whole session.
    public static func sessionSummary(_ warnings: [String]) -> String {
        warnings.isEmpty ? "session deleted for everyone." : "session deleted for everyone; " + warnings.joined(separator: "; ")
    }
}
