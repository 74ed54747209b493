import XCTest

@testable import NostrProtocol

final class NIP44VectorTests: XCTestCase {
    private func v2() throws -> [String: Any] {
        let root = try Fixtures.json("vectors/nip44.vectors.json") as! [String: Any]
        return root["v2"] as! [String: Any]
    }

    private func key(_ hex: String) throws -> ConversationKey { try ConversationKey(bytes: Fixtures.hex(hex)) }

    func testFileChecksumMatchesTheOnePublishedInNIP44() throws {
        let data = try Fixtures.text("vectors/nip44.vectors.json")
        XCTAssertEqual(SHA256.hash(Array(data.utf8)).hex, "269ed0f69e4c192512cc779e78c555090cebc7c785b609e338a62afc3ce25040")
    }

    func testValidConversationKeys() throws {
        let cases = (try v2()["valid"] as! [String: Any])["get_conversation_key"] as! [[String: String]]
        for c in cases {
            let sk = try SecretKey(hex: c["sec1"]!)
            let pk = try PublicKey(hex: c["pub2"]!)
            XCTAssertEqual(try NIP44.conversationKey(secretKey: sk, publicKey: pk).revealHex(), c["conversation_key"], c["note"] ?? "")
        }
        print("NIP-44 valid get_conversation_key: \(cases.count)")
        XCTAssertEqual(cases.count, 35)
    }

    func testValidMessageKeys() throws {
        let entry = (try v2()["valid"] as! [String: Any])["get_message_keys"] as! [String: Any]
        let ck = try key(entry["conversation_key"] as! String)
        let keys = entry["keys"] as! [[String: String]]
        for k in keys {
            let nonce = Fixtures.hex(k["nonce"]!)
            let mk = nonce.withUnsafeBytes { NIP44.messageKeys(conversationKey: ck, nonce: $0) }
            XCTAssertEqual(Hex.encode(mk.chachaKey), k["chacha_key"])
            XCTAssertEqual(Hex.encode(mk.chachaNonce), k["chacha_nonce"])
            XCTAssertEqual(Hex.encode(mk.hmacKey), k["hmac_key"])
        }
        print("NIP-44 valid get_message_keys: \(keys.count)")
    }

    func testPaddedLengths() throws {
        let cases = (try v2()["valid"] as! [String: Any])["calc_padded_len"] as! [[Int]]
        for c in cases { XCTAssertEqual(NIP44.paddedLength(c[0]), c[1], "padded length of \(c[0])") }
        print("NIP-44 valid calc_padded_len: \(cases.count)")
        XCTAssertEqual(cases.count, 24)
    }

    func testEncryptDecrypt() throws {
        let cases = (try v2()["valid"] as! [String: Any])["encrypt_decrypt"] as! [[String: String]]
        for c in cases {
            let sk1 = try SecretKey(hex: c["sec1"]!), sk2 = try SecretKey(hex: c["sec2"]!)
            let ck = try NIP44.conversationKey(secretKey: sk1, publicKey: sk2.publicKey)
            XCTAssertEqual(ck.revealHex(), c["conversation_key"])
            let payload = try NIP44.encrypt(c["plaintext"]!, conversationKey: ck, nonce: Bytes32(hex: c["nonce"]!)!)
            XCTAssertEqual(payload, c["payload"])
            let ck2 = try NIP44.conversationKey(secretKey: sk2, publicKey: sk1.publicKey)
            XCTAssertEqual(ck2.revealHex(), c["conversation_key"], "conv(a, B) == conv(b, A)")
            XCTAssertEqual(try NIP44.decrypt(c["payload"]!, conversationKey: ck2), c["plaintext"])
        }
        print("NIP-44 valid encrypt_decrypt: \(cases.count)")
        XCTAssertEqual(cases.count, 10)
    }

    func testLongMessages() throws {
        let cases = (try v2()["valid"] as! [String: Any])["encrypt_decrypt_long_msg"] as! [[String: Any]]
        for c in cases {
            let plaintext = String(repeating: c["pattern"] as! String, count: c["repeat"] as! Int)
            XCTAssertEqual(SHA256.hash(plaintext).hex, c["plaintext_sha256"] as? String)
            let ck = try key(c["conversation_key"] as! String)
            let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: Bytes32(hex: c["nonce"] as! String)!)
            XCTAssertEqual(SHA256.hash(payload).hex, c["payload_sha256"] as? String)
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: ck), plaintext)
        }
        print("NIP-44 valid encrypt_decrypt_long_msg: \(cases.count)")
        XCTAssertEqual(cases.count, 3)
    }

    func testInvalidMessageLengthsAreRefusedByEncrypt() throws {
        let lengths = (try v2()["invalid"] as! [String: Any])["encrypt_msg_lengths"] as! [Int]
        let ck = try key(String(repeating: "11", count: 32))
        for n in lengths {
            XCTAssertThrowsError(try NIP44.encrypt(String(repeating: "a", count: n), conversationKey: ck, nonce: .zero)) { error in
                XCTAssertEqual(error as? NIP44Error, .invalidPlaintextLength(n))
            }
        }
        print("NIP-44 invalid encrypt_msg_lengths: \(lengths.count)")
        XCTAssertEqual(lengths.count, 4)
    }

    func testInvalidConversationKeys() throws {
        let cases = (try v2()["invalid"] as! [String: Any])["get_conversation_key"] as! [[String: String]]
        for c in cases {
            // Either the secret or the public key is invalid; whichever it is must be refused.
            XCTAssertThrowsError(try {
                let sk = try SecretKey(hex: c["sec1"]!)
                let pk = try PublicKey(hex: c["pub2"]!)
                _ = try NIP44.conversationKey(secretKey: sk, publicKey: pk)
            }(), c["note"] ?? "")
        }
        print("NIP-44 invalid get_conversation_key: \(cases.count)")
        XCTAssertEqual(cases.count, 8)
    }

    func testInvalidPayloadsAreRefusedByDecrypt() throws {
        let cases = (try v2()["invalid"] as! [String: Any])["decrypt"] as! [[String: String]]
        for c in cases {
            let ck = try key(c["conversation_key"]!)
            let note = c["note"]!
            XCTAssertThrowsError(try NIP44.decrypt(c["payload"]!, conversationKey: ck), note) { error in
                guard let e = error as? NIP44Error else { return XCTFail("untyped error for \(note)") }
                switch e {
                case .unsupportedVersion: XCTAssertTrue(note.contains("unknown encryption version"), "\(note): \(e)")
                case .invalidBase64: XCTAssertTrue(note.contains("base64"), "\(note): \(e)")
                case .invalidMAC: XCTAssertTrue(note.contains("MAC"), "\(note): \(e)")
                case .invalidPadding: XCTAssertTrue(note.contains("padding"), "\(note): \(e)")
                case .invalidPayloadSize, .invalidDataSize: XCTAssertTrue(note.contains("length"), "\(note): \(e)")
                default: XCTFail("\(note): unexpected \(e)")
                }
            }
        }
        print("NIP-44 invalid decrypt: \(cases.count)")
        XCTAssertEqual(cases.count, 12)
    }

    /// The extended 6-byte prefix table printed in NIP-44 (revision db5fe3d).
    func testExtendedLengthPrefixTableFromTheNIPText() throws {
        let ck = try key("c41c775356fd92eadc63ff5a0dc1da211b268cbea22316767095b2871ea1412d")
        let nonce = Bytes32(hex: "0000000000000000000000000000000000000000000000000000000000000001")!
        let table: [(Int, Int, String, String)] = [
            (65535, 65536, "6e1bebca6a8229364a162a72ef064826c4cd7457bf54f190ef782bd9deff3e42", "6d8c2810d1e870fbaa1f0a0937126cca837a15f9260e27060c331d70a3c0bc84"),
            (65536, 65536, "bf718b6f653bebc184e1479f1935b8da974d701b893afcf49e701f3e2f9f9c5a", "b7b4edb36ba92e267d322d56d9aebc22e7fa96ff52e3c12adc07f07a43cbc616"),
            (65537, 81920, "008ffc88d3c96a9f307524eb361e47c5222a887fc45fa0c1fb8d429c5c23b430", "eeb7c7c5373894ea2c1547cfd3ccb15d5a0b2d619da852e5c79df792dcc9e435"),
        ]
        for (length, padded, plainHash, payloadHash) in table {
            let plaintext = String(repeating: "a", count: length)
            XCTAssertEqual(SHA256.hash(plaintext).hex, plainHash)
            XCTAssertEqual(NIP44.paddedLength(length), padded)
            let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: nonce, format: .extended)
            XCTAssertEqual(SHA256.hash(payload).hex, payloadHash, "payload for \(length) bytes")
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: ck), plaintext)
        }
        print("NIP-44 extended-prefix table (NIP text): \(table.count)")
    }

    func testTamperedPayloadFailsTheMACCheck() throws {
        let ck = try key(String(repeating: "22", count: 32))
        let payload = try NIP44.encrypt("hello", conversationKey: ck, random: SystemRandom())
        var bytes = Base64.decode(payload)!
        bytes[40] ^= 1
        XCTAssertThrowsError(try NIP44.decrypt(Base64.encode(bytes), conversationKey: ck)) { XCTAssertEqual($0 as? NIP44Error, .invalidMAC) }
    }

    func testConversationKeyCacheReturnsTheSameKeyAndCounts() throws {
        let me = SecretKey.generate(), peer = SecretKey.generate()
        let cache = ConversationKeyCache(secretKey: me, capacity: 8)
        let a = try cache.conversationKey(with: peer.publicKey)
        let b = try cache.conversationKey(with: peer.publicKey)
        XCTAssertEqual(a.revealHex(), b.revealHex())
        XCTAssertEqual(a.revealHex(), try NIP44.conversationKey(secretKey: me, publicKey: peer.publicKey).revealHex())
        XCTAssertEqual(cache.hits, 1)
        XCTAssertEqual(cache.misses, 1)
        for _ in 0..<20 { _ = try cache.conversationKey(with: SecretKey.generate().publicKey) }
        XCTAssertLessThanOrEqual(cache.count, 8)
    }

    /// A sender's key lifted once serves its signatures and its conversation key; a key off the curve is
    /// refused every time (never cached as valid).
    func testLiftedKeysAreCachedWithTheConversationKey() throws {
        let me = SecretKey.generate(), peer = SecretKey.generate()
        let cache = ConversationKeyCache(secretKey: me, capacity: 8)
        let message = SHA256.hash(Array("seal".utf8))
        let sig = Schnorr.sign(message: message, with: peer, random: SystemRandom())
        XCTAssertTrue(Schnorr.verify(signature: sig, message: message, publicKey: try cache.lifted(peer.publicKey)))
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(try cache.conversationKey(with: peer.publicKey).revealHex(),
                       try NIP44.conversationKey(secretKey: me, publicKey: peer.publicKey).revealHex())
        XCTAssertEqual(cache.misses, 1, "the lifted key was there; the conversation key was derived once")
        XCTAssertTrue(Schnorr.verify(signature: sig, message: message, publicKey: try cache.lifted(peer.publicKey)))
        XCTAssertFalse(Schnorr.verify(signature: sig, message: SHA256.hash(Array("other".utf8)), publicKey: try cache.lifted(peer.publicKey)))
        XCTAssertEqual(cache.count, 1)
        // 2^256 - 1 is no x coordinate: only a key that skipped validation (a test) can hold it.
        let offCurve = PublicKey(trusted: Bytes32(hex: String(repeating: "f", count: 64))!)
        for _ in 0..<2 { XCTAssertThrowsError(try cache.lifted(offCurve)) }
        XCTAssertThrowsError(try cache.conversationKey(with: offCurve))
        XCTAssertEqual(cache.count, 1)
    }
}
