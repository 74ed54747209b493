import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import Synchronization
import XCTest

/// Issue 48 (1): the account as the only door. Two bugs came from a second way in: `linkstr preview` and
/// `linkstr media save` built their own fetchers and fetched from hosts the user blocked (the app refuses
/// them); closing an account did not stop a save under way, and yt-dlp kept writing into the closed
/// account's cache.
final class AccountDoorTests: XCTestCase {
    func testABlockedHostIsNeverFetchedFromByPreviewOrMediaSave() throws {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-door-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { removeTemporary(files) }
        try Data(ImageFixtures.encode(ImageFixtures.halves(width: 8, height: 4), width: 8, height: 4, as: .png)!).write(to: files.appendingPathComponent("p.png"))
        // A web server on a loopback address of its own, so that blocking its host leaves the relay alone.
        let server = try PreviewServer(files: files, host: "127.0.0.2")
        defer { server.stop() }
        let relay = try TestRelay()
        defer { relay.stop() }
        var home = try Home("door-blocked", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity()
        home.relays = [relay.url]
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let session = try home.ok(["session", "create", "Pictures"]).trimmed
        let post = try home.ok(["post", session, server.url("/files/p.png")], environment: allow).trimmed

        // Before the block: fetched.
        XCTAssertEqual(try home.run(["preview", server.url("/og")], environment: allow).status, 0)
        let before = server.requests.count
        XCTAssertGreaterThan(before, 0)

        XCTAssertEqual(try home.run(["relays", "block", "ws://127.0.0.2:7447"]).status, 0)
        let preview = try home.run(["preview", server.url("/og")], environment: allow)
        XCTAssertEqual(preview.status, 1)
        XCTAssertEqual(preview.err, "linkstr: no preview: not fetching from 127.0.0.2: it is a relay you blocked\n")
        let save = try home.run(["media", "save", post], environment: allow)
        XCTAssertEqual(save.status, 1)
        XCTAssertTrue(save.err.contains("not fetching from 127.0.0.2: it is a relay you blocked"), save.err)
        XCTAssertEqual(server.requests.count, before, "nothing asked of the blocked host: \(server.requests)")
    }

    func testClosingTheAccountDuringASaveStopsItAndKeepsNothing() async throws {
        let stubs = try StubTools("door-save")
        defer { stubs.remove() }
        try stubs.installMediaTools()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-door-save-\(UUID().uuidString)")
        defer { removeTemporary(home) }
        let local = try LocalStore(paths: DataPaths.resolve(home: home.path))
        let account = try AccountSession(SecretKey.generate(), in: local, relayOverrides: [], holdsDataLock: true)
        let saver = try XCTUnwrap(account.saver)
        let marker = UUID().uuidString
        let link = "https://www.youtube.com/watch?v=door\(marker)"
        let environment = ProcessInfo.processInfo.environment.merging(["PATH": stubs.path, "STUB_YTDLP_SCENARIO": "slow"]) { $1 }
        let progress = Mutex<[SaveProgress]>([])
        let saving = Task { await saver.save(link, environment: environment, now: 1) { p in progress.withLock { $0.append(p) } } }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !progress.withLock({ $0.contains { if case .saving(let f?) = $0 { return f > 0.05 } else { return false } } }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertFalse(Self.processes(containing: marker).isEmpty, "yt-dlp runs before the close")
        await account.close()
        await saving.value
        XCTAssertEqual(progress.withLock { $0.last }, .cancelled)
        XCTAssertEqual(Self.processes(containing: marker), [], "no yt-dlp left")
        let media = try XCTUnwrap(account.mediaCache).directory
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: media.path)) ?? [], [], "nothing kept in the closed account's cache")
        // A save asked of the closed account does not start.
        let late = Mutex<SaveProgress?>(nil)
        await saver.save(link, environment: environment, now: 2) { p in late.withLock { $0 = p } }
        XCTAssertEqual(late.withLock { $0 }, .cancelled)
        XCTAssertEqual(Self.processes(containing: marker), [])
    }

    /// The pids of live processes whose command line holds `text`.
    static func processes(containing text: String) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            return state != "Z" && String(decoding: data, as: UTF8.self).contains(text)
        }.sorted()
    }
}
