import LinkstrDomain
import LinkstrStorage

extension AccountActions {
    /// What the notifications for `news` may say of their posts (session name, link, note), by post id:
    /// one read of the posts and one of each session named. A post or session gone since is left out
    /// (its notification says only who did what).
    public func newsDetails(_ news: [InboundNotification]) throws -> [String: NewsDetail] {
        guard !news.isEmpty else { return [:] }
        let views = try store.postViews(Array(Set(news.map(\.postID))))
        var names = [String: String]()
        var details = [String: NewsDetail]()
        for (id, view) in views {
            let sessionID = view.post.sessionID
            if names[sessionID] == nil { names[sessionID] = try store.sessionSummary(sessionID)?.name }
            guard let name = names[sessionID] else { continue }
            details[id] = NewsDetail(sessionName: name, url: view.post.url, note: view.post.note)
        }
        return details
    }
}
