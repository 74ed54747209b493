import XCTest

@testable import NostrProtocol

/// Hex of either case decodes; odd lengths and any non-hex character anywhere are refused; the
/// contiguous fast path and the generic one agree.
final class HexTests: XCTestCase {
    func testEveryByteRoundTripsInEitherCase() {
        let all = (0...255).map { UInt8($0) }
        let lower = Hex.encode(all)
        XCTAssertEqual(lower.count, 512)
        XCTAssertEqual(Hex.decode(lower), all)
        XCTAssertEqual(Hex.decode(lower.uppercased()), all)
        XCTAssertEqual(Hex.decode(bytes: Array(lower.utf8)), all, "the generic path")
        XCTAssertEqual(Hex.decode(""), [])
    }

    func testOddLengthsAndStrayCharactersAreRefusedWherever() {
        XCTAssertNil(Hex.decode("abc"))
        XCTAssertNil(Hex.decode("a"))
        let good = String(repeating: "0f", count: 32)
        for position in [0, 1, 31, 62, 63] {
            for stray in ["g", "G", " ", "\u{0}", "/", ":", "@", "`"] {
                var chars = Array(good)
                chars[position] = Character(stray)
                let bad = String(chars)
                XCTAssertNil(Hex.decode(bad), "\(stray) at \(position)")
                XCTAssertNil(Hex.decode(bytes: Array(bad.utf8)), "generic: \(stray) at \(position)")
            }
        }
        XCTAssertNil(Hex.decode("0f0f\u{e9}"), "non-ASCII")
        XCTAssertNil(Hex.decode("00é0"), "a multi-byte character of even byte length")
    }
}
