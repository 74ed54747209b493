import Foundation
import XCTest

@testable import LinkstrConfig
@testable import LinkstrTUI

/// Issue 32 (10): `[[` (and `a = [}`, `[#`…) in config.toml, keys.toml or a theme aborted the process in
/// toml++ (an assertion, SIGABRT). linkstr now reads TOML itself (`TOMLParser`): every bad file is an
/// error naming file, line and column. An abort here would end this test process, which fails the run.
final class TOMLParserTests: XCTestCase {
    func place(_ text: String) -> String {
        do { _ = try TOMLFile.parse(text, source: "t.toml"); return "parsed" } catch { return error.description }
    }

    func testEveryInputThatAbortedToml_ppIsAnErrorWithFileLineAndColumn() {
        let cases: [(String, String)] = [
            ("[[", "t.toml:1:3: expected a key"),
            ("[", "t.toml:1:2: expected a key"),
            ("x = 1\n[[\n", "t.toml:2:3: expected a key"),
            ("[[ #", "t.toml:1:4: expected a key"),
            ("[=]", "t.toml:1:2: expected a key"),
            ("a = [}", "t.toml:1:6: expected a value, found '}'"),
            ("1=[[}[[1", "t.toml:1:5: expected a value, found '}'"),
            ("a=[\n}\u{0}\nb.c{\"", "t.toml:2:1: expected a value, found '}'"),
            ("a = \"\"\"\n\"\"\"\n[ \t.", "t.toml:3:4: expected a key"),
            ("name = unquoted", "t.toml:1:8: unquoted is not a value: strings need quotes (\"unquoted\")"),
            ("[roles]\ntext = \"#fff", "t.toml:2:8: this string is not closed"),
            ("a = 1\na = 2", "t.toml:2:1: a is defined twice"),
            ("[a]\n[a]", "t.toml:2:1: [a] is defined twice"),
            ("é = 1", "t.toml:1:1: expected a key (letters, digits, - and _, or a quoted name), found a non-ASCII character"),
            ("k = \"😀\" x", "t.toml:1:9: expected a line end after a value, found 'x'"),
        ]
        for (text, expected) in cases {
            XCTAssertTrue(place(text).hasPrefix(expected), "\(text.debugDescription): \(place(text))")
        }
    }

    func testTheGrammarLinkstrsFilesUse() throws {
        let text = """
        # a comment
        theme = 'moon' # literal
        [roles]
        text = "#ffffff"
        avatars = [ "#1", '#2',
          "#3", # a comment in an array
        ]
        [keys."quoted key"]
        a.b = "dotted"
        [[list]]
        x = 1
        [[list]]
        x = 2
        [misc]
        m = \"\"\"
        one \\
          two\"\"\"
        t = { a = ["[", '['], b = { c = true } }
        when = 1979-05-27 07:32:00Z
        n = -0x0 # not a valid number
        """
        XCTAssertTrue(place(text).hasPrefix("t.toml:20:5: -0x0 is not"), place(text))
        let file = try TOMLFile.parse(text.replacingOccurrences(of: "n = -0x0", with: "n = 0x1_F"), source: "t.toml")
        XCTAssertEqual(try file.string("theme"), "moon")
        XCTAssertEqual(try file.table("roles").strings("avatars"), ["#1", "#2", "#3"])
        XCTAssertEqual(try file.table("keys").table("quoted key").table("a").string("b"), "dotted")
        XCTAssertEqual(file.table["list"], .array([.table(["x": .integer(1)]), .table(["x": .integer(2)])]))
        let misc = try file.table("misc")
        XCTAssertEqual(try misc.string("m"), "one two")
        XCTAssertEqual(misc.table["t"], .table(["a": .array([.string("["), .string("[")]), "b": .table(["c": .bool(true)])]))
        XCTAssertEqual(misc.table["when"], .datetime("1979-05-27 07:32:00Z"))
        XCTAssertEqual(misc.table["n"], .integer(31))
    }

    func testEscapesAndTheirMistakes() {
        XCTAssertEqual(try TOMLParser.parse(#"s = "a\tb\u00e9\U0001F600\"\\""#)["s"], .string("a\tbé😀\"\\"))
        XCTAssertTrue(place(#"s = "\x41""#).hasPrefix("t.toml:1:6: \\x is not an escape"), place(#"s = "\x41""#))
        XCTAssertTrue(place(#"s = "\uD800""#).hasPrefix("t.toml:1:6: \\u names no Unicode character"), place(#"s = "\uD800""#))
        XCTAssertTrue(place("s = \"a\u{1}b\"").contains("control character"))
    }

    /// Deep nesting is an error, not a stack overflow.
    func testDeepNestingIsRefused() {
        XCTAssertTrue(place("a = " + String(repeating: "[", count: 100_000)).contains("nested more than 100 deep"))
        XCTAssertTrue(place("a = " + String(repeating: "{b=", count: 10_000)).contains("nested more than 100 deep"))
        XCTAssertEqual(place("a = " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)), "parsed")
    }

    /// Random files from TOML's own punctuation and a few words: each parses or throws, none aborts.
    func testRandomTOMLNeverAbortsTheProcess() {
        let pieces = ["[", "[[", "]", "]]", "\n", " ", "\t", "#", "=", "a", "b.c", "\"", "'", "\"\"\"", "'''", "{", "}", ",", "1", "true",
                      "\"x\"", "'y'", "\\", "\r\n", "\r", "-", "_", ".", "é", "😀", "\u{0}", "1979-05-27", "T", ":", "0x", "e", "+"]
        var rng = SystemRandomNumberGenerator()
        var parsed = 0, refused = 0
        for _ in 0..<30_000 {
            let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            do { _ = try TOMLFile.parse(text, source: "f.toml"); parsed += 1 } catch {
                XCTAssertTrue(error.description.hasPrefix("f.toml:"), error.description)
                refused += 1
            }
        }
        XCTAssertGreaterThan(parsed, 0)
        XCTAssertGreaterThan(refused, 0)
    }

    /// `[[` in each file linkstr reads: an error naming that file and line, from the loader itself.
    func testABadHeaderInEachFileIsNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-toml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("themes"), withIntermediateDirectories: true)
        defer { XCTAssertNoThrow(try FileManager.default.removeItem(at: dir)) }
        let bad = "# mine\n[[\n"
        try bad.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigFile.load(in: dir)) { XCTAssertTrue("\($0)".hasSuffix("config.toml:2:3: expected a key (letters, digits, - and _, or a quoted name), found a line end"), "\($0)") }
        try bad.write(to: dir.appendingPathComponent("keys.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try KeymapFile.load(in: dir)) { XCTAssertTrue("\($0)".contains("keys.toml:2:3: expected a key"), "\($0)") }
        try bad.write(to: dir.appendingPathComponent("themes/tokyo-night-night.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Theme.load("night", configDirectory: dir)) { XCTAssertTrue("\($0)".contains("tokyo-night-night.toml:2:3: expected a key"), "\($0)") }
    }
}
