import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrConfig
@testable import LinkstrTUI

/// Terminal input decoding (bracketed paste, escape sequences), themes and colour mapping, display widths.
final class InputDecoderTests: XCTestCase {
    func feed(_ text: String, into d: inout InputDecoder) -> [InputDecoder.Event] {
        text.flatMap { d.feed(.character($0)) }
    }

    func testBracketedPasteArrivesAsOneEventWithItsNewlines() {
        var d = InputDecoder()
        XCTAssertEqual(feed("\u{1B}[200~https://x.example\nnote\u{1B}[201~", into: &d), [.paste("https://x.example\nnote")])
        XCTAssertFalse(d.hasPending)
        // Keys inside a paste are text, never commands; ncurses key codes during a paste are dropped.
        XCTAssertEqual(feed("\u{1B}[200~q", into: &d), [])
        XCTAssertEqual(d.feed(.keyCode(0o402)), [])
        XCTAssertTrue(d.isPasting)
        XCTAssertEqual(d.flush(), [], "a timeout never ends a paste")
        XCTAssertEqual(feed("\u{1B}[A\u{1B}[201~", into: &d), [.paste("q\u{1B}[A")])
    }

    func testAPasteSplitAcrossReadsStillCompletes() {
        var d = InputDecoder()
        XCTAssertEqual(feed("\u{1B}[20", into: &d), [])
        XCTAssertTrue(d.hasPending)
        XCTAssertEqual(feed("0~abc\u{1B}[2", into: &d), [])
        XCTAssertEqual(feed("01~x", into: &d), [.paste("abc"), .key(.char("x"))])
    }

    func testAHugePasteIsBoundedAndStillEnds() {
        var d = InputDecoder()
        _ = feed("\u{1B}[200~", into: &d)
        for _ in 0..<(1 << 21) / 64 { _ = feed(String(repeating: "a", count: 64), into: &d) }
        let out = feed("\u{1B}[201~", into: &d)
        guard case .paste(let text)? = out.first else { return XCTFail("the paste ends") }
        XCTAssertLessThanOrEqual(text.utf8.count, 1 << 20)
    }

    func testEscapeSequencesAltKeysAndALoneEscape() {
        var d = InputDecoder()
        XCTAssertEqual(feed("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[5~\u{1B}[6~\u{1B}[Z\u{1B}[3~", into: &d),
                       [.key(.up), .key(.down), .key(.right), .key(.left), .key(.pageUp), .key(.pageDown), .key(.backTab), .key(.delete)])
        XCTAssertEqual(feed("\u{1B}x", into: &d), [.key(.escape), .key(.char("x"))])
        XCTAssertEqual(feed("\u{1B}", into: &d), [])
        XCTAssertEqual(d.flush(), [.key(.escape)])
        // An unknown sequence is dropped rather than typed.
        XCTAssertEqual(feed("\u{1B}[99;99Qz", into: &d), [.key(.char("z"))])
        // Focus events (DECSET 1004), between keys; ESC O as SS3 still makes keys.
        XCTAssertEqual(feed("a\u{1B}[Ob\u{1B}[I\u{1B}OA", into: &d), [.key(.char("a")), .focus(false), .key(.char("b")), .focus(true), .key(.up)])
    }

    func testControlKeysAndNcursesKeyCodes() {
        var d = InputDecoder()
        XCTAssertEqual(feed("\r\t\u{7F}\u{03}\u{16}a", into: &d),
                       [.key(.enter), .key(.tab), .key(.backspace), .key(.ctrl("c")), .key(.ctrl("v")), .key(.char("a"))])
        XCTAssertEqual(d.feed(.keyCode(0o403)), [.key(.up)])
        XCTAssertEqual(d.feed(.keyCode(0o523)), [.key(.pageUp)])
        XCTAssertEqual(d.feed(.keyCode(0o541)), [.key(.backTab)])
        XCTAssertEqual(d.feed(.keyCode(0o412)), [.key(.function(2))])
        XCTAssertEqual(feed("é🎉", into: &d), [.key(.char("é")), .key(.char("🎉"))])
    }
}

final class ThemeAndWidthTests: XCTestCase {
    func testAllFourTokyoNightThemesLoadFromTheThemesDirectory() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("themes")
        var backgrounds = Set<RGB>()
        for variant in Theme.names {
            let text = try String(contentsOf: dir.appendingPathComponent("tokyo-night-\(variant).toml"), encoding: .utf8)
            let theme = try Theme.parse(text, source: variant)
            XCTAssertTrue(theme.name.lowercased().contains(variant), theme.name)
            for role in Role.allCases { XCTAssertNotNil(theme.foreground[role], "\(variant) colours \(role)") }
            backgrounds.insert(theme.background)
        }
        XCTAssertEqual(backgrounds.count, 4, "each variant has its own background")
        XCTAssertEqual(try Theme.load("night", configDirectory: nil).background, RGB(hex: "#1a1b26"))
        XCTAssertThrowsError(try Theme.load("solarized", configDirectory: nil)) { XCTAssertTrue("\($0)".contains("night, storm, moon, day")) }
    }

    func testBrokenThemeFilesSayWhatIsWrong() {
        XCTAssertThrowsError(try Theme.parse("name = \"x\"\n[roles]\ntext = \"#zzzzzz\"", source: "t.toml")) { XCTAssertTrue("\($0)".contains("t.toml")) }
        XCTAssertThrowsError(try TOMLFile.parse("[palette\n", source: "t.toml")) { XCTAssertTrue("\($0)".hasPrefix("t.toml:1:"), "\($0)") }
        XCTAssertThrowsError(try TOMLFile.parse("a = unquoted", source: "t.toml")) { XCTAssertTrue("\($0)".hasPrefix("t.toml:1:"), "\($0)") }
        XCTAssertThrowsError(try TOMLFile.parse("name = 3", source: "t.toml").string("name")) { XCTAssertEqual("\($0)", "t.toml: name must be a \"quoted string\"") }
        XCTAssertThrowsError(try TOMLFile.parse("[roles]\navatars = [1, 2]", source: "t.toml").table("roles").strings("avatars")) {
            XCTAssertEqual("\($0)", "t.toml: roles.avatars must be an array of strings")
        }
    }

    func testConfigFileChoosesTheTheme() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertNil(try ConfigFile.load(in: dir).theme)
        XCTAssertTrue(try ConfigFile.load(in: dir).linkPreviews, "previews are on without a config")
        try "# mine\ntheme = \"storm\"\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ConfigFile.load(in: dir).theme, "storm")
        XCTAssertTrue(try ConfigFile.load(in: dir).linkPreviews)
        try "theme = \"day\"\nlink_previews = false # they tell sites my address\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertFalse(try ConfigFile.load(in: dir).linkPreviews)
        XCTAssertEqual(try ConfigFile.load(in: dir).theme, "day")
        try "link_previews = maybe\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigFile.load(in: dir).linkPreviews) { XCTAssertTrue("\($0)".contains("config.toml:1")) }
        // A key of the wrong type is named, never read as the default.
        try "link_previews = \"no\"\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigFile.load(in: dir)) { XCTAssertTrue("\($0)".hasSuffix("config.toml: link_previews must be true or false"), "\($0)") }
        // The whole TOML grammar: tables, literal strings, inline comments.
        try "theme = 'moon' # literal\nsession_requests = false\n[later]\nx = 1\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let config = try ConfigFile.load(in: dir)
        XCTAssertEqual(config.theme, "moon")
        XCTAssertFalse(config.sessionRequests)
        XCTAssertTrue(config.linkPreviews)
        XCTAssertEqual(config.notify, .both, "both by default")
        // notify: how news is announced.
        for mode in NotifyMode.allCases {
            try "notify = \"\(mode.rawValue)\"\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            XCTAssertEqual(try ConfigFile.load(in: dir).notify, mode)
        }
        try "notify = \"loud\"\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigFile.load(in: dir)) { XCTAssertTrue("\($0)".contains("notify is \"both\", \"bell\", \"desktop\" or \"off\""), "\($0)") }
        // How much it says: full by default; notify = "full"|"short", or notify_text beside a way.
        XCTAssertEqual(try ConfigFile.load(in: dir.appendingPathComponent("none")).notifyWording, .full)
        for (text, mode, wording) in [("notify = \"short\"\n", NotifyMode.both, NotificationWording.short),
                                      ("notify = \"full\"\n", .both, .full),
                                      ("notify = \"desktop\"\nnotify_text = \"short\"\n", .desktop, .short)] {
            try text.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            let config = try ConfigFile.load(in: dir)
            XCTAssertEqual(config.notify, mode, text)
            XCTAssertEqual(config.notifyWording, wording, text)
        }
        try "notify_text = \"long\"\n".write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ConfigFile.load(in: dir)) { XCTAssertTrue("\($0)".contains("notify_text is \"full\" or \"short\""), "\($0)") }
    }

    func testHyperlinksAndKeysFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { XCTAssertNoThrow(try FileManager.default.removeItem(at: dir)) }
        func config(_ text: String) throws -> ConfigFile {
            try text.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            return try ConfigFile.load(in: dir)
        }
        XCTAssertEqual(try config("").hyperlinks, .auto)
        XCTAssertEqual(try config("hyperlinks = \"on\"\n").hyperlinks, .on)
        XCTAssertEqual(try config("hyperlinks = false\n").hyperlinks, .off)
        XCTAssertThrowsError(try config("hyperlinks = \"maybe\"\n")) { XCTAssertTrue("\($0)".contains("hyperlinks is \"auto\", \"on\" or \"off\""), "\($0)") }
        XCTAssertThrowsError(try config("hyperlinks = 3\n")) { XCTAssertTrue("\($0)".contains("hyperlinks is"), "\($0)") }
        // "auto": on where the terminal is known to take OSC 8, never inside tmux or screen.
        XCTAssertTrue(HyperlinkSetting.auto.enabled(environment: ["TERM": "xterm-kitty"]))
        XCTAssertTrue(HyperlinkSetting.auto.enabled(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7600"]))
        XCTAssertFalse(HyperlinkSetting.auto.enabled(environment: ["TERM": "xterm-256color", "VTE_VERSION": "4800"]))
        XCTAssertFalse(HyperlinkSetting.auto.enabled(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]))
        XCTAssertFalse(HyperlinkSetting.auto.enabled(environment: ["TERM": "xterm"]))
        XCTAssertTrue(HyperlinkSetting.on.enabled(environment: ["TMUX": "x"]))

        XCTAssertEqual(try KeymapFile.load(in: dir), .standard, "no keys.toml: the defaults")
        let keys = dir.appendingPathComponent("keys.toml")
        try "# mine\n[global]\nnext_unread = \"U\"\n[feed]\nsearch = [\"s\", \"/\"]\n".write(to: keys, atomically: true, encoding: .utf8)
        let map = try KeymapFile.load(in: dir)
        XCTAssertEqual(map.translate(.char("U"), in: .list), .char("u"))
        XCTAssertEqual(map.translate(.char("s"), in: .feed), .char("/"))
        for (text, words) in [("[feed]\nsearch = 3\n", "keys.toml: feed.search must be a key (\"u\") or a list of keys"),
                              ("[feed]\nsearch = \"n\"\n", "keys.toml: n is bound to both [feed] search and [feed] next_match"),
                              ("[pane]\nx = \"y\"\n", "keys.toml: [pane] is not a context"),
                              ("[feed\n", "keys.toml:1")] {
            try text.write(to: keys, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try KeymapFile.load(in: dir)) { XCTAssertTrue("\($0)".contains(words), "\($0)") }
        }
    }

    func testNearestColoursFor256And16ColourTerminals() {
        XCTAssertEqual(ColorMapper.nearest256(RGB(r: 0, g: 0, b: 0)), 16)
        XCTAssertEqual(ColorMapper.nearest256(RGB(r: 255, g: 255, b: 255)), 231)
        XCTAssertEqual(ColorMapper.nearest256(RGB(r: 255, g: 0, b: 0)), 196)
        XCTAssertEqual(ColorMapper.nearest256(RGB(r: 0x1a, g: 0x1b, b: 0x26)), 234, "Tokyo Night's background is a dark grey")
        XCTAssertEqual(ColorMapper.nearest16(RGB(r: 250, g: 10, b: 10)), 9)
        XCTAssertEqual(ColorMapper.nearest16(RGB(r: 0, g: 0, b: 0)), 0)
        // Tokyo Night's pastels by hue: red, green, blue; a grey has none.
        XCTAssertEqual(ColorMapper.nearestByHue(RGB(r: 0xf7, g: 0x76, b: 0x8e), bright: false), 1)
        XCTAssertEqual(ColorMapper.nearestByHue(RGB(r: 0x9e, g: 0xce, b: 0x6a), bright: false), 2)
        XCTAssertEqual(ColorMapper.nearestByHue(RGB(r: 0x7a, g: 0xa2, b: 0xf7), bright: true), 12)
        XCTAssertNil(ColorMapper.nearestByHue(RGB(r: 0xa9, g: 0xb1, b: 0xd6), bright: true))
    }

    /// Field readiness 7: per TERM (colour counts from the real terminfo via tput), every role of every
    /// theme is visible: no foreground equals its background, nothing black on the default background,
    /// no palette entry redefined, direct colour only where terminfo numbers colours by RGB.
    func testEveryRoleIsVisibleUnderEachTerminal() throws {
        let tput = URL(fileURLWithPath: "/usr/bin/tput")
        var seen = [String: ColorDepth]()
        for term in ["xterm", "xterm-256color", "tmux-256color", "screen"] {
            let colors = Int(try ProcessRunner.run(tput, ["-T", term, "colors"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            XCTAssertGreaterThan(colors, 0, term)
            for name in ["night", "day"] {
                let theme = try Theme.load(name, configDirectory: nil)
                let plan = ColorPlan.make(theme: theme, colors: colors, noColor: false)
                seen[term] = plan.depth
                for role in Role.allCases {
                    guard let pair = plan.pairs[role] else { continue }
                    if pair.foreground != -1 { XCTAssertNotEqual(pair.foreground, pair.background, "\(term) \(name) \(role): foreground equals background") }
                    if pair.background == -1 { XCTAssertNotEqual(pair.foreground, 0, "\(term) \(name) \(role): black on the default background") }
                    XCTAssertLessThan(Int(pair.foreground), max(colors, 1), "\(term) \(name) \(role): a colour the terminal has")
                }
                XCTAssertTrue(plan.pairs[.dim]?.dim == true || plan.pairs[.dim]?.foreground != 0, "\(term): dim text shows")
                if plan.depth == .ansi16 {
                    XCTAssertEqual(plan.pairs[.text]?.foreground, -1, "\(term): text in the terminal's own colour")
                    XCTAssertNotEqual(plan.pairs[.error]?.foreground, -1, "\(term) \(name): errors keep a colour")
                }
            }
        }
        XCTAssertEqual(seen, ["xterm": .ansi16, "xterm-256color": .xterm256, "tmux-256color": .xterm256, "screen": .ansi16])
        let direct = ColorPlan.make(theme: try Theme.load("night", configDirectory: nil), colors: 1 << 24, noColor: false)
        XCTAssertEqual(direct.depth, .trueColor)
        XCTAssertEqual(direct.background, 0x1a1b26, "direct colour is the theme's RGB")
        let none = ColorPlan.make(theme: try Theme.load("night", configDirectory: nil), colors: 256, noColor: true)
        XCTAssertEqual(none.depth, .none)
        XCTAssertTrue(none.pairs.values.allSatisfy { $0.foreground == -1 && $0.background == -1 })
        XCTAssertEqual(none.pairs[.dim]?.dim, true, "NO_COLOR: dim text is the dim attribute")
    }

    func testDisplayWidthsOfWideCharactersEmojiAndControls() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("映画"), 4)
        XCTAssertEqual(DisplayWidth.of("👍"), 2)
        // Issue 33 (12): a text-default character with VS16 is one column, drawn without the selector
        // (tmux 3.3 and xterm count one, kitty and WezTerm two: the selector shifted borders).
        XCTAssertEqual(DisplayWidth.of("❤️"), 1)
        XCTAssertEqual(DisplayWidth.of("✔️"), 1)
        XCTAssertEqual(DisplayWidth.drawable("❤️"), "❤")
        XCTAssertEqual(DisplayWidth.of("1️⃣"), 1)
        XCTAssertEqual(DisplayWidth.of("👩‍👩‍👧"), 2)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{1B}\t\u{7}"), 0)
        XCTAssertEqual(DisplayWidth.truncate("映画映画映画", to: 5), "映画…")
        XCTAssertEqual(DisplayWidth.wrap("one two three four", to: 9), ["one two", "three", "four"])
        XCTAssertEqual(DisplayWidth.wrap("abcdefghij", to: 4), ["abcd", "efgh", "ij"])
        var c = Canvas(width: 5, height: 1)
        c.put("a映画b", x: 0, y: 0)
        XCTAssertEqual(c.row(0), "a映画", "a wide character that does not fit is not half drawn")
        XCTAssertEqual(DisplayWidth.of(c.row(0)), 5)
    }

    /// The fast path for simple text (one column and one character per scalar) gives what the general,
    /// per-character path gives: every scalar it takes is checked here against the general path.
    func testSimpleScalarsMeasureTruncateAndDrawAsTheGeneralPathDoes() {
        var simple = [Unicode.Scalar]()
        for value in UInt32(0)...0x3_0000 {
            guard let u = Unicode.Scalar(value), DisplayWidth.isSimple(u) else { continue }
            simple.append(u)
            let c = Character(u)
            XCTAssertEqual(DisplayWidth.of(c), 1, "U+\(String(value, radix: 16)) is one column")
            XCTAssertEqual(DisplayWidth.drawable(c), String(u), "U+\(String(value, radix: 16)) is drawn as it is")
            XCTAssertFalse(DisplayWidth.isZeroWidthMark(u) || u.properties.isEmojiPresentation || u.properties.isVariationSelector)
        }
        XCTAssertGreaterThan(simple.count, 900)
        // Any two simple scalars side by side are two characters (nothing in the set joins).
        for (i, u) in simple.enumerated() {
            let pair = String(u) + String(simple[(i * 7 + 3) % simple.count])
            XCTAssertEqual(pair.count, 2, "U+\(String(u.value, radix: 16)) joins its neighbour")
        }
        // Text with one non-simple character goes the general way; the two agree on width and cut.
        let text = "Ünïcode · notes — “quoted” ● ▌ ─── ‹ back › ↑ 2 new … ¼ ½ ß ø"
        XCTAssertEqual(DisplayWidth.simpleWidth(text), text.count)
        XCTAssertEqual(DisplayWidth.of(text), text.reduce(0) { $0 + DisplayWidth.of($1) })
        XCTAssertNil(DisplayWidth.simpleWidth(text + "映"))
        // A cut ends in "…" after the characters that fit before it: what the general path does, by hand.
        for width in [1, 2, 10, 30, text.count - 1, text.count, 200] {
            let expected = width >= text.count ? text : String(text.prefix(width - 1)) + "…"
            XCTAssertEqual(DisplayWidth.truncate(text, to: width), expected, "cut to \(width)")
            let wide = text + "映"  // one column more than it has characters: the general path
            XCTAssertEqual(DisplayWidth.truncate(wide, to: width), width >= text.count + 2 ? wide : String(wide.prefix(width - 1)) + "…")
        }
        var fast = Canvas(width: 40, height: 1), general = Canvas(width: 40, height: 1)
        fast.put(text, x: 2, y: 0, limit: 30)
        general.put(text + "\u{301}", x: 2, y: 0, limit: 30)  // the mark falls past the limit: general path, same cells
        XCTAssertEqual(fast, general)
    }

    /// Field readiness 9: a cell holds what the terminal will draw in it. ZWJ sequences, skin tones and a
    /// flag's second letter are cut to their base; combining accents stay; a stray ZWJ is never drawn.
    func testGraphemesAreDrawnAsTheirBaseWithCombiningMarksOnly() {
        var c = Canvas(width: 80, height: 2)
        let family = "👨‍👩‍👧"
        c.put(String(repeating: family, count: 200), x: 0, y: 0)
        for x in 0..<80 {
            XCTAssertEqual(c[x, 0].text, x % 2 == 0 ? "👨" : "", "column \(x)")
        }
        c.put("\u{200D}a👍🏽 e\u{301} 🇫🇷 ❤️x", x: 0, y: 1)
        XCTAssertEqual(c[0, 1].text, "a", "the stray ZWJ is not drawn")
        XCTAssertEqual(c[1, 1].text, "👍", "no skin tone scalar: it would be a second wide glyph")
        XCTAssertEqual(c[4, 1].text, "e\u{301}", "a combining accent stays with its letter")
        XCTAssertEqual(c[6, 1].text, "🇫")
        XCTAssertEqual(c[9, 1].text, "❤", "a text-default base is drawn without VS16, in one column")
        XCTAssertEqual(c[10, 1].text, "x")
        for x in 0..<80 {
            XCTAssertFalse(c[x, 1].text.unicodeScalars.contains("\u{200D}"))
            XCTAssertLessThanOrEqual(c[x, 1].text.unicodeScalars.count, 4, "ncurses holds at most five per cell")
        }
    }
}
