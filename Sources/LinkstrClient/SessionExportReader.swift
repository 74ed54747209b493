import Foundation
import LinkstrDomain
import LinkstrStorage

/// Reads a session for `linkstr export` (and `:export-session`): every post not deleted, oldest first,
/// with the names the user sees, the page titles cached, and the reactions; `since`: only posts from then;
/// `thumbnails`: each post's picture as cached (`--with-thumbnails`; nothing is fetched for an export).
public enum SessionExportReader {
    public static func read(_ store: AccountStore, me: Pubkey, sessionID: String, since: Int64? = nil, now: Int64,
                            utcOffset: Int = TimeZone.current.secondsFromGMT(), thumbnails: MediaCache? = nil) throws -> ExportedSession? {
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
                                 reactions: view.reactions.map { ExportedSession.Reaction(emoji: $0.emoji, by: $0.by.map(naming.name)) },
                                 thumbnail: thumbnails.flatMap { picture(view.post.url, in: $0) })
        }
        return ExportedSession(id: sessionID, name: summary.name, members: summary.members.map(naming.name), posts: posts,
                               exportedAt: now, utcOffset: utcOffset)
    }

    /// A post's cached picture with its type, known by its first bytes (a cache file that does not open,
    /// or is not an image the HTML may inline, is left out: the export goes on without it).
    static func picture(_ link: String, in media: MediaCache) -> (mime: String, bytes: [UInt8])? {
        guard let stored = try? media.read(Thumbnails.key(link)), let mime = imageType(stored.bytes) else { return nil }
        return (mime, stored.bytes)
    }

    static func imageType(_ b: [UInt8]) -> String? {
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if b.count > 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }
}
