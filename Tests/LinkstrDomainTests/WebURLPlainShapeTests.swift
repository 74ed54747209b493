import LinkstrTestSupport
import XCTest
@testable import LinkstrDomain

/// The web-URL rule's fast path (plain ASCII links, no Foundation) against the full rule on
/// Foundation's parser: on every input they give the same answer, and the fast path does decide
/// the links people share.
final class WebURLPlainShapeTests: XCTestCase {
    func testHandPickedEdgesAgree() {
        let cases = [
            "https://example.com", "http://example.com/", "HTTPS://EXAMPLE.COM/A", "https://a.b", "http://localhost", "http://LocalHost/x",
            "https://example.com/path?q=1&r=2#frag", "https://example.com?x", "https://example.com#", "https://example.com/#a#b",
            "https://example.com/%41%zz", "https://example.com/%4", "https://example.com/%41", "https://example.com/a b", "https://example.com/\u{7f}",
            "https://-a.com", "https://a-.com", "https://a..com", "https://.a.com", "https://a.com.", "https://a.com:8080/x", "https://user@a.com/",
            "https://[::1]/", "https://a_b.com", "https://é.com", "https://xn--e-9ja.com/", "ftp://example.com", "http:/example.com", "http:example.com",
            "https://example.com/'();!$*+,=@:~_-.", "https://example.com/[x]", "https://example.com/{x}", "https://example.com/|", "https://example.com/\\",
            "https://example.com/^", "https://example.com/`", "https://example.com/\"", "https://example.com/<>", "httpx://example.com", "https://",
            "http://1.2.3.4/", "http://999.1/", "https://a.com/?#?/", " https://example.com", "https://example.com\n", "https://a.com/\u{200b}",
            "https:///x", "https://a.com?", "https://a.com/path/../x", "https://a.b.c.d.e.f.g/h", "https://1-2.3-4/", "https://a.com:/",
        ]
        for s in cases {
            XCTAssertEqual(WebURL.normalized(s), WebURL.normalizedByFoundation(s), s.debugDescription)
            if WebURL.plainASCIIVerdict(s) == true { XCTAssertEqual(WebURL.normalizedByFoundation(s), s, s.debugDescription) }
        }
        XCTAssertEqual(WebURL.plainASCIIVerdict("https://example.com/watch?v=dQw4w9WgXcQ&t=42s#x"), true)
        XCTAssertNil(WebURL.plainASCIIVerdict("https://example.com:443/"), "ports are left to the full rule")
        let shared = ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ?t=42", "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
                      "https://en.wikipedia.org/wiki/Nostr_(protocol)", "https://github.com/nostr-protocol/nips/blob/master/77.md#negentropy",
                      "https://example.com/2026/11/26/a-post-title.html", "https://news.ycombinator.com/item?id=42424242", "https://x.com/user/status/1",
                      "https://vimeo.com/76979871", "https://soundcloud.com/artist/track-name", "https://example.com/search?q=a%20b&lang=en"]
        for link in shared { XCTAssertEqual(WebURL.plainASCIIVerdict(link), true, link) }
    }

    /// 40 000 random strings built from URL pieces and troublesome bytes.
    func testRandomInputsAgree() {
        var rng = SplitMix(seed: 31)
        // Plain pieces are repeated so that about half the inputs are valid links.
        let schemes = ["http://", "https://", "https://", "https://", "HtTpS://", "https:/", "http:", "ftp://", "https//", "", "https://user:pw@", "http://[::1]"]
        let hostParts = ["example", "com", "a", "x-y", "1", "007", "org", "b2", "example", "com", "a", "x-y", "1", "007", "org", "b2",
                         "localhost", "LOCALHOST", "-", "_", "%41", "é", "xn--bcher-kva", "a--b", ":80", ":", "@", "", "."]
        let pathBytes = Array(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~\t\n\u{7f}é\u{200b}%41%4g%")
        var decided = 0, valid = 0
        for _ in 0..<40_000 {
            var s = schemes[Int(rng.next() % UInt64(schemes.count))]
            for k in 0..<Int(1 + rng.next() % 4) {
                if k > 0 { s += "." }
                s += hostParts[Int(rng.next() % UInt64(hostParts.count))]
                if rng.next() % 3 == 0 { s += hostParts[Int(rng.next() % UInt64(hostParts.count))] }
            }
            if rng.next() % 2 == 0 { s += ["/", "?", "#", "/watch?v=", "/a/b.html"][Int(rng.next() % 5)] }
            for _ in 0..<Int(rng.next() % 6) { s.append(pathBytes[Int(rng.next() % UInt64(pathBytes.count))]) }
            let full = WebURL.normalizedByFoundation(s)
            XCTAssertEqual(WebURL.normalized(s), full, s.debugDescription)
            if full != nil { valid += 1 }
            if WebURL.plainASCIIVerdict(s) == true {
                decided += 1
                XCTAssertEqual(full, s, s.debugDescription)
            }
        }
        XCTAssertGreaterThan(valid, 3_000, "the generator makes valid links too")
        // The generator favours odd shapes (ports, user info, IDNA, bytes Foundation escapes): those go the long way.
        XCTAssertGreaterThan(decided * 5, valid, "the fast path decides a share of the valid inputs (\(decided) of \(valid))")
    }
}
