import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// A child process ingests 10,000 messages (one transaction per batch of 50) and is killed with SIGKILL
/// at random moments. After every kill the database passes `integrity_check`, holds exactly a whole
/// number of batches (never half a change), and shows exactly the state those batches produce; the
/// final run ends in the state of a clean run.
final class CrashRecoveryTests: StorageTestCase {
    func testSIGKILLNeverLeavesHalfAChange() throws {
        let worker = try TestEnvironment.builtProduct("linkstr-ingest-worker")
        let seed = ProcessInfo.processInfo.environment["LINKSTR_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...1_000_000)
        let count = 10_000, batch = 50, killsWanted = 20
        let me = SecretKey.generate(using: SeededRandom(seed: seed))
        let messages = ScenarioGenerator.stream(count: count, seed: seed, me: me.publicKey.hex)
        let batches = stride(from: 0, to: count, by: batch).map { Array(messages[$0..<min($0 + batch, count)]) }
        // Distinct wrap ids after k batches, to tell how many batches a database holds.
        var seen = Set<String>(), processedAfter = [0]
        for b in batches { seen.formUnion(b.flatMap(\.wrapIDs)); processedAfter.append(seen.count) }

        // The reference advances batch by batch as the committed prefix grows.
        var reference = AccountState(me: me.publicKey.hex)
        var referenceBatches = 0
        func referenceState(batches k: Int) throws -> VisibleState {
            precondition(k >= referenceBatches)
            while referenceBatches < k {
                for m in batches[referenceBatches] { _ = try reference.ingest(m) }
                referenceBatches += 1
            }
            return reference.visibleState
        }

        var rng = SplitMix(seed: seed)
        var kills = 0, runs = 0, committedBefore = 0
        while kills < killsWanted {
            runs += 1
            XCTAssertLessThan(runs, 3 * killsWanted, "the worker keeps finishing before it can be killed")
            if runs >= 3 * killsWanted { return }
            let process = Process()
            process.executableURL = worker
            process.arguments = [paths.home.path, String(seed), String(count), String(batch)]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Let it commit a random number of batches, then kill it a random instant later, mid-write.
            let target = 1 + Int(rng.next() % UInt64(batches.count - 1))
            var buffer = ""
            while process.isRunning, !buffer.contains("committed \(target)\n") {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                buffer += String(decoding: data, as: UTF8.self)
            }
            usleep(UInt32(rng.next() % 15_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()

            let local = try LocalStore(paths: paths)
            XCTAssertEqual(try local.db.scalar("PRAGMA integrity_check").text, "ok", "kill \(kills)")
            let store = try local.account(me, now: 1)
            let processed = try store.processedWrapCount()
            guard let k = processedAfter.firstIndex(of: processed) else {
                return XCTFail("kill \(kills): \(processed) processed wraps is not a whole number of batches (seed \(seed))")
            }
            XCTAssertGreaterThanOrEqual(k, committedBefore, "committed batches never go back")
            committedBefore = k
            if let diff = try store.visibleState().difference(from: try referenceState(batches: k)) {
                return XCTFail("kill \(kills) after \(k) batches (seed \(seed)): \(diff)")
            }
        }

        // Re-ingesting everything ends in the state of a clean run.
        let result = try ProcessRunner.run(worker, [paths.home.path, String(seed), String(count), String(batch)], timeout: 600)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let local = try LocalStore(paths: paths)
        XCTAssertEqual(try local.db.scalar("PRAGMA integrity_check").text, "ok")
        let store = try local.account(me, now: 1)
        XCTAssertEqual(try store.processedWrapCount(), processedAfter.last)
        if let diff = try store.visibleState().difference(from: try referenceState(batches: batches.count)) { XCTFail("final (seed \(seed)): \(diff)") }
        print("crash recovery: \(kills) SIGKILLs over \(runs) runs of \(count) messages (seed \(seed)); every restart consistent")
    }
}
