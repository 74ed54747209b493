import Foundation
import XCTest

@testable import LinkstrStorage

/// A program stopped with what it started: its grandchildren go too, and its end is seen at once
/// (Foundation waits for every holder of the child's status pipe).
final class ChildProcessTests: XCTestCase {
    func testKillingAChildTakesItsChildrenAndItsEndIsSeen() throws {
        // Durations no other process here sleeps: they mark the grandchildren in /proc.
        let seconds = 6_000 + Int.random(in: 0..<999)
        let marker = "sleep\u{0}\(seconds)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep \(seconds) & sleep \(seconds); wait"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        usleep(200_000)
        XCTAssertEqual(count(marker), 2, "its two children run")
        ChildProcess.kill(process.processIdentifier)
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "its end is seen, not after its children's 60 s")
        for _ in 0..<50 where count(marker) > 0 { usleep(20_000) }
        XCTAssertEqual(count(marker), 0, "nothing it started is left")
    }

    /// Processes whose command line holds `marker` (read from /proc).
    private func count(_ marker: String) -> Int {
        let fm = FileManager.default
        guard let pids = try? fm.contentsOfDirectory(atPath: "/proc") else { return 0 }
        return pids.filter { pid in
            guard Int(pid) != nil, let data = fm.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(marker)
        }.count
    }
}
