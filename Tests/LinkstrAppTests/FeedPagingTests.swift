import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// PgDn and PgUp in a feed move one screen of posts (they moved 5 while 16 showed); a post to go back
/// to that is older than the page read (reopened after a restart) is read up to.
final class FeedPagingTests: XCTestCase {
    typealias F = AppFixture

    func testPageDownAndUpMoveOneScreenOfPosts() {
        let films = F.session("s1", "Films")
        // One sender, a note each: a header (2 rows) and then 2 rows a post; 24 rows leave 20 for posts.
        let posts = (0..<40).map { F.post("p\($0)", in: "s1", at: 5_000 - Int64($0), note: "n\($0)") }
        var h = ReducerHarness(F.feed(films, posts: posts))
        XCTAssertEqual(h.state.screen.rows, 24)
        // The first screen: the header and p0…p8 (2 + 18 rows); p9 would need 2 more.
        h.send(.keyPressed(.pageDown)) { $0.sessions.open?.selection = 9; $0.sessions.open?.scroll = 9 }
        // A screen from p9 without a header: p9…p18.
        h.send(.keyPressed(.pageDown)) { $0.sessions.open?.selection = 19; $0.sessions.open?.scroll = 19 }
        h.send(.keyPressed(.pageUp)) { $0.sessions.open?.selection = 18; $0.sessions.open?.scroll = 9 }
        h.send(.keyPressed(.pageUp)) { $0.sessions.open?.selection = 8; $0.sessions.open?.scroll = 0 }
        h.send(.keyPressed(.pageUp)) { $0.sessions.open?.selection = 0 }
        // From a selection moved past the screen with j, PgDn starts from where the screen is now.
        for n in 1...12 { h.send(.keyPressed(.char("j"))) { $0.sessions.open?.selection = n } }
        h.send(.keyPressed(.pageDown)) { $0.sessions.open?.selection = 13; $0.sessions.open?.scroll = 13 }
        // At the end: the last post.
        h.send(.keyPressed(.char("G"))) { $0.sessions.open?.selection = 39 }
        h.send(.keyPressed(.pageDown)) { $0.sessions.open?.selection = 39; $0.sessions.open?.scroll = 30 }
    }

    func testAPostOlderThanThePageReadIsReadUpTo() {
        let films = F.session("s1", "Films")
        let all = (0..<600).map { F.post("p\($0)", in: "s1", at: 5_000 - Int64($0)) }
        var h = ReducerHarness(F.feed(films, posts: []))
        h.state.sessions.open?.selectWhenLoaded = "p449"
        for (count, next) in [(50, 100), (100, 200), (200, 400), (400, 800)] {
            h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: Array(all.prefix(count)), changes: [], hasMore: true)),
                   [.sessions(.loadFeed(sessionID: "s1", limit: next))]) {
                $0.sessions.open?.posts = Array(all.prefix(count))
                $0.sessions.open?.hasMore = true
                $0.sessions.open?.loading = true
            }
        }
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: all, changes: [], hasMore: false))) {
            $0.sessions.open?.posts = all
            $0.sessions.open?.hasMore = false
            $0.sessions.open?.loading = false
            $0.sessions.open?.selection = 449
            $0.sessions.open?.selectWhenLoaded = nil
        }
        // A reload asked for while fewer posts were shown (400) does not cut the feed above the selection.
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: Array(all.prefix(400)), changes: [], hasMore: true)),
               [.sessions(.loadFeed(sessionID: "s1", limit: 600))])
    }
}
