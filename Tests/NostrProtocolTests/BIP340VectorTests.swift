import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `../shared/vectors/bip340.csv` is the superseded 2019 draft of the BIP-340 vectors (its comments say
/// `has_square_y`; bitcoin/bips 30eb358). Final BIP-340 (bitcoin/bips 7e8b5df), which libsecp256k1, Nostr
/// and every Nostr client implement, changed R to even-y, so the draft's valid signatures (rows 0–4) no
/// longer verify anywhere. Every row is still checked: key derivation and the rejection rows hold in both
/// revisions; for rows 0–4 we require the final revision's signatures (pinned below) and that the draft
/// ones are refused; and coincurve (an independent libsecp build) must agree with us on every row.
final class BIP340VectorTests: XCTestCase {
    /// Final BIP-340 signatures for the draft file's rows 0–4 (same keys, aux and messages).
    private let finalSignatures: [String: String] = [
        "0": "e907831f80848d1069a5371b402410364bdf1c5f8307b0084c55f1ce2dca821525f66a4a85ea8b71e482a74f382d2ce5ebeee8fdb2172f477df4900d310536c0",
        "1": "6896bd60eeae296db48a229ff71dfe071bde413e6d43f917dc8dcf8c78de33418906d11ac976abccb20b091292bff4ea897efcb639ea871cfa95f6de339e4b0a",
        "2": "5831aaeed7b44bb74e5eab94ba9d4294c49bcf2a60728d8b4c200f50dd313c1bab745879a5ad954a72c45a91c3a51d3c7adea98d82f8481e0e1e03674a6f3fb7",
        "3": "7eb0509757e246f19449885651611cb965ecc1a187dd51b64fda1edc9637d5ec97582b9cb13db3933705b32ba982af5af25fd78881ebb32771fc5922efc66ea3",
        "4": "00000000000000000000003b78ce563f89a0ed9414f5aa28ad0d96d6795f9c6376afb1548af603b3eb45c9f8207dee1060cb71c04e80f593060b07d28308d7f4",
    ]

    private struct Row { let index, secret, pub, aux, message, signature, comment: String; let valid: Bool }

    private func rows() throws -> [Row] {
        let csv = try Fixtures.text("vectors/bip340.csv")
        return csv.split(whereSeparator: \.isNewline).dropFirst().map {
            let f = $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Row(index: f[0], secret: f[1], pub: f[2].lowercased(), aux: f[3], message: f[4],
                       signature: f[5].lowercased(), comment: f[7], valid: f[6] == "TRUE")
        }
    }

    func testEveryRowOfTheSharedVectorFile() throws {
        let all = try rows()
        XCTAssertEqual(all.count, 15, "bip340.csv should hold 15 vectors")
        let isDraft = all.contains { $0.comment.contains("has_square_y") }
        var signed = 0, checked = 0
        for row in all {
            let message = Bytes32(hex: row.message)!
            let fileSignature = Signature(hex: row.signature)!
            let pubRaw = Bytes32(hex: row.pub)!
            if !row.secret.isEmpty {
                let key = try SecretKey(hex: row.secret)
                XCTAssertEqual(key.publicKey.hex, row.pub, "row \(row.index): public key")
                let sig = Schnorr.sign(message: message, with: key, auxiliaryRandom: Bytes32(hex: row.aux)!)
                let expected = isDraft ? finalSignatures[row.index]! : row.signature
                XCTAssertEqual(sig.hex, expected, "row \(row.index): signature")
                XCTAssertTrue(Schnorr.verify(signature: sig, message: message, publicKey: pubRaw))
                signed += 1
            }
            if row.valid {
                if isDraft {
                    XCTAssertFalse(Schnorr.verify(signature: fileSignature, message: message, publicKey: pubRaw),
                                   "row \(row.index): a square-y draft signature must not verify under final BIP-340")
                    XCTAssertTrue(Schnorr.verify(signature: Signature(hex: finalSignatures[row.index]!)!, message: message, publicKey: pubRaw),
                                  "row \(row.index): final signature")
                } else {
                    XCTAssertTrue(Schnorr.verify(signature: fileSignature, message: message, publicKey: pubRaw), "row \(row.index)")
                }
            } else {
                XCTAssertFalse(Schnorr.verify(signature: fileSignature, message: message, publicKey: pubRaw), "row \(row.index): \(row.comment)")
            }
            if row.comment.contains("public key") {
                XCTAssertThrowsError(try PublicKey(raw: pubRaw), "row \(row.index): an off-curve key must not construct")
            }
            checked += 1
        }
        print("BIP-340 vectors: \(checked) rows checked, \(signed) signed\(isDraft ? " (file is the superseded has_square_y draft; rows 0-4 checked against final BIP-340)" : "")")
        XCTAssertEqual(checked, 15)
        XCTAssertEqual(signed, 4)
    }

    /// coincurve (libsecp256k1 bundled in the test virtualenv) signs and verifies every row like we do.
    func testAnIndependentLibsecpBuildAgreesOnEveryRow() throws {
        let all = try rows()
        let script = """
        import json, sys
        from coincurve import PrivateKey, PublicKeyXOnly
        out = []
        for r in json.load(sys.stdin):
            sig = PrivateKey(bytes.fromhex(r["secret"])).sign_schnorr(bytes.fromhex(r["message"]), bytes.fromhex(r["aux"])).hex() if r["secret"] else None
            try:
                ok = PublicKeyXOnly(bytes.fromhex(r["pub"])).verify(bytes.fromhex(r["signature"]), bytes.fromhex(r["message"]))
            except Exception:
                ok = False
            out.append({"sig": sig, "ok": ok})
        json.dump(out, sys.stdout)
        """
        let input = try JSONSerialization.data(withJSONObject: all.map {
            ["secret": $0.secret, "pub": $0.pub, "aux": $0.aux, "message": $0.message, "signature": $0.signature]
        })
        let result = try ProcessRunner.run(try TestEnvironment.python(), ["-c", script], stdin: input)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let theirs = try JSONSerialization.jsonObject(with: result.stdout) as! [[String: Any]]
        XCTAssertEqual(theirs.count, all.count)
        for (row, t) in zip(all, theirs) {
            let message = Bytes32(hex: row.message)!
            if !row.secret.isEmpty {
                let ours = Schnorr.sign(message: message, with: try SecretKey(hex: row.secret), auxiliaryRandom: Bytes32(hex: row.aux)!)
                XCTAssertEqual(ours.hex, t["sig"] as? String, "row \(row.index): coincurve signature")
            }
            let ourVerdict = Schnorr.verify(signature: Signature(hex: row.signature)!, message: message, publicKey: Bytes32(hex: row.pub)!)
            XCTAssertEqual(ourVerdict, t["ok"] as? Bool, "row \(row.index): coincurve verdict")
        }
        print("BIP-340 cross-check with coincurve: \(all.count) rows agree")
    }

    func testSignatureOverRandomAuxVerifies() {
        let key = SecretKey.generate()
        let msg = SHA256.hash("linkstr")
        let sig = Schnorr.sign(message: msg, with: key, random: SystemRandom())
        XCTAssertTrue(Schnorr.verify(signature: sig, message: msg, publicKey: key.publicKey))
        XCTAssertFalse(Schnorr.verify(signature: sig, message: SHA256.hash("linkstr!"), publicKey: key.publicKey))
    }
}
