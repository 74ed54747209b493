extension InboundNotification {
    /// What one piece of news says, the one wording for the app's notifications and `linkstr sync
    /// --follow`: who (by the naming rule) did what.
    public func headline(naming name: (Pubkey) -> String) -> String {
        switch self {
        case .post(_, _, let author): return "\(name(author)) shared a post"
        case .reaction(_, _, _, let author, let emoji): return "\(name(author)) reacted \(DisplayText.singleLine(emoji))"
        }
    }
}
