import NIOCore
import XCTest

@testable import LinkstrRelay

/// Issue 53 (6.7): `http://[::1]/` said "cannot resolve ::1" on a machine without an IPv6 address (the
/// name service refuses an IPv6 literal there). An address written out is never looked up: it is
/// refused as private, or dialled as it is.
final class PublicAddressTests: XCTestCase {
    struct NoNameService: Error {}

    func testAnAddressWrittenOutIsNeverLookedUp() async throws {
        let failing: @Sendable (String, Int) throws -> SocketAddress = { _, _ in throw NoNameService() }
        for host in ["::1", "[::1]", "127.0.0.1", "fd00::2", "[fe80::1]"] {
            let refused = await PublicAddress.resolve(host, port: 80, allowPrivate: false, lookUp: failing)
            XCTAssertEqual(refused, .failure(.privateAddress(host)), host)
        }
        let allowed = await PublicAddress.resolve("[::1]", port: 8080, allowPrivate: true, lookUp: failing)
        guard case .success(let address) = allowed else { return XCTFail("\(allowed)") }
        XCTAssertEqual(address.ipAddress, "::1")
        XCTAssertEqual(address.port, 8080)
        let publicV6 = await PublicAddress.resolve("2606:4700::1111", port: 443, allowPrivate: false, lookUp: failing)
        guard case .success = publicV6 else { return XCTFail("\(publicV6)") }
        // A name still goes to the name service, and its failure is said as before.
        let named = await PublicAddress.resolve("relay.invalid", port: 443, allowPrivate: false, lookUp: failing)
        XCTAssertEqual(named, .failure(.unresolvable("relay.invalid")))
    }
}
