import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrRelay
import LinkstrTestSupport
import Logging
import NostrProtocol
import XCTest

/// Issue 32 (8): a disk that fills up mid-sync. No crash (the log used to trap on ENOSPC), words that say
/// "disk full", reading commands that still work, nothing lost, and a complete sync once space is freed.
final class DiskFullTests: XCTestCase {
    func testSyncOnAFullDiskSaysSoKeepsReadingAndCompletesOnceFreed() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let disk = try SmallFileSystem(kilobytes: 8_192)
        defer { disk.remove() }
        let (home, friend, me) = try await disk.homeSynced(from: relay.url, posts: 300)
        XCTAssertEqual(try home.allPostIDs(friend.session).count, 300)

        // 300 more arrive while the disk is all but full.
        try await friend.seed(relay.url, to: me, posts: 300..<600)
        let filler = try disk.fill(leaving: 96 * 1024)
        let full = try home.run(["sync", "--json", "--timeout", "30"])
        XCTAssertFalse([132, 133, 134, 139].contains(full.status), "no crash: exit \(full.status), \(full.err)")
        XCTAssertEqual(full.status, 74, "a sync that could not store everything is not a success: \(full.out)")
        XCTAssertEqual((try? full.json() as? [String: Any])?["complete"] as? Bool, false, full.out)
        XCTAssertTrue(full.err.contains("the disk is full"), "says so in words: \(full.err)")
        XCTAssertFalse(full.err.contains("NSCocoaErrorDomain") || full.err.contains("Fatal error"), full.err)

        // Reading still works on the full disk, and what was stored is all there.
        let listed = try home.run(["session", "list", "--requests", "--json"])
        XCTAssertEqual(listed.status, 0, "reading commands work while the disk is full: \(listed.err)")
        let during = try home.allPostIDs(friend.session)
        XCTAssertGreaterThanOrEqual(during.count, 300)
        XCTAssertLessThan(during.count, 600, "the disk filled before everything was stored (else the test proves nothing)")

        // Space freed: the next sync stores everything, nothing was lost or doubled.
        try FileManager.default.removeItem(at: filler)
        let result = try home.sync(timeout: 60)
        XCTAssertEqual(result["complete"] as? Bool, true, "\(result)")
        let posts = try home.allPostIDs(friend.session)
        XCTAssertEqual(posts.count, 600)
        XCTAssertEqual(Set(posts).count, 600)
    }
}

/// Issue 32 (8), in the app: what arrives while the disk is full is said on the status line, the app
/// keeps answering, and once space is freed nothing is missing.
final class DiskFullAppTests: XCTestCase {
    func testTheAppSaysTheDiskIsFullKeepsRunningAndLosesNothing() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let disk = try SmallFileSystem(kilobytes: 8_192)
        defer { disk.remove() }
        let (home, friend, me) = try await disk.homeSynced(from: relay.url, posts: 50)

        let filler = try disk.fill(leaving: 64 * 1024)
        let tmux = try Tmux()
        try tmux.start("d", disk.launcher + [home.binary.path, "--home", disk.mountPoint + "/home", "--relay", relay.url],
                       environment: ["LINKSTR_PASSPHRASE": Home.passphrase])
        try tmux.waitFor("d", text: "Sessions", timeout: 30)
        try await friend.seed(relay.url, to: me, posts: 50..<400)
        let said = try tmux.waitFor("d", text: "the disk is full", timeout: 60)
        XCTAssertFalse(said.contains("Fatal error") || said.contains("Backtrace"), said)
        // Still answering.
        try tmux.keys("d", "Escape", "4")
        try tmux.waitFor("d", text: "Relays", timeout: 10)
        try tmux.keys("d", "C-c")
        _ = try? tmux.waitFor("d", "the app to quit") { !$0.contains("Relays") }

        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(try home.sync(timeout: 60)["complete"] as? Bool, true)
        let posts = try home.allPostIDs(friend.session)
        XCTAssertEqual(posts.count, 400)
        XCTAssertEqual(Set(posts).count, 400)
    }
}

/// Issue 32 (8): the log on a full disk drops lines and goes on; it used to trap (SIGILL) in
/// `FileHandle.write`, taking every command down with it.
final class LogOnAFullDiskTests: XCTestCase {
    func testLoggingToAFullDiskNeverCrashes() throws {
        let disk = try SmallFileSystem(kilobytes: 64)
        defer { disk.remove() }
        try disk.fill(leaving: 0)
        guard let file = LogFile(directory: disk.root.appendingPathComponent("state")) else {
            return XCTFail("the log file opens (creating it takes an inode, no blocks)")
        }
        let handler = FileLogHandler(label: "test", file: file, level: .info)
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .info
        for i in 0..<2_000 { logger.error("could not store incoming messages", metadata: ["batch": "\(i)"]) }
        XCTAssertGreaterThan(file.dropped, 0, "lines that did not fit were dropped, and counted")
        XCTAssertEqual(disk.freeBytes, 0)
    }
}
