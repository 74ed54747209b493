import Foundation
import LinkstrApp
import LinkstrDomain
import Synchronization
import XCTest

@testable import LinkstrTUI

/// The UI loop itself, run against a headless terminal: real decoding, reducing, effects (a real store
/// in a temporary home, a relay that is not there) and rendering, with no tmux: onboarding to the main
/// screen, a lone Esc told from an arrow key sent in pieces, a bracketed paste, Ctrl-C.
final class HeadlessLoopTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-headless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        // The runner closes the store as the loop ends; SQLite may still be removing its -shm file.
        for attempt in 0..<3 {
            do { try FileManager.default.removeItem(at: home); return } catch where attempt < 2 { usleep(100_000) }
        }
    }

    func waitFor(_ terminal: HeadlessTerminal, _ what: String, timeout: TimeInterval = 20,
                 _ predicate: (Canvas) -> Bool) throws -> Canvas {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let frame = terminal.lastFrame, predicate(frame) { return frame }
            usleep(10_000)
        }
        throw NSError(domain: "headless", code: 1, userInfo: [NSLocalizedDescriptionKey:
            "timed out waiting for \(what); the last frame:\n" + (terminal.lastFrame?.lines.joined(separator: "\n") ?? "none")])
    }

    /// Onboarding: a new account named Ann, on to the empty session list.
    func createAccount(_ terminal: HeadlessTerminal) throws {
        try waitFor(terminal, text: "Create a new account")
        terminal.type("c")
        try waitFor(terminal, text: "A profile name others will see")
        terminal.type("Ann\r")
        try waitFor(terminal, text: "Your account is ready")
        terminal.type("\r")
        try waitFor(terminal, text: "no sessions yet. press n to start one.")
    }

    @discardableResult
    func waitFor(_ terminal: HeadlessTerminal, text: String) throws -> Canvas {
        try waitFor(terminal, "“\(text)”") { $0.lines.contains { $0.contains(text) } }
    }

    func testTheLoopFromOnboardingToQuitWithoutATerminal() throws {
        let passphraseFile = home.appendingPathComponent("passphrase")
        try "correct horse battery staple".write(to: passphraseFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
        // A relay that is not there: nothing leaves the machine.
        // The data directory inside the test's folder: linkstr adopts only an empty or linkstr directory,
        // and the passphrase file is not linkstr's.
        let options = AppOptions(home: home.appendingPathComponent("data").path, relays: ["ws://127.0.0.1:9"], passphraseFile: passphraseFile.path, theme: "night",
                                 noColor: true, linkPreviews: false)
        let terminal = HeadlessTerminal(columns: 80, rows: 24)
        let theme = try Theme.load("night", configDirectory: nil)
        let finished = DispatchSemaphore(value: 0)
        let loop = Thread { TerminalApp(options: options, theme: theme, terminal: terminal).run(); finished.signal() }
        loop.start()

        try createAccount(terminal)

        // A lone Esc is the Escape key once nothing follows it: it closes the help.
        terminal.type("?")
        try waitFor(terminal, text: "Keys · Sessions")
        terminal.type("\u{1B}")
        _ = try waitFor(terminal, "the help to close") { !$0.lines.contains { $0.contains("Keys · Sessions") } }
        // An arrow key that arrives in pieces (ESC, then "[B" 5 ms later) is still one key: the help scrolls.
        terminal.type("?")
        try waitFor(terminal, text: "1–18 of")
        terminal.type("\u{1B}")
        usleep(5_000)
        terminal.type("[B")
        try waitFor(terminal, text: "2–19 of")
        terminal.type("q")
        _ = try waitFor(terminal, "the help to close") { !$0.lines.contains { $0.contains("Keys ·") } }

        // A bracketed paste is one piece of text: into the command line, newlines and all, not as keys.
        terminal.type(":")
        terminal.type("\u{1B}[200~search\nwords q\u{1B}[201~")
        try waitFor(terminal, text: ":search words q")
        terminal.type("\u{1B}")
        _ = try waitFor(terminal, "the command line to close") { !$0.lines.contains { $0.contains(":search") } }

        // Ctrl-C quits; the loop returns.
        terminal.type("\u{03}")
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the loop ended")
        XCTAssertGreaterThan(terminal.frames.count, 5)
        let written = try FileManager.default.subpathsOfDirectory(atPath: home.path)
        XCTAssertTrue(written.contains { $0.hasSuffix("linkstr.sqlite3") }, "a real store was written: \(written)")
    }

    /// The idle lock as the loop measures it, on a clock the test moves (no real waiting): no key for
    /// `lock_after` locks the screen; the passphrase opens it again in the same pane.
    func testNoKeyForLockAfterLocksAndThePassphraseUnlocks() throws {
        let passphraseFile = home.appendingPathComponent("passphrase")
        try "correct horse battery staple".write(to: passphraseFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
        var configured = AppOptions(home: home.appendingPathComponent("data").path, relays: ["ws://127.0.0.1:9"], passphraseFile: passphraseFile.path,
                                 theme: "night", noColor: true, linkPreviews: false)
        configured.lockAfter = 15 * 60
        let options = configured
        // The clock: real until the test moves it on (by `skipped`).
        let skipped = Mutex<Duration>(.zero)
        let live = TimeSource.live
        let time = TimeSource(wallSeconds: { live.wallSeconds() + Int64(skipped.withLock { $0 }.components.seconds) },
                              monotonic: { live.monotonic() + skipped.withLock { $0 } }, sleep: live.sleep)
        let terminal = HeadlessTerminal(columns: 80, rows: 24)
        let finished = DispatchSemaphore(value: 0)
        let loop = Thread {
            TerminalApp(options: options, theme: try! Theme.load("night", configDirectory: nil), terminal: terminal, time: time).run()
            finished.signal()
        }
        loop.start()
        try createAccount(terminal)
        terminal.type("4")
        try waitFor(terminal, text: "Relays")

        // Fourteen minutes without a key: still open. Sixteen: locked, nothing of the account shown.
        skipped.withLock { $0 = .seconds(14 * 60) }
        usleep(300_000)
        XCTAssertTrue(terminal.lastFrame?.lines.contains { $0.contains("Relays") } ?? false, "not yet")
        skipped.withLock { $0 = .seconds(16 * 60) }
        let locked = try waitFor(terminal, text: "linkstr is locked")
        XCTAssertFalse(locked.lines.contains { $0.contains("npub1") || $0.contains("Relays") || $0.contains("Ann") }, locked.lines.joined(separator: "\n"))
        terminal.type("correct horse battery staple\r")
        let back = try waitFor(terminal, "Settings again") { $0.lines.contains { $0.contains("Relays") } }
        XCTAssertFalse(back.lines.contains { $0.contains("linkstr is locked") })
        terminal.type("\u{03}")
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
    }
}
