/// Local-only changes of the in-memory state (archive and read marks). The SQLite store has its own.
extension AccountState {
    /// Archive is local and never on the wire; new posts do not unarchive.
    public mutating func setArchived(_ sessionID: String, _ archived: Bool) {
        sessions[sessionID]?.archived = archived
    }

    public mutating func markRead(postID: String, at now: Int64) {
        guard var p = posts[postID], p.readAt == nil, p.author != me else { return }
        p.readAt = now
        posts[postID] = p
    }

    /// Opening a session marks its visible inbound posts read (readme v2).
    public mutating func markSessionRead(_ sessionID: String, at now: Int64) {
        for id in postIDs(inSession: sessionID) where posts[id]?.status.isVisible == true { markRead(postID: id, at: now) }
    }
}
