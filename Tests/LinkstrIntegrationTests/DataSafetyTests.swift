import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32: where a user could lose data through the CLI (the wipe's scope).
final class DataSafetyTests: XCTestCase {
    /// Issue 32 (1): `wipe` removes linkstr's files and the directories they leave empty, nothing else:
    /// a file of the user's in the data directory (or in its config directory) stays.
    func testWipeLeavesFilesThatAreNotLinkstrs() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home("wipe-scope", relays: [relay.url])
        defer { home.remove() }
        _ = try home.createIdentity(name: "Ada")
        try home.writeConfig("link_previews = false\n")
        try home.ok(["session", "create", "Kept apart"])
        let mine = home.directory.appendingPathComponent("notes.txt")
        let nested = home.directory.appendingPathComponent("project/src/main.c")
        let inConfig = home.directory.appendingPathComponent("config/my-script.sh")
        try FileManager.default.createDirectory(at: nested.deletingLastPathComponent(), withIntermediateDirectories: true)
        for file in [mine, nested, inConfig] { try "mine".write(to: file, atomically: true, encoding: .utf8) }

        let wiped = try home.ok(["wipe", "--yes"])
        XCTAssertTrue(wiped.out.contains("wiped: 1 identity"), wiped.out)
        XCTAssertTrue(wiped.out.contains("left alone"), "says what it kept: \(wiped.out)")
        for file in [mine, nested, inConfig] {
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "mine", "\(file.path) was not linkstr's")
        }
        let left = Set(try FileManager.default.subpathsOfDirectory(atPath: home.directory.path))
        XCTAssertEqual(left, ["notes.txt", "project", "project/src", "project/src/main.c", "config", "config/my-script.sh"],
                       "only linkstr's files went")
    }

    /// Issue 32 (1): an empty `--home` (a script's unset variable) is refused before anything is touched,
    /// and a directory holding other files and no linkstr data is never adopted (nor wiped, nor chmodded).
    func testEmptyOrForeignHomeIsRefusedUntouched() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-project-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.createDirectory(at: project.appendingPathComponent("src"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try "int main(void) { return 0; }\n".write(to: project.appendingPathComponent("src/main.c"), atomically: true, encoding: .utf8)
        let binary = try TestEnvironment.builtProduct("linkstr")
        let env = ProcessInfo.processInfo.environment.merging(["LINKSTR_PASSPHRASE": Home.passphrase]) { $1 }
        // Run from inside the project, as `cd project && linkstr --home "$UNSET" …` would.
        func inProject(_ args: [String]) throws -> ProcessRunner.Result {
            try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \"$0\" && exec \"$@\"", project.path, binary.path] + args, environment: env)
        }
        func before() throws -> [String] { try FileManager.default.subpathsOfDirectory(atPath: project.path).sorted() }
        let contents = try before()

        for home in ["", "  "] {
            for args in [["wipe", "--yes"], ["session", "list"], ["identity", "create", "--kdf-cost", "10"]] {
                let r = try inProject(["--home", home] + args)
                XCTAssertEqual(r.status, 64, "usage error for --home '\(home)' \(args): \(r.stderrText)")
                XCTAssertTrue(r.stderrText.contains("--home is empty"), r.stderrText)
            }
        }
        for args in [["wipe", "--yes"], ["session", "list"], ["identity", "create", "--kdf-cost", "10"], ["sync", "--timeout", "1"]] {
            let r = try inProject(["--home", "."] + args)
            XCTAssertEqual(r.status, 74, "\(args): \(r.stderrText)")
            XCTAssertTrue(r.stderrText.contains("holds other files and no linkstr data"), r.stderrText)
        }
        XCTAssertEqual(try before(), contents, "nothing was created or removed")
        let mode = try FileManager.default.attributesOfItem(atPath: project.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o755, "the directory's mode was not changed")
    }
}
