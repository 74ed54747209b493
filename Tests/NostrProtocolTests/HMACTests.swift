import Foundation
import NostrProtocol
import Synchronization
import XCTest

/// HMAC-SHA256 against RFC 4231, HKDF against RFC 5869, and from many threads at once (an earlier
/// EVP_MAC version failed now and then under contention; the shim's keeps no shared state).
final class HMACTests: XCTestCase {
    func testRFC4231Vectors() {
        // Test case 2: key "Jefe".
        XCTAssertEqual(HMACSHA256.authenticate(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)).hex,
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block.
        XCTAssertEqual(HMACSHA256.authenticate(key: [UInt8](repeating: 0xaa, count: 131),
                                               message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)).hex,
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // An empty key is a valid key.
        XCTAssertEqual(HMACSHA256.authenticate(key: [], message: []).hex, "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    /// RFC 5869 test cases 1 and 3 (extract then expand), and case 2's 82-byte output over three blocks.
    func testHKDFVectors() {
        func hkdf(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> String {
            let prk = ikm.withUnsafeBytes { i in salt.withUnsafeBytes { s in HKDF.extract(salt: s, inputKeyMaterial: i) } }
            var okm = [UInt8](repeating: 0, count: length)
            prk.withUnsafeBytes { p in info.withUnsafeBytes { i in okm.withUnsafeMutableBytes { HKDF.expand(pseudoRandomKey: p, info: i, output: $0) } } }
            return Hex.encode(okm)
        }
        XCTAssertEqual(hkdf(ikm: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c), info: Array(0xf0...0xf9), length: 42),
                       "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        XCTAssertEqual(hkdf(ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff), length: 82),
                       "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87")
        XCTAssertEqual(hkdf(ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42),
                       "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    func testManyThreadsAtOnceAllAgree() {
        let expected = HMACSHA256.authenticate(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for i in 0..<5_000 {
                let key = Array("Jefe".utf8), message = Array("what do ya want for nothing?".utf8)
                if HMACSHA256.authenticate(key: key, message: message) != expected { mismatches.withLock { $0 += 1 } }
                if i % 1_000 == 0 { _ = HMACSHA256.authenticate(key: Array(repeating: UInt8(i & 0xff), count: 32), message: [1, 2, 3]) }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, 0)
    }
}
