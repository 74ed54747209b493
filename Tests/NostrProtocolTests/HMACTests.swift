import Foundation
import Synchronization
import NostrProtocol
import XCTest

/// HMAC-SHA256 against RFC 4231, and from many threads at once (each call duplicates one prepared
/// context; looking the digest up per call made `EVP_MAC_init` fail now and then under contention).
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
