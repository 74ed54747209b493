import LinkstrApp
import XCTest

/// Editing by characters with a UTF-8 cursor: multi-byte text, the 1 MiB cap, byte equality.
final class TextFieldTests: XCTestCase {
    func testEditsMoveByCharactersOverMultiByteText() {
        var f = TextField("a👨‍👩‍👧é")
        f.move(-1)
        f.insert("x")
        XCTAssertEqual(f.text, "a👨‍👩‍👧xé")
        f.move(-1)
        f.backspace()
        XCTAssertEqual(f.text, "axé", "the whole family emoji is one character")
        f.home()
        f.delete()
        XCTAssertEqual(f.text, "xé")
        f.end()
        f.insert(" word")
        f.deleteWord()
        XCTAssertEqual(f.text, "xé ")
        f.move(-100)
        XCTAssertEqual(f.cursor, 0)
        f.move(100)
        XCTAssertEqual(f.cursor, f.text.utf8.count)
    }

    func testAFieldHoldsAtMostOneMebibyte() {
        var f = TextField(String(repeating: "a", count: TextField.maxBytes - 2))
        XCTAssertFalse(f.insert("bc€"), "cut, and the caller is told")
        XCTAssertEqual(f.text.utf8.count, TextField.maxBytes)
        XCTAssertTrue(f.text.hasSuffix("abc"), "whole characters only: the € did not fit")
        XCTAssertEqual(TextField(String(repeating: "é", count: TextField.maxBytes)).text.utf8.count, TextField.maxBytes)
    }

    func testEqualityIsByBytes() {
        XCTAssertNotEqual(TextField("é"), TextField("e\u{301}"), "canonically equivalent but different text in the field")
        var a = TextField("abc"), b = TextField("abc")
        XCTAssertEqual(a, b)
        a.move(-1)
        XCTAssertNotEqual(a, b)
        b.move(-1)
        XCTAssertEqual(a, b)
    }
}
