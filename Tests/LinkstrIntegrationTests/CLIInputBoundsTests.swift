import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 32 (13): every read is bounded and every input mistake gets words. Before: a closed standard
/// input trapped (exit 132), `/dev/zero` was read forever, a passphrase file ending in `\r\n` was wrong,
/// `--limit -1` said "Missing value", an unreadable key file was "no such identity", and your own npub
/// became your contact.
final class CLIInputBoundsTests: XCTestCase {
    func sh(_ home: Home, _ script: String, environment: [String: String] = [:]) throws -> ProcessRunner.Result {
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["LINKSTR_PASSPHRASE"] = Home.passphrase
        env["L"] = home.binary.path
        env["H"] = home.directory.path
        return try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: env, timeout: 60)
    }

    func testClosedAndEndlessInputsAreRefusedInWords() throws {
        let home = try Home("bounds", relays: ["ws://127.0.0.1:\(try TestRelay.freePort())"])
        defer { home.remove() }
        var r = try sh(home, #""$L" --home "$H" identity import --kdf-cost 10 <&-"#)
        XCTAssertEqual(r.status, 65, r.stderrText)
        XCTAssertEqual(r.stderrText, "linkstr: no key on standard input: pipe an nsec, a 64-hex key or an ncryptsec into linkstr identity import.\n")
        r = try sh(home, #""$L" --home "$H" identity import --kdf-cost 10 </dev/zero"#)
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderrText, "linkstr: the key on standard input holds more than 64 KiB; it is not what linkstr expects there.\n")
        let (_, me) = try home.createIdentity()
        let session = try XCTUnwrap(String(repeating: "a", count: 32))
        r = try sh(home, #""$L" --home "$H" post "# + session + #" https://example.com --note-file - <&-"#)
        XCTAssertNotEqual(r.status, 132, "no trap on a closed standard input")
        XCTAssertFalse(r.stderrText.contains("Fatal") || r.stderrText.contains("Backtrace"), r.stderrText)
        r = try sh(home, #"head -c 300000 /dev/zero | tr '\0' 'x' | "$L" --home "$H" post "# + session + #" https://example.com --note-file -"#)
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderrText.contains("the note on standard input holds more than 127 KiB"), r.stderrText)

        // A passphrase file: only its first line, \n or \r\n; /dev/zero is refused, not read forever.
        let file = home.directory.appendingPathComponent("pass.txt")
        try Data((Home.passphrase + "\r\nsecond line\n").utf8).write(to: file)
        r = try sh(home, #""$L" --home "$H" --passphrase-file "$F" identity export-secret --yes"#, environment: ["F": file.path])
        XCTAssertEqual(r.status, 0, "a Windows line end is not part of the passphrase: \(r.stderrText)")
        XCTAssertTrue(r.stdoutText.hasPrefix("nsec1"))
        r = try sh(home, #""$L" --home "$H" --passphrase-file /dev/zero identity export-secret --yes"#)
        XCTAssertEqual(r.status, 74)
        XCTAssertTrue(r.stderrText.contains("the passphrase file /dev/zero holds more than 64 KiB"), r.stderrText)

        // --limit -1 says what is wrong with it.
        r = try sh(home, #""$L" --home "$H" posts "# + session + #" --limit -1"#)
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderrText.contains("the limit must be a whole number, 0 or more (got \"-1\")"), r.stderrText)
        XCTAssertFalse(r.stderrText.contains("Missing value"))

        // Your own key is not a contact (refused before any relay is asked).
        for form in [me, try home.ok(["identity", "show"]).out.split(separator: "\n")[0].description] {
            let own = try home.run(["contacts", "add", form])
            XCTAssertEqual(own.status, 65)
            XCTAssertEqual(own.err, "linkstr: that is your own key; contacts are other people.\n")
        }

        // An unreadable key file is named with its reason, not called missing.
        let keyFile = home.directory.appendingPathComponent("identities/\(me).ncryptsec")
        let saved = try Data(contentsOf: keyFile)
        try FileManager.default.removeItem(at: keyFile)
        try FileManager.default.createDirectory(at: keyFile, withIntermediateDirectories: false)
        r = try sh(home, #""$L" --home "$H" identity export-secret --yes"#)
        XCTAssertEqual(r.status, 74)
        XCTAssertTrue(r.stderrText.contains("cannot read the key file \(keyFile.path): Is a directory"), r.stderrText)
        try FileManager.default.removeItem(at: keyFile)
        try saved.write(to: keyFile)
    }
}
