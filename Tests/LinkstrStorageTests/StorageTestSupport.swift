import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

/// A fresh data directory per test, removed afterwards.
class StorageTestCase: XCTestCase {
    var tmp: URL!
    var paths: DataPaths!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-storage-\(UUID().uuidString)")
        paths = DataPaths.resolve(home: tmp.path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    func message(_ payload: LinkstrPayload, by sender: Pubkey, at t: Int64, id: String) -> InboundMessage {
        InboundMessage(rumorID: id, wrapIDs: ["wrap-" + id], sender: sender, createdAt: t, payload: try! payload.validated(),
                       source: .historical, receivedAt: t)
    }

    func posixMode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue & 0o777
    }
}

/// What an upgraded account reads back against the reference replay of its messages under today's rules.
/// The one difference allowed is read state in `released`, the sessions whose held posts today's membership
/// rule let in when the account was opened (issue 53): they were hidden when the session was marked read,
/// so they come in unread. Everything else (posts, reactions, names, members, order) must be the same.
func assertReadsBack(_ shown: VisibleState, _ reference: VisibleState, released: Set<String>,
                        file: StaticString = #filePath, line: UInt = #line) {
    func withoutReadState(_ v: VisibleState) -> VisibleState {
        let sessions = v.sessions.map { s -> SessionSummary in
            guard released.contains(s.id) else { return s }
            var plain = SessionSummary(id: s.id, name: s.name, creator: s.creator, members: s.members, isMember: s.isMember, archived: s.archived,
                                       unread: false, lastActivityAt: s.lastActivityAt)
            plain.lastPost = s.lastPost
            plain.decision = s.decision
            plain.standing = s.standing
            return plain
        }
        let posts = v.posts.mapValues { views in
            views.map { p -> PostView in
                guard released.contains(p.post.sessionID) else { return p }
                let r = p.post
                return PostView(post: PostRecord(id: r.id, sessionID: r.sessionID, author: r.author, createdAt: r.createdAt, url: r.url, note: r.note,
                                                 wrapIDs: r.wrapIDs, arrivals: r.arrivals, readAt: nil, notified: r.notified, status: r.status),
                                unread: false, reactions: p.reactions)
            }
        }
        return VisibleState(sessions: sessions, posts: posts, reactionStates: v.reactionStates, membershipChanges: v.membershipChanges,
                            contacts: v.contacts)
    }
    XCTAssertEqual(withoutReadState(shown), withoutReadState(reference), file: file, line: line)
}

/// The sessions holding staged messages for want of membership, read straight from the database.
func sessionsHoldingPosts(_ db: Database) throws -> Set<String> {
    Set(try db.query("SELECT DISTINCT session_id FROM staged_messages WHERE reason = 'membership'").compactMap { $0["session_id"].text })
}
