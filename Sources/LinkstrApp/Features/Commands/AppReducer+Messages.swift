import LinkstrDomain

/// `:messages` (vim's word): the status line's last 200 messages, newest last (a message longer
/// than the line was cut, and each went when the next came; `:relay test` cleared "testing…" before its
/// verdict could be read).
extension AppReducer {
    public static let messagesKept = 200

    static func keepMessage(_ state: inout AppState, _ status: StatusLine) {
        state.messages.append(status)
        if state.messages.count > messagesKept { state.messages.removeFirst(state.messages.count - messagesKept) }
    }

    static func messagesCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        guard !state.messages.isEmpty else {
            state.status = StatusLine("no messages yet.")
            return []
        }
        // Opened at the newest: the list's end (as far as `scrolled` goes).
        state.overlay = .messages(scroll: max(0, state.messages.count + 1 - max(1, state.screen.rows - 8)))
        return []
    }

    static func messagesKey(_ state: inout AppState, _ scroll: Int, _ key: Key) -> [AppEffect] {
        guard let scroll = scrolled(scroll, lines: state.messages.count + 1, state, key) else {
            state.overlay = nil
            return []
        }
        state.overlay = .messages(scroll: scroll)
        return []
    }
}
