import Foundation
import LinkstrClient
import LinkstrConfig
import XCTest

@testable import LinkstrTUI

/// `[hooks]` in config.toml (issue 51, item 2): command lines and arrays, `hooks = false`, and the
/// mistakes named.
final class HookConfigTests: XCTestCase {
    private func load(_ text: String) throws -> HookSettings {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return try ConfigFile.load(in: dir).hooks
    }

    func testHooksAreCommandLinesOrArraysAndCanBeTurnedOff() throws {
        XCTAssertTrue(try load("").isEmpty)
        let hooks = try load("[hooks]\non_post = \"notify-send 'new post' --app linkstr\"\non_request = [\"/bin/sh\", \"-c\", \"cat >> log\"]\n")
        XCTAssertEqual(hooks.commands[.onPost], ["notify-send", "new post", "--app", "linkstr"])
        XCTAssertEqual(hooks.commands[.onRequest], ["/bin/sh", "-c", "cat >> log"])
        XCTAssertNil(hooks.commands[.onSession])
        XCTAssertTrue(hooks.enabled)
        XCTAssertEqual(hooks.command(forEvent: "post")?.1, ["notify-send", "new post", "--app", "linkstr"])
        XCTAssertNil(hooks.command(forEvent: "relay"))
        XCTAssertFalse(try load("hooks = false\n").enabled)
    }

    func testMistakesAreNamed() {
        XCTAssertThrowsError(try load("[hooks]\non_mail = \"x\"\n")) { XCTAssertTrue("\($0)".contains("hooks.on_mail is not a hook"), "\($0)") }
        XCTAssertThrowsError(try load("[hooks]\non_post = \"x 'open\"\n")) { XCTAssertTrue("\($0)".contains("a quote is left open"), "\($0)") }
        XCTAssertThrowsError(try load("[hooks]\non_post = 3\n")) { XCTAssertTrue("\($0)".contains("hooks.on_post is a command line"), "\($0)") }
    }
}
