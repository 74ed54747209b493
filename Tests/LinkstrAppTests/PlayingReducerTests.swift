import LinkstrApp
import LinkstrDomain
import XCTest

/// `o` twice used to start a second player. Once mpv has started on a video, `o` on it says it is already
/// playing, `o` on another asks whether to replace it (n keeps it; y stops it and plays the other);
/// when the player ends, `o` plays again.
final class PlayingReducerTests: XCTestCase {
    typealias F = Fixture

    func testOnePlayerAtATime() {
        let films = F.session("s1", "Films")
        let video = "https://www.youtube.com/watch?v=abc", other = "https://www.youtube.com/watch?v=def"
        var h = ReducerHarness(F.feed(films, posts: [F.post("p1", in: "s1", url: video), F.post("p2", in: "s1", url: other)]))
        h.send(.keyPressed(.char("o")), [.post(.openURL(video))]) { $0.playRequested = video }
        h.send(.post(.playbackChanged(.starting(player: "mpv")))) {
            $0.playing = video
            $0.playRequested = nil
            $0.status = StatusLine("starting mpv…")
        }
        h.send(.keyPressed(.char("o"))) { $0.status = StatusLine("already playing; close its window (q in mpv) to play it again.", .warning) }
        h.send(.keyPressed(.char("j"))) { $0.sessions.open?.selection = 1 }
        let question = Confirmation(.replacePlaying(other), "another video is playing: stop it and play this one? (y/n)")
        h.send(.keyPressed(.char("o"))) { $0.overlay = .confirm(question) }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("o"))) { $0.overlay = .confirm(question) }
        h.send(.keyPressed(.char("y")), [.post(.stopPlayer), .post(.openURL(other))]) {
            $0.overlay = nil
            $0.playing = nil
            $0.playRequested = other
        }
        h.send(.post(.playbackChanged(.starting(player: "mpv")))) {
            $0.playing = other
            $0.playRequested = nil
            $0.status = StatusLine("starting mpv…")
        }
        h.send(.post(.playbackChanged(.ended))) { $0.playing = nil; $0.status = StatusLine("playback ended.", .success) }
        h.send(.keyPressed(.char("o")), [.post(.openURL(other))]) { $0.playRequested = other }
        // A page that is no video opens whatever plays.
        XCTAssertEqual(AppReducer.open(h.state, "https://example.com/page"), .post(.openURL("https://example.com/page")))
    }
}
