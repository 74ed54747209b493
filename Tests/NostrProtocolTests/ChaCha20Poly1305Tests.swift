import Foundation
import NostrProtocol
import XCTest

/// RFC 8439's AEAD vector, through contexts that each thread keeps and re-keys (`AEADContexts`): the
/// same bytes whatever came before on that thread (other keys, a failed open) and on every thread.
final class ChaCha20Poly1305Tests: XCTestCase {
    private static let key = [UInt8](0x80...0x9F)
    private static let nonce: [UInt8] = [7, 0, 0, 0] + [UInt8](0x40...0x47)
    private static let aad: [UInt8] = [0x50, 0x51, 0x52, 0x53, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7]
    private static let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
    /// RFC 8439 §2.8.2: ciphertext || tag.
    private static let expected = Hex.decode("""
        d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36\
        92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691
        """) ?? []

    private static func seal(_ key: [UInt8], _ nonce: [UInt8], _ plain: [UInt8], _ aad: [UInt8], front: Int = 0) throws -> [UInt8] {
        try key.withUnsafeBytes { k in
            try nonce.withUnsafeBytes { n in
                try plain.withUnsafeBytes { p in try aad.withUnsafeBytes { a in try ChaCha20Poly1305.seal(key: k, nonce12: n, plaintext: p, aad: a, front: front) } }
            }
        }
    }

    private static func open(_ key: [UInt8], _ nonce: [UInt8], _ sealed: [UInt8], _ aad: [UInt8]) throws -> [UInt8] {
        try key.withUnsafeBytes { k in
            try nonce.withUnsafeBytes { n in
                try sealed.withUnsafeBytes { c in try aad.withUnsafeBytes { a in try ChaCha20Poly1305.open(key: k, nonce12: n, sealed: c, aad: a) } }
            }
        }
    }

    func testTheRFCVectorAgainAndAgainBetweenOtherKeysAndFailures() throws {
        for round in 0..<5 {
            XCTAssertEqual(try Self.seal(Self.key, Self.nonce, Self.plaintext, Self.aad), Self.expected, "round \(round)")
            XCTAssertEqual(try Self.open(Self.key, Self.nonce, Self.expected, Self.aad), Self.plaintext, "round \(round)")
            // Another key, no AAD, an empty message: the next use is not disturbed by what this one set.
            let other = [UInt8](repeating: UInt8(round), count: 32)
            let short = try Self.seal(other, Self.nonce, [], [])
            XCTAssertEqual(short.count, 16)
            XCTAssertEqual(try Self.open(other, Self.nonce, short, []), [])
            // Failed opens (a changed tag, the wrong AAD, too short) leave nothing behind for the next.
            var tampered = Self.expected
            tampered[tampered.count - 1] ^= 1
            XCTAssertThrowsError(try Self.open(Self.key, Self.nonce, tampered, Self.aad))
            XCTAssertThrowsError(try Self.open(Self.key, Self.nonce, Self.expected, Array(Self.aad.dropLast())))
            XCTAssertThrowsError(try Self.open(Self.key, Self.nonce, Array(Self.expected.prefix(15)), Self.aad))
        }
        // Room in front for the caller's header: zeros, then the same sealed bytes.
        XCTAssertEqual(try Self.seal(Self.key, Self.nonce, Self.plaintext, Self.aad, front: 13), [UInt8](repeating: 0, count: 13) + Self.expected)
    }

    func testEveryThreadSealsAndOpensTheSameBytes() throws {
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                let mine = [UInt8](repeating: UInt8(worker + 1), count: 32)
                for i in 0..<300 {
                    let message = Array("message \(i) of worker \(worker)".utf8)
                    let sealed = try Self.seal(mine, Self.nonce, message, Self.aad)
                    guard try Self.open(mine, Self.nonce, sealed, Self.aad) == message else {
                        return failures.add("worker \(worker): message \(i) did not open to itself")
                    }
                    if i % 50 == 0, try Self.seal(Self.key, Self.nonce, Self.plaintext, Self.aad) != Self.expected {
                        return failures.add("worker \(worker): the vector changed at \(i)")
                    }
                }
            } catch {
                failures.add("worker \(worker): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
