import LinkstrDomain

/// `:held`: the open session's posts the membership gate holds (dated before their sender
/// joined, sent after a removal, from non-members), shown over the feed with why, scrolled like the
/// doctor's report. They come in by themselves when a snapshot makes their sender a member at their date.
extension AppReducer {
    /// Lines each held post takes in the list (`HeldPostsView`): who and when with why, the link, the note, a gap.
    public static let linesPerHeldPost = 4

    static func heldCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        guard let feed = state.sessions.open else {
            state.status = StatusLine("open a session first: :held lists the posts it holds.", .error)
            return []
        }
        guard !feed.held.isEmpty else {
            state.status = StatusLine("this session holds no posts.", .info)
            return []
        }
        state.overlay = .heldPosts(sessionID: feed.sessionID, scroll: 0)
        return []
    }

    static func heldPostsKey(_ state: inout AppState, _ sid: String, _ scroll: Int, _ key: Key) -> [AppEffect] {
        let count = state.sessions.open?.sessionID == sid ? state.sessions.open?.held.count ?? 0 : 0
        guard count > 0, let scroll = scrolled(scroll, lines: count * linesPerHeldPost + 1, state, key) else {
            state.overlay = nil
            return []
        }
        state.overlay = .heldPosts(sessionID: sid, scroll: scroll)
        return []
    }
}
