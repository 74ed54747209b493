import LinkstrRelay
import XCTest

/// A relay we blocked is never contacted for a page's title or a picture either: the fetch is refused
/// before any name is resolved (so a host that would not resolve proves nothing was dialled).
final class BlockedHostTests: XCTestCase {
    func testPagesAndPicturesOfABlockedHostAreRefusedBeforeAnyLookup() async {
        var pages = LinkPreviewFetcher(timeout: .seconds(1))
        pages.refusesHost = { $0 == "relay.blocked.invalid" }
        do {
            _ = try await pages.fetch("https://Relay.Blocked.invalid/page")
            XCTFail("a blocked host must be refused")
        } catch {
            XCTAssertEqual(error, .blockedHost("Relay.Blocked.invalid"))
            XCTAssertEqual(error.description, "not fetching from Relay.Blocked.invalid: it is a relay you blocked")
        }
        var pictures = ImageFetcher(timeout: .seconds(1))
        pictures.refusesHost = { $0 == "relay.blocked.invalid" }
        do {
            _ = try await pictures.fetch("https://relay.blocked.invalid/a.png")
            XCTFail("a blocked host must be refused")
        } catch {
            XCTAssertEqual(error, .blockedHost("relay.blocked.invalid"))
        }
        // Another host is looked up as usual (and `.invalid` never resolves).
        do {
            _ = try await pictures.fetch("https://other.invalid/a.png")
            XCTFail("no such host")
        } catch {
            XCTAssertEqual(error, .unresolvable("other.invalid"))
        }
    }
}
