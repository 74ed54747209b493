import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (11): a crash must leave no core file (it held the raw key and the feed), and a fatal signal
/// (a crash, or someone's `kill -SEGV`) must restore the terminal, release the data lock and end the
/// process. Before, the Swift backtracer painted over the screen and waited there with the lock held.
/// What is left is a report without secrets: the signal and the crashed thread's return addresses.
final class FatalSignalTests: XCTestCase {
    func testAFatalSignalRestoresTheTerminalReleasesTheLockAndLeavesNoCore() throws {
        let tmux = try Tmux()
        let home = try Home.forApp("fatal", relay: "ws://127.0.0.1:\(try TestRelay.freePort())")
        defer { home.remove() }
        for (index, signal) in [SIGSEGV, SIGABRT].enumerated() {
            let window = "f\(index)"
            let command = ["'\(home.binary.path)'", "--home", "'\(home.directory.path)'", "--relay", "'\(home.relays[0])'"].joined(separator: " ")
            try tmux.start(window, ["/bin/sh", "-c", "\(command); echo exit=$?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo"],
                           environment: ["LINKSTR_PASSPHRASE": Home.passphrase])
            try tmux.waitFor(window, text: "no sessions yet", timeout: 30)
            let pid = try XCTUnwrap(Int32(String(contentsOf: home.directory.appendingPathComponent("lock"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            // No core: a limit of 0, and the process is not dumpable (its /proc files belong to root then).
            let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
            let core = try XCTUnwrap(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
            XCTAssertEqual(core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2), ["0", "0"], String(core))
            XCTAssertTrue(try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).contains("TracerPid:\t0"))
            // The lock is held while the app runs: a writing command is refused.
            let stranger = String(repeating: "ab", count: 32)
            XCTAssertTrue(try home.run(["contacts", "remove", stranger]).err.contains("another linkstr (pid \(pid))"))

            XCTAssertEqual(kill(pid, signal), 0)
            let screen = try tmux.waitFor(window, text: "exit=")
            XCTAssertTrue(screen.contains("exit=\(128 + signal)"), screen)
            XCTAssertTrue(screen.contains("linkstr: stopped by a fatal signal; the terminal was restored"), screen)
            // What places the crash, and nothing else: the signal and return addresses in our binary.
            XCTAssertTrue(screen.contains("linkstr: signal \(signal); return addresses (for a bug report):"), screen)
            XCTAssertTrue(screen.contains("/linkstr(+0x"), screen)
            XCTAssertFalse(screen.contains("Sessions") || screen.contains("Backtrace") || screen.contains("💣"), "the app's screen is gone, no backtrace: \(screen)")
            XCTAssertTrue(screen.contains("icanon echo"), "the terminal's modes are back: \(screen)")
            // The lock went with the process: the next command runs.
            let after = try home.run(["contacts", "remove", stranger])
            XCTAssertFalse(after.err.contains("another linkstr"), after.err)
            XCTAssertEqual(try home.run(["contacts", "list"]).status, 0)
            try tmux.tmux(["kill-session", "-t", window])
        }
    }
}
