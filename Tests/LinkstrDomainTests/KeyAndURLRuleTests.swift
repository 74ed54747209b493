import LinkstrDomain
import NostrProtocol
import XCTest

final class KeyAndURLRuleTests: XCTestCase {
    func testPubkeyNormalization() throws {
        let key = SecretKey.generate().publicKey
        XCTAssertEqual(PubkeyNormalizer.hex("  \(key.hex.uppercased())\n"), key.hex)
        XCTAssertNil(PubkeyNormalizer.hex("abcd"), "iOS accepts any even length; we require 64 hex digits")
        XCTAssertNil(PubkeyNormalizer.hex("not-a-pubkey"))
        XCTAssertEqual(PubkeyNormalizer.fromAnyForm(key.npub), key.hex)
        XCTAssertEqual(PubkeyNormalizer.dedupedList([key.npub, "junk", key.hex]), [key.hex])
        XCTAssertNil(PubkeyNormalizer.validatedList([key.npub, "junk"]))
        XCTAssertEqual(PubkeyNormalizer.validatedList([key.npub, key.hex]), [key.hex])
    }

    func testContactKeyExtraction() throws {
        let key = SecretKey.generate().publicKey
        XCTAssertEqual(ContactKeyParser.npub(in: " \(key.npub) "), key.npub)
        XCTAssertEqual(ContactKeyParser.npub(in: "NOSTR:\(key.npub)"), key.npub)
        XCTAssertEqual(ContactKeyParser.npub(in: "add me: \(key.npub) thanks!"), key.npub)
        XCTAssertEqual(ContactKeyParser.npub(in: "https://example.com/add?npub=\(key.npub)"), key.npub)
        XCTAssertEqual(ContactKeyParser.npub(in: "https://example.com/p/\(key.npub)"), key.npub)
        XCTAssertNil(ContactKeyParser.npub(in: "npub1qqqqqqqqqqqqqqqqqqqqqqqqqq"))
        XCTAssertNil(ContactKeyParser.npub(in: "hello"))
        XCTAssertEqual(ContactKeyParser.pubkey(in: key.hex), key.hex)
    }

    func testWebURLRule() throws {
        XCTAssertEqual(WebURL.normalized("  https://Example.com/a?b#c "), "https://Example.com/a?b#c", "host not lowercased, nothing added")
        XCTAssertEqual(WebURL.normalized("HTTP://example.com"), "HTTP://example.com")
        XCTAssertEqual(WebURL.normalized("http://example.com"), "http://example.com", "no trailing slash added")
        for bad in ["ftp://x.y", "mailto:a@b.c", "javascript:alert(1)", "https://", "not-a-url", "", "https://exa\u{1B}mple.com"] {
            XCTAssertNil(WebURL.normalized(bad), bad)
        }
        XCTAssertEqual(WebURL.normalizedUserInput("example.com/watch?v=1"), "https://example.com/watch?v=1")
        XCTAssertEqual(WebURL.normalizedUserInput("localhost:8080/x"), "https://localhost:8080/x")
        XCTAssertEqual(WebURL.normalizedUserInput("http://a.b"), "http://a.b")
        XCTAssertNil(WebURL.normalizedUserInput("mailto:x@y.z"))
        XCTAssertNil(WebURL.normalizedUserInput("javascript:alert(1)"))
        XCTAssertNil(WebURL.normalizedUserInput("   "))
        // wire-2026 §5: hosts are localhost, an IP literal, or two or more labels; `//host` gets https:.
        XCTAssertEqual(WebURL.normalizedUserInput("//example.com/x"), "https://example.com/x")
        XCTAssertEqual(WebURL.normalized("http://127.0.0.1:8080/a"), "http://127.0.0.1:8080/a")
        XCTAssertEqual(WebURL.normalized("http://[::1]:8080/a"), "http://[::1]:8080/a")
        XCTAssertEqual(WebURL.normalized("https://localhost/a"), "https://localhost/a")
        XCTAssertEqual(WebURL.normalized("https://bücher.example/a"), "https://bücher.example/a")
        XCTAssertEqual(WebURL.normalized("https://a-b.c-d.example"), "https://a-b.c-d.example")
        for bad in ["https://foo", "https://foo/bar", "https://my_host.example", "https://-a.example", "https://a-.example", "https://a..b",
                    "https://example.com./x", "https://.example.com"] {
            XCTAssertNil(WebURL.normalized(bad), bad)
            XCTAssertNil(WebURL.normalizedUserInput(bad), bad)
        }
        XCTAssertNil(WebURL.normalizedUserInput("ftp://example.com/file"))
        // A pasted linkstr://open link is unwrapped; anything else linkstr is refused.
        XCTAssertEqual(WebURL.normalizedUserInput("  linkstr://open?url=https%3A%2F%2Fa.b%2Fc  "), "https://a.b/c")
        for bad in ["linkstr://open", "linkstr://share?url=https%3A%2F%2Fa.b", "linkstr://open/x?url=https%3A%2F%2Fa.b",
                    "linkstr://open?url=https%3A%2F%2Fa.b and more", "linkstr://open?url=javascript%3Aalert(1)",
                    "linkstr://open?url=" + "https://a.b/?next=linkstr://open?url=https://c.d".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!] {
            XCTAssertNil(WebURL.normalizedUserInput(bad), bad)
        }
    }

    func testRelayURLRules() throws {
        XCTAssertEqual(RelayURL.normalized(" WSS://Relay.Example.COM/ "), "wss://relay.example.com")
        XCTAssertEqual(RelayURL.normalized("ws://127.0.0.1:7000/path#frag"), "ws://127.0.0.1:7000/path")
        for bad in ["https://relay.example.com", "wss://", "relay.example.com", "", "wss://a b"] {
            XCTAssertNil(RelayURL.normalized(bad), bad)
        }
        XCTAssertEqual(RelayURL.validateNew("wss://x.y", existing: ["wss://x.y"]), .failure(.message("that relay is already in your list.")))
        XCTAssertEqual(RelayURL.validateNew("https://x.y", existing: []), .failure(.message("enter a valid relay url (ws:// or wss://).")))
        XCTAssertTrue(RelayURL.isLoopback("ws://127.0.0.1:7000"))
        XCTAssertFalse(RelayURL.isLoopback("wss://relay.damus.io"))
    }

    func testURLClassification() throws {
        func check(_ url: String, _ type: LinkType, _ strategy: PlaybackStrategy, label: String, file: StaticString = #filePath, line: UInt = #line) {
            let c = URLClassifier.classify(url)
            XCTAssertEqual(c.type, type, url, file: file, line: line)
            XCTAssertEqual(c.strategy, strategy, url, file: file, line: line)
            XCTAssertEqual(c.label, label, url, file: file, line: line)
        }
        check("https://www.tiktok.com/@u/video/7234567890123456789", .tiktok, .extractionPreferred(embedURL: "https://www.tiktok.com/embed/v2/7234567890123456789"), label: "Video")
        check("https://vm.tiktok.com/ZMabc/", .tiktok, .extractionPreferred(embedURL: "https://vm.tiktok.com/ZMabc/"), label: "Video")
        check("https://www.tiktok.com/@u", .tiktok, .link, label: "Link")
        check("https://www.instagram.com/reel/CxYz123/", .instagram, .extractionPreferred(embedURL: "https://www.instagram.com/reel/CxYz123/embed"), label: "Video")
        check("https://www.instagram.com/share/reel/AbCdE1/", .instagram, .extractionPreferred(embedURL: "https://www.instagram.com/reel/AbCdE1/embed"), label: "Video")
        check("https://instagram.com/p/AbCdEf/", .instagram, .embedOnly(embedURL: "https://www.instagram.com/p/AbCdEf/embed"), label: "Video")
        check("https://www.instagram.com/someone/", .instagram, .link, label: "Link")
        check("https://notinstagram.com/reel/CxYz123/", .generic, .link, label: "Link")
        check("https://instagram.com.evil.com/reel/CxYz123/", .generic, .link, label: "Link")
        check("https://youtu.be/dQw4w9WgXcQ", .youtube, .embedOnly(embedURL: "https://www.youtube.com/embed/dQw4w9WgXcQ?playsinline=1&rel=0"), label: "Video")
        check("https://www.youtube.com/watch?v=dQw4w9WgXcQ", .youtube, .embedOnly(embedURL: "https://www.youtube.com/embed/dQw4w9WgXcQ?playsinline=1&rel=0"), label: "Video")
        check("https://m.youtube.com/shorts/abc123", .youtube, .embedOnly(embedURL: "https://www.youtube.com/embed/abc123?playsinline=1&rel=0"), label: "Video")
        check("https://www.youtube.com/@channel", .youtube, .embedOnly(embedURL: "https://www.youtube.com/@channel"), label: "Video")
        check("https://rumble.com/v4abc-some-title.html", .rumble, .embedOnly(embedURL: "https://rumble.com/embed/v4abc/"), label: "Video")
        check("https://rumble.com/embed/v4abc/", .rumble, .embedOnly(embedURL: "https://rumble.com/embed/v4abc/"), label: "Video")
        check("https://x.com/someone/status/1234567890", .twitter, .extractionPreferred(embedURL: "https://x.com/i/status/1234567890"), label: "Video")
        check("https://twitter.com/someone", .twitter, .link, label: "Link")
        check("https://notfacebook.com/reel/12345", .generic, .link, label: "Link")
        check("https://example.com/a", .generic, .link, label: "Link")
        let reel = URLClassifier.classify("https://m.facebook.com/reel/1234567890")
        XCTAssertEqual(reel.type, .facebook)
        XCTAssertEqual(reel.label, "Video")
        XCTAssertEqual(reel.embedURL, "https://www.facebook.com/plugins/video.php?href=https%3A%2F%2Fwww.facebook.com%2Freel%2F1234567890&show_text=false&width=540&height=960&autoplay=false")
        let video = URLClassifier.classify("https://www.facebook.com/someone/videos/98765/")
        XCTAssertEqual(video.label, "Video", "playable here (issue 54: the label says what the terminal does with it)")
        XCTAssertTrue(video.isPlayable)
        XCTAssertTrue(video.embedURL!.contains("width=560&height=315"))
        XCTAssertEqual(URLClassifier.classify("https://fb.watch/abc/").strategy, .embedOnly(embedURL:
            "https://www.facebook.com/plugins/video.php?href=https%3A%2F%2Ffb.watch%2Fabc%2F&show_text=false&width=560&height=315&autoplay=false"))
        XCTAssertEqual(URLClassifier.classify("https://www.facebook.com/someone").strategy, .link)
    }

    func testDeepLinks() throws {
        let url = "https://www.youtube.com/watch?v=x&t=1#frag"
        let link = DeepLink.encode(url: url)
        XCTAssertTrue(link.hasPrefix("linkstr://open?url="))
        XCTAssertEqual(DeepLink.decode(link), url)
        XCTAssertEqual(DeepLink.decode("LINKSTR://OPEN/?url=https%3A%2F%2Fa.b"), "https://a.b")
        XCTAssertNil(DeepLink.decode("linkstr://open?url=javascript%3Aalert(1)"))
        XCTAssertNil(DeepLink.decode("linkstr://close?url=https%3A%2F%2Fa.b"))
        XCTAssertNil(DeepLink.decode("linkstr://open/extra?url=https%3A%2F%2Fa.b"))
        XCTAssertNil(DeepLink.decode("https://open?url=https%3A%2F%2Fa.b"))
        XCTAssertNil(DeepLink.decode("linkstr://open?p=!!!"))
        // The base64 `p=` form is gone (wire-2026 §5), even when well formed.
        let token = Base64.encode(Array(#"{"url":"https://a.b/c","timestamp":1,"messageGUID":"g"}"#.utf8))
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        XCTAssertNil(DeepLink.decode("linkstr://open?p=" + token))
        XCTAssertNil(DeepLink.decode("linkstr://open"), "no url")
        // share and save; the note is trimmed, blank is none, cut at 4 000 characters, only for share.
        XCTAssertEqual(DeepLink.parse("linkstr://share?url=https%3A%2F%2Fa.b&note=%20hi%20there%20"),
                       DeepLink.Link(action: .share, url: "https://a.b", note: "hi there"))
        XCTAssertEqual(DeepLink.parse("LINKSTR://Save?url=https%3A%2F%2Fa.b&note=x"), DeepLink.Link(action: .save, url: "https://a.b"))
        XCTAssertEqual(DeepLink.parse("linkstr://share?url=https%3A%2F%2Fa.b&note=%20%20")?.note, nil)
        let long = String(repeating: "é", count: 5_000)
        XCTAssertEqual(DeepLink.parse("linkstr://share?url=https%3A%2F%2Fa.b&note=" + long.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)?.note?.count, 4_000)
        XCTAssertEqual(DeepLink.parse("linkstr://share?url=https%3A%2F%2Fa.b&url=https%3A%2F%2Fc.d")?.url, "https://a.b", "the first url")
        XCTAssertNil(DeepLink.parse("linkstr://share?url=https%3A%2F%2Ffoo"), "the web-URL rule applies")
        // Issue 33 (15): the rule gives a scheme-less url `https://`, as iOS does.
        XCTAssertEqual(DeepLink.decode("linkstr://open?url=example.com/post"), "https://example.com/post")
        XCTAssertEqual(DeepLink.decode("linkstr://open?url=%2F%2Fexample.com%2Fpost"), "https://example.com/post")
        XCTAssertNil(DeepLink.decode("linkstr://open?url=ftp%3A%2F%2Fexample.com"))
        let share = DeepLink.Link(action: .share, url: "https://a.b/c?d=e&f", note: "a note & more")
        XCTAssertEqual(DeepLink.parse(DeepLink.encode(share)), share)
    }

    func testDisplayTextStripsEscapeSequences() throws {
        XCTAssertEqual(DisplayText.singleLine("evil\u{1B}]52;c;aGk=\u{07}name\u{1B}[2J"), "evil]52;c;aGk=name[2J")
        XCTAssertEqual(DisplayText.singleLine("a\nb\t\tc\r\n"), "a b c")
        XCTAssertEqual(DisplayText.singleLine("rtl\u{202E}txt\u{9B}31m"), "rtltxt31m")
        XCTAssertEqual(DisplayText.singleLine("👨‍👩‍👧 ok ✓ 漢字"), "👨‍👩‍👧 ok ✓ 漢字")
        XCTAssertEqual(DisplayText.multiLine("a\u{1B}[1m\nb"), "a[1m\nb")
        // Issue 54 (3): a paste's CR (tmux, terminals) and CRLF line breaks are line breaks too.
        XCTAssertEqual(DisplayText.multiLine("one\rtwo\r\nthree\n\rfour"), "one\ntwo\nthree\n\nfour")
        // Clean ASCII is returned as it is; spaces at the ends or doubled, and DEL, still are not.
        for (raw, clean) in [("", ""), (" ", ""), ("a b", "a b"), (" a  b ", "a b"), ("a  b", "a b"), ("ab ", "ab"), (" ab", "ab"),
                             ("a\u{7F}b", "ab"), ("~!@#$%^&*()_+{}|:<>?", "~!@#$%^&*()_+{}|:<>?")] {
            XCTAssertEqual(DisplayText.singleLine(raw), clean, "\(raw.debugDescription)")
        }
    }

    /// 64 hex digits that are not an x coordinate on secp256k1 are refused where the user types a key,
    /// with the reason: accepted, they would be skipped silently when sending.
    func testTypedKeysMustBePointsOnTheCurve() throws {
        let notAPoint = String(repeating: "f", count: 64)
        guard case .failure(let why) = PubkeyNormalizer.userInput(notAPoint) else { return XCTFail("ffff…ffff accepted as a key") }
        XCTAssertTrue(why.description.contains("not a point on secp256k1"), why.description)
        let key = SecretKey.generate().publicKey
        XCTAssertEqual(try PubkeyNormalizer.userInput(" \(key.hex.uppercased()) ").get(), key.hex)
        XCTAssertEqual(try PubkeyNormalizer.userInput("nostr:\(key.npub)").get(), key.hex)
        XCTAssertEqual(try PubkeyNormalizer.userInput("add me: \(key.npub)").get(), key.hex)
        guard case .failure(let nsec) = PubkeyNormalizer.userInput(SecretKey.generate().revealNsec()) else { return XCTFail("nsec accepted") }
        XCTAssertTrue(nsec.description.contains("secret key"), nsec.description)
        guard case .failure(let empty) = PubkeyNormalizer.userInput("  ") else { return XCTFail("blank accepted") }
        XCTAssertTrue(empty.description.contains("enter a public key"))
    }
}
