import LinkstrConfig
import LinkstrMedia
import LinkstrTUI
import XCTest

/// How `images` resolves (issue 29): the terminal's answers read, the environment where they cannot
/// answer, tmux's passthrough, NO_COLOR; nothing asked where the answer cannot be trusted.
final class ImageSettingTests: XCTestCase {
    func testTheTerminalsAnswersAreRead() {
        let all = Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8) + Array("\u{1B}[6;21;10t".utf8) + Array("\u{1B}[?62;4;22c".utf8)
        let answer = TerminalQuery.parse(all)
        XCTAssertTrue(answer.kitty && answer.sixel && answer.complete)
        XCTAssertEqual(answer.cell?.width, 10)
        XCTAssertEqual(answer.cell?.height, 21)
        // A terminal with none of it: DA1 alone (and keys typed meanwhile) ends the wait with nothing.
        let plain = TerminalQuery.parse(Array("jk\u{1B}[?1;2c".utf8))
        XCTAssertFalse(plain.kitty || plain.sixel)
        XCTAssertTrue(plain.complete)
        XCTAssertNil(plain.cell)
        // An error from kitty, an absurd cell, and no DA1 yet.
        let odd = TerminalQuery.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[6;0;99999t".utf8))
        XCTAssertFalse(odd.kitty || odd.complete)
        XCTAssertNil(odd.cell)
    }

    func resolve(_ setting: ImageSetting, _ env: [String: String], noColor: Bool = false, passthrough: Bool = false,
                 answer: TerminalQuery.Answer? = nil, asked: inout Bool) -> ImageSetting.Resolved {
        var wasAsked = false
        let resolved = setting.resolve(environment: env, noColor: noColor, tmuxPassthrough: { passthrough },
                                       query: { wasAsked = true; return answer }, windowCell: { (9, 18) })
        asked = wasAsked
        return resolved
    }

    func testAutoAsksOutsideTmuxAndReadsTheEnvironmentElsewhere() {
        var asked = false
        var kitty = TerminalQuery.Answer(); kitty.kitty = true; kitty.complete = true; kitty.cell = (11, 23)
        var r = resolve(.auto, ["TERM": "xterm-256color"], answer: kitty, asked: &asked)
        XCTAssertEqual(r.proto, .kitty); XCTAssertTrue(asked); XCTAssertEqual(r.cell.width, 11)
        var sixel = TerminalQuery.Answer(); sixel.sixel = true; sixel.complete = true
        r = resolve(.auto, ["TERM": "xterm"], answer: sixel, asked: &asked)
        XCTAssertEqual(r.proto, .sixel); XCTAssertEqual(r.cell.height, 18, "the window's size when the terminal does not say")
        r = resolve(.auto, ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], answer: TerminalQuery.Answer(), asked: &asked)
        XCTAssertEqual(r.proto, .iterm)
        r = resolve(.auto, ["TERM": "xterm-256color"], answer: nil, asked: &asked)
        XCTAssertEqual(r.proto, .symbols)
        r = resolve(.auto, ["TERM": "xterm-256color"], noColor: true, answer: nil, asked: &asked)
        XCTAssertNil(r.proto, "NO_COLOR: no coloured symbols")

        // tmux answers for itself: never asked; passthrough decides.
        r = resolve(.auto, ["TERM": "tmux-256color", "TMUX": "/tmp/x", "KITTY_WINDOW_ID": "3"], passthrough: false, answer: kitty, asked: &asked)
        XCTAssertEqual(r.proto, .symbols); XCTAssertFalse(asked); XCTAssertFalse(r.throughTmux)
        r = resolve(.auto, ["TERM": "tmux-256color", "TMUX": "/tmp/x", "KITTY_WINDOW_ID": "3"], passthrough: true, answer: kitty, asked: &asked)
        XCTAssertEqual(r.proto, .kitty); XCTAssertTrue(r.throughTmux)

        // Chosen outright: as chosen, wrapped inside tmux; off is off; symbols asks nothing.
        r = resolve(.sixel, ["TERM": "screen", "TMUX": "/tmp/x"], asked: &asked)
        XCTAssertEqual(r.proto, .sixel); XCTAssertTrue(r.throughTmux)
        r = resolve(.symbols, ["TERM": "xterm"], asked: &asked)
        XCTAssertEqual(r.proto, .symbols); XCTAssertFalse(asked); XCTAssertFalse(r.throughTmux)
        r = resolve(.off, ["TERM": "xterm-kitty"], answer: kitty, asked: &asked)
        XCTAssertNil(r.proto); XCTAssertFalse(asked)
    }
}
