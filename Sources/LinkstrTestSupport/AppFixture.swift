import Foundation
import LinkstrApp
import LinkstrDomain
import NostrProtocol

/// Fixed people, sessions and posts.
public enum AppFixture {
    // Real x-only keys (secret keys 1, 2, 3), so npub encoding and key parsing work on them.
    public static let me = key(1), bob = key(2), carol = key(3)
    public static func key(_ n: Int) -> Pubkey { try! SecretKey(hex: String(repeating: "0", count: 62) + String(format: "%02x", n)).publicKey.hex }
    public static let meInfo = IdentityInfo(pubkey: me, npub: try! PublicKey(hex: me).npub, profileName: "Me", backedUp: true)

    public static func session(_ id: String, _ name: String, creator: Pubkey = me, members: [Pubkey]? = nil, isMember: Bool = true,
                        archived: Bool = false, unread: Bool = false, unreadCount: Int? = nil, at: Int64 = 1_000,
                        standing: SessionStanding = .listed) -> SessionSummary {
        var s = SessionSummary(id: id, name: name, creator: creator, members: members ?? [creator], isMember: isMember, archived: archived,
                               unread: unread || (unreadCount ?? 0) > 0, lastActivityAt: at)
        s.unreadCount = unreadCount ?? (unread ? 1 : 0)
        s.standing = standing
        return s
    }

    public static func post(_ id: String, in session: String, by author: Pubkey = bob, at: Int64 = 1_000, url: String = "https://example.com/a",
                     note: String? = nil, unread: Bool = false, reactions: [ReactionSummary] = []) -> PostView {
        PostView(post: PostRecord(id: id, sessionID: session, author: author, createdAt: at, url: url, note: note, wrapIDs: [],
                                  arrivals: Arrivals(trusted: true), readAt: unread ? nil : at, notified: false, status: .visible),
                 unread: unread, reactions: reactions)
    }

    /// The main screen right after unlocking, with the given session rows loaded.
    public static func main(sessions: [SessionSummary] = [], contacts: [Contact] = []) -> AppState {
        var s = AppState()
        s.now = 10_000
        _ = AppReducer.reduce(&s, .identityReady(meInfo, inMemory: false))
        var listing = SessionListing(list: .active, rows: sessions, hasArchived: false, requestCount: 0)
        listing.unreadActive = sessions.filter(\.showsUnread)
        _ = AppReducer.reduce(&s, .sessions(.sessionsLoaded(listing)))
        _ = AppReducer.reduce(&s, .you(.contactsLoaded(contacts)))
        return s
    }

    /// The main screen with `session` open and its posts loaded.
    public static func feed(_ session: SessionSummary, posts: [PostView], contacts: [Contact] = []) -> AppState {
        var s = main(sessions: [session], contacts: contacts)
        _ = AppReducer.reduce(&s, .keyPressed(.enter))
        _ = AppReducer.reduce(&s, .sessions(.feedLoaded(sessionID: session.id, summary: session, posts: posts, changes: [], hasMore: false)))
        return s
    }
}

