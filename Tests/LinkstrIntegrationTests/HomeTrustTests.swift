import Foundation
import LinkstrStorage
import LinkstrTestSupport
import XCTest

/// Issue 53 (6.3): a home owned by another user was adopted (only chmodded to 0700): that user could
/// chmod it back and plant `config/config.toml` with a `player` of their own, run as us. Now, as ssh does
/// for `~/.ssh`, a home, config file, key file or theme that another user owns or can write is refused
/// with the reason, and left untouched. (Files of another owner can only be made as root, as CI and this
/// machine run; the mode cases run for anyone.)
final class HomeTrustTests: XCTestCase {
    private let nobody: uid_t = 65534

    private func mode(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1 }

    func testFilesOthersCanWriteAreRefusedWithTheReason() throws {
        let home = try Home("trust-modes", relays: [])
        defer { home.remove() }
        _ = try home.createIdentity()
        let config = home.directory.appendingPathComponent("config/config.toml").path
        XCTAssertEqual(chmod(config, 0o666), 0)
        let run = try home.run(["session", "list"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.err.contains("\(config) can be written by other users (mode 666); make it yours alone (chmod go-w \(config))"), run.err)
        XCTAssertEqual(chmod(config, 0o644), 0)
        XCTAssertEqual(try home.run(["session", "list"]).status, 0)

        let theme = home.directory.appendingPathComponent("config/themes")
        try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
        let night = theme.appendingPathComponent("tokyo-night-night.toml").path
        try String(contentsOfFile: TestEnvironment.projectRoot.appendingPathComponent("themes/tokyo-night-night.toml").path, encoding: .utf8)
            .write(toFile: night, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(night, 0o666), 0)
        let tmux = try Tmux()
        try home.startApp(tmux, "t", relay: nil)
        let screen = try tmux.waitFor("t", text: "can be written by other users", timeout: 20)
        XCTAssertTrue(screen.contains("tokyo-night-night.toml"), screen)
    }

    func testAnotherUsersHomeConfigOrKeyIsRefusedUntouched() throws {
        // Files of another owner can only be made as root (CI and the project machines run as root); as
        // anyone else this test checks what it can: a home in a directory root owns is refused.
        guard geteuid() == 0 else {
            XCTAssertNil(FileTrust.distrust("/etc"), "root's, as installed themes are")
            XCTAssertEqual(FileTrust.distrust("/etc", allowRoot: false), "/etc belongs to another user (uid 0); linkstr uses only files and directories of yours: change its owner (chown) or choose another place")
            return
        }
        // A home another user owns: refused, its mode left as it was (it was chmodded to 0700 and adopted).
        let theirs = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-theirs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: theirs) }
        XCTAssertEqual(chown(theirs.path, nobody, nobody), 0)
        let adopted = try Home(directory: theirs.appendingPathComponent("home"), relays: [])
        try FileManager.default.removeItem(at: adopted.directory)  // Home wrote a config: start from an empty home of theirs
        try FileManager.default.createDirectory(at: adopted.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(chown(adopted.directory.path, nobody, nobody), 0)
        let refused = try adopted.run(["identity", "create", "--kdf-cost", "10"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.err.contains("\(adopted.directory.path) belongs to another user (uid 65534)"), refused.err)
        XCTAssertEqual(mode(adopted.directory.path), 0o755, "left untouched")

        // Our home, with a config file or a key file another user planted.
        let home = try Home("trust-owner", relays: [])
        defer { home.remove() }
        _ = try home.createIdentity()
        let config = home.directory.appendingPathComponent("config/config.toml").path
        try "player = \"/tmp/not-yours\"\nindexer_relays = []\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertEqual(chown(config, nobody, nobody), 0)
        let planted = try home.run(["session", "list"])
        XCTAssertNotEqual(planted.status, 0)
        XCTAssertTrue(planted.err.contains("\(config) belongs to another user (uid 65534)"), planted.err)
        XCTAssertEqual(chown(config, 0, 0), 0)
        XCTAssertEqual(try home.run(["session", "list"]).status, 0)

        let keys = try FileManager.default.contentsOfDirectory(atPath: home.directory.appendingPathComponent("identities").path)
            .filter { $0.hasSuffix(".ncryptsec") }
        let key = home.directory.appendingPathComponent("identities/\(try XCTUnwrap(keys.first))").path
        XCTAssertEqual(chown(key, nobody, nobody), 0)
        let unlocked = try home.run(["session", "list"])
        XCTAssertNotEqual(unlocked.status, 0)
        XCTAssertTrue(unlocked.err.contains("\(key) belongs to another user (uid 65534)"), unlocked.err)
    }
}
