import LinkstrDomain
import LinkstrStorage

extension PostSearch {
    /// A search and the first `limit` hits read as posts (with their sessions' names), for the app's
    /// results box and `linkstr search` alike.
    public struct Found: Sendable {
        public var answer: Answer
        /// The first `limit` hits that are still stored, in hit order.
        public var posts: [PostView]
        public var sessionNames: [String: String]
    }

    public func find(_ query: String, in sessionID: String? = nil, limit: Int) throws -> Found {
        let answer = try search(query, in: sessionID)
        let shown = answer.result.hits.prefix(max(0, limit))
        let views = try store.postViews(shown.map(\.postID))
        var names = [String: String]()
        for sid in Set(shown.map(\.sessionID)) { names[sid] = try store.sessionSummary(sid)?.name }
        return Found(answer: answer, posts: shown.compactMap { views[$0.postID] }, sessionNames: names)
    }
}
