import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// The send queue in the app (issue 49): what is said when a post is queued offline and when it goes,
/// a refusal for good, and the detail's r (retry) and x (cancel).
final class SendQueueReducerTests: XCTestCase {
    typealias F = AppFixture
    private func detail(_ postID: String, mark: PostSendMark?) -> ReducerHarness {
        var state = F.feed(F.session("s1", "Films"), posts: [F.post(postID, in: "s1", by: F.me)])
        state.pane = .post
        state.post.mode = .detail(PostDetail(postID: postID, view: F.post(postID, in: "s1", by: F.me), sessionName: "Films"))
        if let mark { state.sendQueue = SendQueueNews(counts: .init(waiting: 1), sessions: ["s1"], posts: [postID: mark]) }
        return ReducerHarness(state)
    }

    func testAPostQueuedOfflineSaysSoAndSaysWhenWhatWaitedWent() {
        var h = ReducerHarness(F.feed(F.session("s1", "Films"), posts: []))
        h.state.post.mode = .composer(ComposerState(sessionID: "s1", sessionName: "Films"))
        h.state.pane = .post
        h.send(.post(.postSent(postID: "p1", sessionID: "s1")), [.sessions(.loadFeed(sessionID: "s1", limit: 50)), .sessions(.loadSessions(.active))]) {
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.status = StatusLine("no relay reachable: queued, it will go when one answers.", .warning)
            $0.saidQueuedOffline = true
            $0.sessions.open?.selectWhenLoaded = "p1"
        }
        let waiting = SendQueueNews(counts: .init(waiting: 2), sessions: ["s1"],
                                    posts: ["p1": PostSendMark(item: 1, action: .post, state: .queued), "p2": PostSendMark(item: 2, action: .post, state: .queued)])
        h.send(.post(.sendQueueChanged(waiting))) { $0.sendQueue = waiting }
        // One of two went: nothing said yet (the count in the tab bar says the rest).
        let half = SendQueueNews(counts: .init(waiting: 1), sessions: ["s1"], posts: ["p2": PostSendMark(item: 2, action: .post, state: .queued)], sent: 1)
        h.send(.post(.sendQueueChanged(half))) { $0.sendQueue = half; $0.justSent = ["p1"]; $0.sentThatWaited = 1 }
        h.send(.post(.sendQueueChanged(SendQueueNews(sent: 1)))) {
            $0.sendQueue = SendQueueNews(sent: 1)
            $0.justSent = ["p2"]
            $0.saidQueuedOffline = false
            $0.sentThatWaited = 0
            $0.status = StatusLine("sent 2 that waited.", .success)
        }
    }

    /// A queue left from an earlier run, found while no relay answers, is said once it went.
    func testAQueueFoundAtStartIsSaidWhenItGoes() {
        var h = ReducerHarness(F.feed(F.session("s1", "Films"), posts: []))
        let left = SendQueueNews(counts: .init(waiting: 3), sessions: ["s1"])
        h.send(.post(.sendQueueChanged(left))) { $0.sendQueue = left; $0.saidQueuedOffline = true }
        h.state.settings.relays = [RelayRow(url: "wss://r", health: .connected)]
        h.send(.post(.sendQueueChanged(SendQueueNews(sent: 3)))) {
            $0.sendQueue = SendQueueNews(sent: 3)
            $0.saidQueuedOffline = false
            $0.status = StatusLine("sent 3 that waited.", .success)
        }
    }

    func testARefusalForGoodIsSaidWithTheRelaysWords() {
        var h = detail("p1", mark: PostSendMark(item: 1, action: .post, state: .queued))
        let failed = SendQueueNews(counts: .init(failed: 1), sessions: ["s1"],
                                   posts: ["p1": PostSendMark(item: 1, action: .post, state: .failed("wss://r refused it: invalid: no"))],
                                   newlyFailed: ["wss://r refused it: invalid: no"])
        h.send(.post(.sendQueueChanged(failed))) {
            $0.sendQueue = failed
            $0.status = StatusLine("not sent: wss://r refused it: invalid: no (r retries, x cancels, in the post)", .error)
        }
        h.send(.keyPressed(.char("r")), [.post(.retrySend(item: 1))])
    }

    func testXAsksThenCancelsAQueuedPostAndDLeadsThereToo() {
        var h = detail("p1", mark: PostSendMark(item: 7, action: .post, state: .queued))
        h.send(.keyPressed(.char("x"))) {
            $0.overlay = .confirm(Confirmation(.cancelSend(item: 7), "cancel this post? it was never sent, and goes from here too. (y/n)"))
        }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("d"))) {
            $0.overlay = .confirm(Confirmation(.cancelSend(item: 7), "this post was never sent: cancel it? it goes from here too. (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.post(.cancelSend(item: 7))]) { $0.overlay = nil }
        h.send(.post(.sendCancelled(action: .post, postID: "p1", sessionID: "s1")),
               [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            $0.sendQueue.posts = [:]
            $0.post.mode = .empty
            $0.pane = .sessions
            $0.status = StatusLine("cancelled: the post was never sent, and is gone.", .success)
        }
    }

    func testAPostWithNothingUnsentKeepsItsKeys() {
        var h = detail("p1", mark: nil)
        // x and r are not this post's (nothing unsent): the detail's own keys stay as they were.
        h.send(.keyPressed(.char("x")))
        h.send(.keyPressed(.char("r")))
    }
}
