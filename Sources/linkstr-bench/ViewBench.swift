import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrTUI
import LinkstrTestSupport
import NostrProtocol

/// The view alone, without a terminal: how long `AppView.render` takes to build an 80×24 screen from
/// state while the selection moves, on the session list (1 000 sessions) and in a feed (`posts` posts).
/// The TUI bench times whole frames in a real terminal; this one isolates the part the app computes.
enum ViewBench {
    static func run(posts: Int, keys: Int = 20_000) {
        typealias F = AppFixture
        let sessions = (0..<1_000).map { i in
            var s = F.session("s\(i)", "Session \(i)", members: [F.me, F.bob], unreadCount: i % 3 == 0 ? i % 120 : 0, at: 9_000 - Int64(i))
            s.lastPost = SessionSummary.LastPost(author: F.bob, url: "https://example.com/\(i)/page")
            return s
        }
        var list = F.main(sessions: sessions)
        list.screen = ScreenSize(columns: 80, rows: 24)
        report("session list, 1 000 sessions", &list, keys: keys)

        let feedPosts: [PostView] = (0..<posts).map { (i: Int) -> PostView in
            let author: Pubkey = i % 4 == 0 ? F.me : F.bob
            let note: String? = i % 2 == 0 ? "a note about link \(i), long enough to be cut at the edge of an 80-column screen" : nil
            return F.post("p\(i)", in: "s0", by: author, at: 9_000 - Int64(i), url: "https://example.com/0/\(i)", note: note, unread: i < 10)
        }
        var feed = F.feed(sessions[0], posts: feedPosts)
        feed.screen = ScreenSize(columns: 80, rows: 24)
        report("feed, \(posts) posts", &feed, keys: keys)
    }

    /// Presses j (and k at the end, and back), timing the reducer and the view of each step.
    private static func report(_ name: String, _ state: inout AppState, keys: Int) {
        var reduce = [Double](), view = [Double](), compare = [Double]()
        var down = true, previous = state
        for i in 0..<keys {
            if i % 150 == 149 { down.toggle() }
            let t0 = DispatchTime.now().uptimeNanoseconds
            _ = AppReducer.reduce(&state, .keyPressed(.char(down ? "j" : "k")))
            let t1 = DispatchTime.now().uptimeNanoseconds
            let changed = state != previous
            let t2 = DispatchTime.now().uptimeNanoseconds
            let canvas = AppView.render(state)
            let t3 = DispatchTime.now().uptimeNanoseconds
            precondition(canvas.width == 80 && (changed || i > 0))  // uses the result, so the render is not optimised away
            previous = state
            reduce.append(Double(t1 - t0) / 1e3)
            compare.append(Double(t2 - t1) / 1e3)
            view.append(Double(t3 - t2) / 1e3)
        }
        func figure(_ v: [Double]) -> String {
            let s = v.sorted()
            return String(format: "median %.1f µs, p99 %.1f µs", s[s.count / 2], s[min(s.count - 1, s.count * 99 / 100)])
        }
        Timing.report("\(name): reduce", figure(reduce))
        Timing.report("\(name): compare states", figure(compare))
        Timing.report("\(name): view", figure(view))
    }
}
