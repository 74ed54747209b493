import LinkstrDomain
import XCTest

/// What a notification says: who, where (the session) and what (the page's title, else the link's host,
/// and the note's start), on one line of at most 200 characters with nothing of a terminal's controls;
/// `short` and a post gone since say who did what.
final class NotificationWordingTests: XCTestCase {
    let bob = String(repeating: "4e", count: 32)
    func name(_ key: Pubkey) -> String { key == bob ? "Bob" : "?" }

    func testFullSaysWhereAndWhatShortSaysWho() {
        let post = InboundNotification.post(postID: "p", sessionID: "s", author: bob)
        let detail = NewsDetail(sessionName: "Film club", url: "https://www.example.org/a/b?c=d", note: "watch this\nbefore Friday")
        XCTAssertEqual(post.announcement(naming: name, detail: detail, pageTitle: nil, wording: .full),
                       "Bob shared a post in Film club: www.example.org · watch this before Friday")
        XCTAssertEqual(post.announcement(naming: name, detail: detail, pageTitle: "The Film", wording: .full),
                       "Bob shared a post in Film club: The Film · watch this before Friday", "the page's title when known")
        XCTAssertEqual(post.announcement(naming: name, detail: NewsDetail(sessionName: "Film club", url: "https://x.org/", note: nil),
                                         pageTitle: "", wording: .full),
                       "Bob shared a post in Film club: x.org", "no note, an empty title: the host")
        XCTAssertEqual(post.announcement(naming: name, detail: detail, pageTitle: "The Film", wording: .short), "Bob shared a post")
        XCTAssertEqual(post.announcement(naming: name, detail: nil, pageTitle: nil, wording: .full), "Bob shared a post",
                       "a post gone since: who did what")
        let reaction = InboundNotification.reaction(reactionID: "r", postID: "p", sessionID: "s", author: bob, emoji: "🔥")
        XCTAssertEqual(reaction.announcement(naming: name, detail: detail, pageTitle: nil, wording: .full),
                       "Bob reacted 🔥 in Film club to www.example.org")
        XCTAssertEqual(reaction.postID, "p")
    }

    func testLongAndHostileTextIsCutAndCleaned() {
        let post = InboundNotification.post(postID: "p", sessionID: "s", author: bob)
        let detail = NewsDetail(sessionName: String(repeating: "S", count: 300) + "\u{1B}]52;c;x\u{07}",
                                url: "https://example.com/", note: String(repeating: "note ", count: 200) + "\u{1B}[2J")
        let line = post.announcement(naming: name, detail: detail, pageTitle: "T\u{1B}[31m" + String(repeating: "t", count: 300), wording: .full)
        XCTAssertLessThanOrEqual(line.count, NewsDetail.announcementLimit)
        XCTAssertTrue(line.hasSuffix("…"), line)
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no control characters: \(line.debugDescription)")
        XCTAssertTrue(line.hasPrefix("Bob shared a post in SSSS"), line)
        XCTAssertTrue(line.contains("…: T"), "the session's name cut, then the title: \(line)")
    }
}
