import LinkstrDomain

extension VisibleState {
    /// The first difference from `other`, in words (nil when equal). For readable test failures.
    public func difference(from other: VisibleState) -> String? {
        if sessions.count != other.sessions.count {
            let a = Set(sessions.map(\.id)), b = Set(other.sessions.map(\.id))
            return "sessions: \(sessions.count) vs \(other.sessions.count); only here \(a.subtracting(b).sorted()), only there \(b.subtracting(a).sorted())"
        }
        for (x, y) in zip(sessions, other.sessions) where x != y { return "session row:\n  \(x)\n  \(y)" }
        for (sid, posts) in self.posts {
            let theirs = other.posts[sid] ?? []
            if posts.map(\.id) != theirs.map(\.id) {
                return "posts of \(sid): \(posts.map { "\($0.id.prefix(8))@\($0.post.createdAt)" }) vs \(theirs.map { "\($0.id.prefix(8))@\($0.post.createdAt)" })"
            }
            for (p, q) in zip(posts, theirs) where p != q { return "post \(p.id.prefix(8)) in \(sid):\n  \(p)\n  \(q)" }
        }
        for (id, states) in reactionStates where states != other.reactionStates[id] { return "reactions of \(id.prefix(8)): \(states) vs \(other.reactionStates[id] ?? [])" }
        for (sid, changes) in membershipChanges where changes != other.membershipChanges[sid] {
            return "membership changes of \(sid):\n  \(changes)\n  \(other.membershipChanges[sid] ?? [])"
        }
        if contacts != other.contacts { return "contacts: \(contacts) vs \(other.contacts)" }
        return self == other ? nil : "states differ"
    }
}
