import NostrProtocol
import XCTest

final class NIP49Tests: XCTestCase {
    func testDecryptionExampleFromTheNIPText() throws {
        let text = try Fixtures.text("nips/49.md")
        let example = "ncryptsec1qgg9947rlpvqu76pj5ecreduf9jxhselq2nae2kghhvd5g7dgjtcxfqtd67p9m0w57lspw8gsq6yphnm8623nsl8xn9j4jdzz84zm3frztj3z7s35vpzmqf6ksu8r89qk5z2zxfmu5gv8th8wclt0h4p"
        XCTAssertTrue(text.contains(example))
        let (key, _) = try NIP49.decrypt(example, password: "nostr")
        XCTAssertEqual(key.revealHex(), "3501454135014541350145413501453fefb02227e449e57cf4d3a3ce05378683")
        XCTAssertThrowsError(try NIP49.decrypt(example, password: "nostR")) { XCTAssertEqual($0 as? NIP49Error, .wrongPasswordOrCorrupted) }
        print("NIP-49 examples: decryption 1, normalization 1")
    }

    func testPasswordNormalizationExample() {
        let input = String(decoding: [0xE2, 0x84, 0xAB, 0xE2, 0x84, 0xA6, 0xE1, 0xBA, 0x9B, 0xCC, 0xA3] as [UInt8], as: UTF8.self)
        XCTAssertEqual(NIP49.normalize(password: input), [0xC3, 0x85, 0xCE, 0xA9, 0xE1, 0xB9, 0xA9])
    }

    func testRoundTripAndNormalizedPasswordsMatch() throws {
        let key = SecretKey.generate()
        let decomposed = "A\u{30A}"  // Å as A + combining ring: NFKC makes it U+00C5
        let enc = try NIP49.encrypt(key, password: decomposed, logN: 10, security: .notKnownInsecure)
        XCTAssertTrue(enc.hasPrefix("ncryptsec1"))
        let (back, security) = try NIP49.decrypt(enc, password: "\u{C5}")
        XCTAssertTrue(back.isSameKey(as: key))
        XCTAssertEqual(security, .notKnownInsecure)
    }

    func testHostileInputs() throws {
        let key = SecretKey.generate()
        let enc = try NIP49.encrypt(key, password: "pw", logN: 4)
        var data = try Bech32.decode(enc).data
        data[1] = 40  // absurd cost
        XCTAssertThrowsError(try NIP49.decrypt(Bech32.encode(hrp: "ncryptsec", data: data), password: "pw")) {
            XCTAssertEqual($0 as? NIP49Error, .costTooHigh(40))
        }
        data = try Bech32.decode(enc).data
        data[0] = 1
        XCTAssertThrowsError(try NIP49.decrypt(Bech32.encode(hrp: "ncryptsec", data: data), password: "pw")) {
            XCTAssertEqual($0 as? NIP49Error, .unsupportedVersion(1))
        }
        data = try Bech32.decode(enc).data
        data[42] ^= 1  // associated data (key security byte) is authenticated
        XCTAssertThrowsError(try NIP49.decrypt(Bech32.encode(hrp: "ncryptsec", data: data), password: "pw")) {
            XCTAssertEqual($0 as? NIP49Error, .wrongPasswordOrCorrupted)
        }
        XCTAssertThrowsError(try NIP49.decrypt(key.publicKey.npub, password: "pw")) { XCTAssertEqual($0 as? NIP49Error, .notNcryptsec(prefix: "npub")) }
        XCTAssertThrowsError(try NIP49.decrypt(Bech32.encode(hrp: "ncryptsec", data: [2, 4]), password: "pw")) { XCTAssertEqual($0 as? NIP49Error, .wrongLength(2)) }
    }

    /// draft-irtf-cfrg-xchacha-03 §2.2.1 test vector for HChaCha20.
    func testHChaCha20Vector() throws {
        let key = Hex.decode("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")!
        let nonce = Hex.decode("000000090000004a0000000031415927")!
        let out = try key.withUnsafeBytes { k in try nonce.withUnsafeBytes { n in try HChaCha20.derive(key: k, nonce16: n) } }
        XCTAssertEqual(Hex.encode(out), "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
    }

    /// draft-irtf-cfrg-xchacha-03 §A.3.1 AEAD_XChaCha20_Poly1305 test vector.
    func testXChaCha20Poly1305Vector() throws {
        let plaintext = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let aad = Hex.decode("50515253c0c1c2c3c4c5c6c7")!
        let key = Hex.decode("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")!
        let nonce = Hex.decode("404142434445464748494a4b4c4d4e4f5051525354555657")!
        let sealed = try key.withUnsafeBytes { k in try nonce.withUnsafeBytes { n in try plaintext.withUnsafeBytes { p in
            try aad.withUnsafeBytes { a in try XChaCha20Poly1305.seal(key: k, nonce24: n, plaintext: p, aad: a) } } } }
        XCTAssertEqual(Hex.encode(sealed.suffix(16)), "c0875924c1c7987947deafd8780acf49")
        XCTAssertEqual(Hex.encode(sealed.prefix(16)), "bd6d179d3e83d43b9576579493c0e939")
        let opened = try key.withUnsafeBytes { k in try nonce.withUnsafeBytes { n in try sealed.withUnsafeBytes { c in
            try aad.withUnsafeBytes { a in try XChaCha20Poly1305.open(key: k, nonce24: n, sealed: c, aad: a) } } } }
        XCTAssertEqual(opened, plaintext)
    }
}
