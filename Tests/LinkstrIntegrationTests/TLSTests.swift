import Foundation
import LinkstrTestSupport
import XCTest

/// `wss://` relays behind a local TLS endpoint with certificates from a test CA: trusted through
/// `tls_ca_file`, and every refusal said in words (never BoringSSL internals or build paths).
final class TLSTests: XCTestCase {
    func testSecureRelaysWithATestCAAndEveryRefusalInWords() throws {
        let relay = try TestRelay()
        let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: certificates) }
        let made = try ProcessRunner.run(try TestEnvironment.python(), [TestEnvironment.interopScript("test_ca.py").path, certificates.path])
        XCTAssertEqual(made.status, 0, made.stderrText)
        func endpoint(_ name: String) throws -> InteropServer {
            try FaultProxy.start(upstream: relay.url, mode: "tls", argument: certificates.appendingPathComponent(name).path)
        }
        let good = try endpoint("good"), expired = try endpoint("expired"), otherName = try endpoint("othername"), selfSigned = try endpoint("selfsigned")

        let home = try Home("tls", relays: [])
        defer { home.remove() }
        _ = try home.createIdentity()
        func sync(_ proxy: InteropServer) throws -> (complete: Bool, error: String?) {
            let r = try home.run(["sync", "--json", "--timeout", "4"], relays: ["wss://localhost:\(proxy.port)"], timeout: 40)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], r.err)
            let relays = json["relays"] as? [[String: Any]] ?? []
            return (json["complete"] as? Bool ?? false, relays.first?["error"] as? String)
        }

        // Without the CA, the test CA's certificate is not trusted.
        let untrusted = try sync(good)
        XCTAssertFalse(untrusted.complete)
        XCTAssertTrue(untrusted.error?.hasPrefix("TLS failed: certificate not trusted") == true, "\(untrusted)")

        try home.writeConfig("tls_ca_file = \"\(certificates.appendingPathComponent("ca.pem").path)\"\n")
        let trusted = try sync(good)
        XCTAssertTrue(trusted.complete, "wss:// through the test CA: \(trusted)")
        XCTAssertNil(trusted.error)
        let session = try home.ok(["session", "create", "Secure"], relays: ["wss://localhost:\(good.port)"]).trimmed
        XCTAssertEqual(session.count, 32, "published over TLS")

        let stale = try sync(expired)
        XCTAssertTrue(stale.error?.hasPrefix("TLS failed: certificate expired on ") == true, "\(stale)")
        let mismatch = try sync(otherName)
        XCTAssertEqual(mismatch.error, "TLS failed: name mismatch: the relay's certificate is not for localhost")
        let unknown = try sync(selfSigned)
        XCTAssertTrue(unknown.error?.hasPrefix("TLS failed: certificate not trusted") == true, "\(unknown)")
        for e in [untrusted.error, stale.error, mismatch.error, unknown.error] {
            XCTAssertFalse(e?.contains("BoringSSL") ?? true || e?.contains(".cc") ?? true || e?.contains("/") ?? true, "in words: \(e ?? "")")
        }

        try home.writeConfig("tls_ca_file = \"/nonexistent/ca.pem\"\n")
        XCTAssertEqual(try home.run(["session", "list"]).err, "linkstr: TLS failed: tls_ca_file /nonexistent/ca.pem cannot be read.\n")
    }
}
