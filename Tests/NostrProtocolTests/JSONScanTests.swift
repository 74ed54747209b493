import XCTest

@testable import NostrProtocol

/// The eight-at-a-time scan for `"`, `\` and control bytes agrees with a byte-by-byte one everywhere:
/// every length around the word size, every position, bytes just beside each special one, and
/// high bytes (UTF-8) that must not be mistaken for control characters.
final class JSONScanTests: XCTestCase {
    func naive(_ bytes: [UInt8], from start: Int) -> Int {
        bytes.indices.dropFirst(start).first { bytes[$0] < 0x20 || bytes[$0] == 0x22 || bytes[$0] == 0x5C } ?? bytes.count
    }

    func scan(_ bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { JSONScan.nextSpecial($0, from: start) }
    }

    func testEverySpecialByteIsFoundWhereverItIs() {
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0x9F, 0xA0, 0xC3, 0xFF, UInt8(ascii: "A")]
        let special: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C]
        for length in 0...27 {
            for filler in plain {
                let base = [UInt8](repeating: filler, count: length)
                XCTAssertEqual(scan(base, from: 0), length)
                for position in 0..<length {
                    for s in special {
                        var bytes = base
                        bytes[position] = s
                        for start in [0, position, min(position + 1, length)] {
                            XCTAssertEqual(scan(bytes, from: start), naive(bytes, from: start), "\(bytes) from \(start)")
                        }
                    }
                }
            }
        }
    }

    func testRandomBytesAgreeWithTheByteByByteScan() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let start = Int.random(in: 0...bytes.count, using: &generator)
            XCTAssertEqual(scan(bytes, from: start), naive(bytes, from: start), "\(bytes) from \(start)")
        }
    }
}
