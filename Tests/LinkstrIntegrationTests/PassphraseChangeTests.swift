import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 50 (3): the passphrase could not be changed at all. `linkstr identity passphrase` re-encrypts the
/// key file under a new one (the old refused after, the new one works), refuses a weak one unless told,
/// and a SIGKILL at any moment of the change leaves a key file that one of the two passphrases opens.
final class PassphraseChangeTests: XCTestCase {
    func testChangingThePassphraseAndKillingTheChangeAtTenPoints() throws {
        let home = try Home("passphrase-change", relays: [])
        defer { home.remove() }
        let npub = try home.createIdentity().npub
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-new-passphrase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { removeTemporary(files) }
        func file(_ passphrase: String) throws -> String {
            let url = files.appendingPathComponent(UUID().uuidString)
            try (passphrase + "\n").write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        func opens(_ passphrase: String) throws -> Bool { try home.run(["session", "list"], passphrase: passphrase).status == 0 }
        let second = "a much better passphrase 2026"

        let weak = try home.run(["identity", "passphrase", "--new-passphrase-file", try file("short")])
        XCTAssertEqual(weak.status, 65, weak.err)
        XCTAssertEqual(weak.err, "linkstr: that new passphrase is weak: it is shorter than 8 characters. Choose a longer one, or add --allow-weak.\n")
        let common = try home.run(["identity", "passphrase", "--new-passphrase-file", try file("Password123")])
        XCTAssertTrue(common.err.contains("it is one of the most common passwords"), common.err)
        XCTAssertTrue(try opens(Home.passphrase), "nothing changed")

        let changed = try home.run(["identity", "passphrase", "--new-passphrase-file", try file(second), "--json"])
        XCTAssertEqual(changed.status, 0, changed.err)
        XCTAssertEqual((try changed.json() as? [String: Any])?["npub"] as? String, npub)
        XCTAssertFalse(try opens(Home.passphrase), "the old one no longer opens it")
        XCTAssertTrue(try opens(second))
        let wrong = try home.run(["identity", "passphrase", "--new-passphrase-file", try file("yet another good one")], passphrase: "not it")
        XCTAssertEqual(wrong.status, 65, wrong.err)
        XCTAssertTrue(try opens(second), "a wrong current passphrase changes nothing")
        let allowed = try home.run(["identity", "passphrase", "--new-passphrase-file", try file("short"), "--allow-weak"], passphrase: second)
        XCTAssertEqual(allowed.status, 0, allowed.err)

        // Killed at ten moments of a change from "short" to `second` (the scrypt of both, then the file).
        let timing = Date()
        XCTAssertEqual(try home.run(["identity", "passphrase", "--new-passphrase-file", try file(second)], passphrase: "short").status, 0)
        let whole = Date().timeIntervalSince(timing)
        var current = second, other = "short"
        for point in 0..<10 {
            let target = try file(other)
            let process = Process()
            process.executableURL = home.binary
            process.arguments = ["--home", home.directory.path, "identity", "passphrase", "--new-passphrase-file", target, "--allow-weak"]
            process.environment = ProcessInfo.processInfo.environment.merging(["LINKSTR_PASSPHRASE": current]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(whole * Double(point + 1) / 10 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let oldOpens = try opens(current), newOpens = try opens(other)
            XCTAssertTrue(oldOpens != newOpens, "point \(point): exactly one of the two opens it (old \(oldOpens), new \(newOpens))")
            if newOpens { swap(&current, &other) }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.directory.appendingPathComponent("identities").path)
                .filter { $0.contains(".partial-") }
            XCTAssertLessThanOrEqual(leftovers.count, 1, "point \(point): \(leftovers)")
        }
    }
}
