import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (1): a relay that mints variants of one genuine gift wrap (a new `created_at`, the id made
/// again, the old signature or any) made each cost a full unwrap and counted them as duplicates, never as
/// junk, so it was never dropped. With the wrap's signature checked every variant is junk: the relay is
/// dropped by the junk meter, the genuine wrap is stored once. Behind the fault proxy's `variants` mode,
/// in front of nostr-relay and of LocalRelay; the app's Settings row in tmux as well.
final class WrapVariantTests: XCTestCase {
    func testARelayMintingVariantsOfAGenuineWrapIsDroppedAndTheWrapIsStoredOnce() throws {
        let nostrRelay = try TestRelay()
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        for (name, upstream) in [("nostr-relay", nostrRelay.url), ("LocalRelay", localRelay.url)] {
            let home = try Home("variants-\(name)", relays: [upstream])
            defer { home.remove() }
            try home.writeConfig("link_previews = false\n")
            let me = try PublicKey(hex: try home.createIdentity().hex)
            let file = try Self.genuineWrap(to: me, on: upstream)
            defer { try? FileManager.default.removeItem(at: file) }
            let proxy = try FaultProxy.start(upstream: upstream, mode: "variants", argument: file.path)
            defer { proxy.stop() }

            let run = try home.run(["sync", "--json", "--timeout", "5"], relays: [proxy.url], timeout: 60)
            let report = try XCTUnwrap(try? run.json() as? [String: Any], "\(name): \(run.out)\n\(run.err)")
            let relays = report["relays"] as? [[String: Any]] ?? []
            let words = relays.compactMap { $0["error"] as? String }.joined(separator: " ") + run.err
            XCTAssertTrue(words.contains("dropped: it sent mostly invalid events"), "\(name): \(run.out)\n\(run.err)")
            // From the relay itself, without the proxy: the genuine wrap's session, once (on LocalRelay the
            // proxy was dropped before its NIP-77 fetch brought it).
            _ = try home.sync()
            let requests = try home.ok(["session", "list", "--requests", "--json"]).json() as? [[String: Any]] ?? []
            XCTAssertEqual(requests.count, 1, "\(name): the genuine wrap's session, once")

            if name == "nostr-relay" {
                let tmux = try Tmux()
                try home.startAppInSettings(tmux, "v", relay: proxy.url, term: "tmux-256color")
                let row = try tmux.waitFor("v", text: "dropped: it sent mostly invalid events", timeout: 30)
                XCTAssertTrue(row.contains("trying again in"), row)
                try tmux.keys("v", "1")
                try tmux.waitFor("v", text: "(R: 1 request)", timeout: 5)
                try tmux.keys("v", "q")
                try tmux.waitFor("v", "the app to exit") { !$0.contains("1 Sessions") }
            }
        }
    }

    /// A stranger's session wrapped to `me` and put on the relay; its JSON in a file for the proxy.
    static func genuineWrap(to me: PublicKey, on url: String) throws -> URL {
        let wrap = try PeerWraps.strangersSession("Minted", to: me, now: Int64(Date().timeIntervalSince1970))
        try DirectPublish.events([wrap], to: url)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-genuine-\(UUID().uuidString).json")
        try wrap.jsonString().write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
