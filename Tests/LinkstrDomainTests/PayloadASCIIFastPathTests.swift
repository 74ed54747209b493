import XCTest
@testable import LinkstrDomain

/// The payload checks decide ASCII without Unicode property lookups; on ASCII they must say what the
/// lookups say, and text beyond ASCII still takes the lookups.
final class PayloadASCIIFastPathTests: XCTestCase {
    func testEveryASCIICharacterIsJudgedAsItsCategoryJudgesIt() {
        for value in UInt32(0)...0x7F {
            let u = Unicode.Scalar(value)!
            XCTAssertEqual(InboundDecoder.isForbiddenInIdentifier(u), InboundDecoder.isForbiddenByCategory(u), "U+\(String(value, radix: 16))")
        }
        XCTAssertTrue(InboundDecoder.isForbiddenInIdentifier("\u{202E}"), "a bidi override (format) beyond ASCII")
        XCTAssertTrue(InboundDecoder.isForbiddenInIdentifier("\u{85}"), "a C1 control")
        XCTAssertFalse(InboundDecoder.isForbiddenInIdentifier("\u{200D}"), "the emoji joiner")
    }

    func testAnASCIIHostNeverMixesScriptsAndOthersAreStillChecked() {
        // Every ASCII letter and sign in a label: Latin only, whatever the shape.
        let ascii = String((0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }).replacingOccurrences(of: ".", with: "")
        XCTAssertFalse(LookalikeHost.isMixedScript(ascii + ".com"))
        XCTAssertFalse(LookalikeHost.isMixedScript("example.com"))
        XCTAssertTrue(LookalikeHost.isMixedScript("gооgle.com"), "Cyrillic о among Latin letters")
        XCTAssertTrue(LookalikeHost.isMixedScript("pаypal.com"), "Cyrillic а among Latin letters")
        XCTAssertFalse(LookalikeHost.isMixedScript("пример.рф"), "Cyrillic alone")
        XCTAssertFalse(LookalikeHost.isMixedScript("bücher.de"), "Latin beyond ASCII")
    }
}
