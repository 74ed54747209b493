import Foundation
import LinkstrDomain
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrClient

/// The hook runner with real processes (issue 51, item 2): at most 4 at once, a hook over its time
/// killed and said once, a clean environment, nothing for restored history or our own session.
final class HookRunnerTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hook-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func script(_ name: String, _ body: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        return url.path
    }

    private func post(_ id: String, author: String = "b") -> JSONValue {
        .object(JSONObject([("type", .string("post")), ("id", .string(id)), ("author", .string(author))]))
    }

    func testAtMostFourRunAtOnceAndEveryOneRuns() async throws {
        let log = directory.appendingPathComponent("log")
        let hook = try script("slow", "cat > /dev/null; sleep 0.4; echo done >> '\(log.path)'")
        let runner = HookRunner(settings: HookSettings(commands: [.onPost: [hook]]), say: { _ in })
        await runner.handle((0..<6).map { post("p\($0)") }, me: "a", restoringHistory: false)
        var most = 0
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            most = max(most, await runner.runningCount)
            if await runner.stats.finished == 6 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(most, HookRunner.maxRunning)
        XCTAssertEqual(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count, 6)
        let stats = await runner.stats
        XCTAssertEqual(stats.started, 6)
        XCTAssertEqual(stats.failed, 0)
    }

    func testAHookOverItsTimeIsKilledAndSaidOnce() async throws {
        let hook = try script("stuck", "sleep 60")
        let said = Mutex([String]())
        let runner = HookRunner(settings: HookSettings(commands: [.onPost: [hook]]), timeout: .milliseconds(300), say: { w in said.withLock { $0.append(w) } })
        let started = ContinuousClock.now
        await runner.handle([post("p1"), post("p2")], me: "a", restoringHistory: false)
        await runner.finish()
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "killed, not waited for")
        let stats = await runner.stats
        XCTAssertEqual(stats.killed, 2)
        XCTAssertEqual(said.withLock { $0 }, ["hook on_post ran over 300 ms and was stopped."])
    }

    func testTheEnvironmentIsCleanAndTheEventIsOnStandardInput() async throws {
        let out = directory.appendingPathComponent("out")
        let hook = try script("env", "env > '\(out.path).env'; cat > '\(out.path)'")
        let runner = HookRunner(settings: HookSettings(commands: [.onPost: [hook]]),
                                environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "LINKSTR_PASSPHRASE": "secret", "NOSTR_NSEC": "nsec1x"], say: { _ in })
        await runner.handle([post("p1")], me: "a", restoringHistory: false)
        await runner.finish()
        let env = try String(contentsOf: URL(fileURLWithPath: out.path + ".env"), encoding: .utf8)
        XCTAssertTrue(env.contains("LINKSTR_HOOK=on_post"))
        XCTAssertFalse(env.contains("secret") || env.contains("nsec1x"), env)
        let input = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
        XCTAssertEqual(input?["id"] as? String, "p1")
    }

    func testNothingRunsForRestoredHistoryOurOwnSessionsOrWhenOff() async throws {
        let log = directory.appendingPathComponent("log")
        let hook = try script("rec", "cat >> '\(log.path)'")
        let settings = HookSettings(commands: [.onPost: [hook], .onSession: [hook]])
        let runner = HookRunner(settings: settings, say: { _ in })
        await runner.handle([post("p1")], me: "a", restoringHistory: true)
        let ours = JSONValue.object(JSONObject([("type", .string("session")), ("change", .string("renamed")), ("creator", .string("a"))]))
        await runner.handle([ours], me: "a", restoringHistory: false)
        let off = HookRunner(settings: HookSettings(commands: [.onPost: [hook]], enabled: false), say: { _ in })
        await off.handle([post("p2")], me: "a", restoringHistory: false)
        await runner.finish()
        await off.finish()
        XCTAssertFalse(FileManager.default.fileExists(atPath: log.path), "no hook ran")
        XCTAssertNotEqual(settings.fingerprint, HookSettings(commands: [.onPost: [hook, "x"]]).fingerprint, "a changed hook asks again")
    }
}
