import Foundation
import LinkstrDomain
import LinkstrStorage

/// Reads a session for `linkstr export` (and `:export-session`): every post not deleted, oldest first,
/// with the names the user sees, the page titles cached, and the reactions; `since`: only posts from then.
public enum SessionExportReader {
    public static func read(_ store: AccountStore, me: Pubkey, sessionID: String, since: Int64? = nil, now: Int64,
                            utcOffset: Int = TimeZone.current.secondsFromGMT()) throws -> ExportedSession? {
        guard let summary = try store.sessionSummary(sessionID) else { return nil }
        let naming = try PersonNaming(store)
        var views = try store.postPage(in: sessionID, limit: Int.max / 2)
        if let since { views = views.filter { $0.post.createdAt >= since } }
        views.reverse()
        let titles = try store.linkTitles(for: Array(Set(views.map(\.post.url))))
        let posts = views.map { view in
            ExportedSession.Post(id: view.post.id, author: naming.name(view.post.author), authorPubkey: view.post.author,
                                 mine: view.post.author == me, createdAt: view.post.createdAt, url: view.post.url,
                                 title: titles[view.post.url], note: view.post.note,
                                 reactions: view.reactions.map { ExportedSession.Reaction(emoji: $0.emoji, by: $0.by.map(naming.name)) })
        }
        return ExportedSession(id: sessionID, name: summary.name, members: summary.members.map(naming.name), posts: posts,
                               exportedAt: now, utcOffset: utcOffset)
    }
}
