import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (12), where a user meets it: a relay that streams junk without end (the fault proxy's
/// `flood 0`: right ids, bad signatures) cost the app a full core and up to 986 MB. Now it is dropped,
/// its row in Settings says why and when it is tried again, and the app answers keys meanwhile. (Its
/// CPU and memory are measured by `linkstr-bench junk-stream`, not asserted here.)
final class JunkStreamTests: XCTestCase {
    func testARelayStreamingJunkIsDroppedAndItsRowSaysWhy() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "flood", argument: "0")
        defer { proxy.stop() }
        let home = try Home.forApp("junkstream", relay: proxy.url)
        defer { home.remove() }
        for term in ["xterm-256color", "tmux-256color"] {
            let tmux = try Tmux()
            try home.startAppInSettings(tmux, "j", relay: proxy.url, term: term)
            let row = try tmux.waitFor("j", text: "dropped: it sent mostly invalid events", timeout: 30)
            XCTAssertTrue(row.contains("trying again in"), row)
            // The app still answers: the panes switch at once.
            try tmux.keys("j", "1")
            try tmux.waitFor("j", text: "no sessions yet", timeout: 5)
            try tmux.keys("j", "C-c")
            _ = try? tmux.waitFor("j", "the app to quit") { !$0.contains("Sessions") }
        }
    }

    /// The CLI: `sync` against the same relay ends by its deadline and says the relay was dropped.
    func testSyncSaysTheRelayWasDroppedForJunk() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "flood", argument: "0")
        defer { proxy.stop() }
        let home = try Home.forApp("junksync", relay: proxy.url)
        defer { home.remove() }
        let run = try home.run(["sync", "--json", "--timeout", "5"], timeout: 60)
        let relays = (try run.json() as? [String: Any])?["relays"] as? [[String: Any]] ?? []
        let words = relays.compactMap { $0["error"] as? String }.joined(separator: " ") + run.err
        XCTAssertTrue(words.contains("dropped: it sent mostly invalid events"), "\(run.out)\n\(run.err)")
    }
}
