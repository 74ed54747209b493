import NostrProtocol
import XCTest

final class NIP19Tests: XCTestCase {
    /// The examples printed in nips/19.md, read from the file itself.
    /// The wiped-buffer form of an nsec (what the app shows) is the same text as the plain one.
    func testTheSecretBufferFormOfAnNsecIsTheSameText() {
        for _ in 0..<50 {
            let key = SecretKey.generate()
            XCTAssertEqual(key.revealNsecBytes().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, key.revealNsec())
        }
    }

    func testExamplesFromTheNIPText() throws {
        let text = try Fixtures.text("nips/19.md")
        XCTAssertTrue(text.contains("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"))
        var checked = 0

        guard case .npub(let pub) = try NIP19.decode("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg") else { return XCTFail() }
        XCTAssertEqual(pub.hex, "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e")
        XCTAssertEqual(pub.npub, "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg")
        checked += 1

        guard case .nsec(let sec) = try NIP19.decode("nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5") else { return XCTFail() }
        XCTAssertEqual(sec.revealHex(), "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa")
        XCTAssertEqual(sec.revealNsec(), "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5")
        checked += 1

        let np = "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p"
        XCTAssertTrue(text.contains(np))
        guard case .nprofile(let profile) = try NIP19.decode(np) else { return XCTFail() }
        XCTAssertEqual(profile.publicKey.hex, "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d")
        XCTAssertEqual(profile.relays, ["wss://r.x.com", "wss://djbas.sadkb.com"])
        XCTAssertEqual(NIP19.encode(profile), np)
        checked += 1

        let bare = try PublicKey(hex: "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d")
        XCTAssertEqual(bare.npub, "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6")
        checked += 1
        print("NIP-19 examples: \(checked)")
    }

    func testNoteNeventAndNaddrRoundTrip() throws {
        let id = EventID(raw: SHA256.hash("x"))
        guard case .note(let back) = try NIP19.decode(NIP19.encodeNote(id)) else { return XCTFail() }
        XCTAssertEqual(back, id)

        let author = SecretKey.generate().publicKey
        let ev = NIP19.Event(id: id, relays: ["wss://relay.example"], author: author, kind: 44001)
        guard case .nevent(let decoded) = try NIP19.decode(NIP19.encode(ev)) else { return XCTFail() }
        XCTAssertEqual(decoded, ev)

        let addr = NIP19.Address(identifier: "linkstr", author: author, kind: 30078, relays: ["wss://a"])
        guard case .naddr(let a) = try NIP19.decode(NIP19.encode(addr)) else { return XCTFail() }
        XCTAssertEqual(a, addr)
    }

    func testUnknownTLVsAreIgnored() throws {
        let id = SHA256.hash("y")
        var tlv: [UInt8] = [0, 32] + id.bytes
        tlv += [99, 3, 1, 2, 3]           // unknown type 99
        tlv += [1, 5] + Array("wss:/".utf8)
        let s = Bech32.encode(hrp: "nevent", data: tlv)
        guard case .nevent(let e) = try NIP19.decode(s) else { return XCTFail() }
        XCTAssertEqual(e.id.raw, id)
        XCTAssertEqual(e.relays, ["wss:/"])
    }

    func testPreciseErrors() {
        let npub = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"
        var typo = Array(npub)
        typo[20] = typo[20] == "q" ? "p" : "q"
        XCTAssertThrowsError(try NIP19.decode(String(typo))) { XCTAssertEqual($0 as? NIP19Error, .bech32(.badChecksum)) }
        XCTAssertThrowsError(try SecretKey.parse(npub)) {
            XCTAssertEqual($0 as? KeyError, .isPublicKey)
            XCTAssertEqual(($0 as? KeyError)?.description, "that is an npub, not a secret key.")
        }
        XCTAssertThrowsError(try PublicKey.parse("nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5")) {
            XCTAssertEqual($0 as? KeyError, .isSecretKey)
        }
        XCTAssertThrowsError(try SecretKey.parse("nsec1" + String(npub.dropFirst(5)))) { XCTAssertEqual($0 as? KeyError, .bech32(.badChecksum)) }
        XCTAssertThrowsError(try SecretKey.parse("abcd")) { XCTAssertEqual($0 as? KeyError, .wrongLength(expected: 64, got: 4)) }
        XCTAssertThrowsError(try SecretKey.parse("")) { XCTAssertEqual($0 as? KeyError, .empty) }
        XCTAssertThrowsError(try SecretKey.parse(String(repeating: "0", count: 64))) { XCTAssertEqual($0 as? KeyError, .outOfRange) }
        XCTAssertThrowsError(try SecretKey.parse("hello world")) { XCTAssertEqual($0 as? KeyError, .unrecognized) }
        XCTAssertThrowsError(try NIP19.decode("nfoo1qqqqqqqqqqqqqqlhy7ks")) { _ in }
        XCTAssertThrowsError(try NIP19.decode("NPub1abc")) { XCTAssertEqual($0 as? NIP19Error, .bech32(.mixedCase)) }
        XCTAssertThrowsError(try NIP19.decode(String(repeating: "q", count: 6000))) { XCTAssertEqual($0 as? NIP19Error, .bech32(.tooLong)) }
        let shortNpub = Bech32.encode(hrp: "npub", data: [1, 2, 3])
        XCTAssertThrowsError(try NIP19.decode(shortNpub)) { XCTAssertEqual($0 as? NIP19Error, .wrongDataLength(prefix: "npub", expected: 32, got: 3)) }
        XCTAssertThrowsError(try NIP19.decode(Bech32.encode(hrp: "nope", data: [1]))) { XCTAssertEqual($0 as? NIP19Error, .unknownPrefix("nope")) }
    }

    func testParsingAcceptsCommonForms() throws {
        let key = SecretKey.generate()
        XCTAssertTrue(try SecretKey.parse("  \(key.revealNsec())\n").isSameKey(as: key))
        XCTAssertTrue(try SecretKey.parse(key.revealHex().uppercased()).isSameKey(as: key))
        XCTAssertEqual(try PublicKey.parse("nostr:\(key.publicKey.npub)"), key.publicKey)
        XCTAssertEqual(try PublicKey.parse(key.publicKey.hex.uppercased()), key.publicKey)
        XCTAssertEqual(try PublicKey.parse(NIP19.encode(NIP19.Profile(publicKey: key.publicKey, relays: ["wss://x"]))), key.publicKey)
    }

    func testSecretsAreNeverPrinted() {
        let key = SecretKey.generate()
        for text in [String(describing: key), String(reflecting: key), "\(key)"] {
            XCTAssertFalse(text.contains(key.revealHex()))
            XCTAssertFalse(text.contains("nsec1"))
        }
        var dumped = ""
        dump(key, to: &dumped)
        XCTAssertFalse(dumped.contains(key.revealHex()))
    }
}
