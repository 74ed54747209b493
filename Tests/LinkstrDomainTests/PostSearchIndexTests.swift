import LinkstrDomain
import XCTest

/// The in-memory search: case-insensitive substrings of notes, URLs and titles, newest first.
final class PostSearchIndexTests: XCTestCase {
    func doc(_ id: String, _ session: String, _ t: Int64, url: String = "https://example.com/\(UUID().uuidString)", note: String? = nil,
             title: String? = nil) -> SearchDocument {
        SearchDocument(postID: id, sessionID: session, createdAt: t, url: url, note: note, title: title)
    }

    func index(_ docs: [SearchDocument]) -> PostSearchIndex {
        var index = PostSearchIndex()
        for (sid, d) in Dictionary(grouping: docs, by: \.sessionID) { index.replace(SessionSearchCorpus(sessionID: sid, documents: d)) }
        return index
    }

    func testNotesURLsAndTitlesMatchWhateverTheirCase() {
        let i = index([doc("a", "s1", 10, note: "The Long GOODBYE, 1973"), doc("b", "s1", 20, url: "https://films.example/altman"),
                       doc("c", "s2", 30, title: "Altman's California"), doc("d", "s2", 40, note: "Éléphant, Gus Van Sant")])
        XCTAssertEqual(i.search("goodbye").hits.map(\.postID), ["a"])
        XCTAssertEqual(i.search("ALTMAN").hits.map(\.postID), ["c", "b"], "across sessions, newest first")
        XCTAssertEqual(i.search("altman", in: "s1").hits.map(\.postID), ["b"])
        XCTAssertEqual(i.search("éLÉphant").hits.map(\.postID), ["d"], "non-ASCII case folds too")
        XCTAssertEqual(i.search("  gus van  ").hits.map(\.postID), ["d"], "surrounding spaces do not count")
        XCTAssertEqual(i.search("nothing like this").hits, [])
        XCTAssertEqual(i.search("").hits, [])
        XCTAssertEqual(i.postCount, 4)
    }

    func testAMatchNeverSpansTwoPostsOrTwoFields() {
        // "end" + "start" laid end to end must not make "endstart" match, nor note+URL make "note https".
        let i = index([doc("a", "s", 2, url: "https://x.example/start", note: "the end"), doc("b", "s", 1, url: "https://y.example/", note: "end")])
        XCTAssertEqual(i.search("endhttps").hits, [])
        XCTAssertEqual(i.search("end https").hits, [])
        XCTAssertEqual(i.search("the end").hits.map(\.postID), ["a"])
        XCTAssertEqual(i.search("end\nhttps").hits, [], "a control character in the query matches nothing")
    }

    func testOneHitPerPostWithItsRankInTheSession() {
        let docs = (0..<10).map { doc("p\($0)", "s", Int64($0), note: "cat cat cat") }
        let hits = index(docs).search("cat").hits
        XCTAssertEqual(hits.map(\.postID), (0..<10).reversed().map { "p\($0)" })
        XCTAssertEqual(hits.map(\.rankInSession), Array(0..<10), "rank 0 is the newest post, as the feed shows it")
    }

    func testWithinASecondHitsFollowTheFeedsOrder() {
        // Two of our own posts in one second: the one sent later comes first, whatever the ids, as in the feed.
        var late = doc("aaa", "s", 5, note: "same second"), early = doc("zzz", "s", 5, note: "same second")
        late.sentSeq = 2
        early.sentSeq = 1
        let hits = index([early, late, doc("mmm", "s", 4, note: "same second")]).search("same").hits
        XCTAssertEqual(hits.map(\.postID), ["aaa", "zzz", "mmm"])
        XCTAssertEqual(hits.map(\.rankInSession), [0, 1, 2])
    }

    func testHitsAreCappedAndSaySo() {
        let docs = (0..<(PostSearchIndex.maxHits + 5)).map { doc("p\($0)", "s\($0 % 3)", Int64($0), note: "same") }
        let result = index(docs).search("same")
        XCTAssertEqual(result.hits.count, PostSearchIndex.maxHits)
        XCTAssertTrue(result.truncated)
        XCTAssertEqual(result.hits.first?.postID, "p\(PostSearchIndex.maxHits + 4)", "the newest are kept")
    }

    func testReplacingASessionDropsItsOldPosts() {
        var i = index([doc("a", "s", 1, note: "old words"), doc("b", "t", 1, note: "old words")])
        i.replace(SessionSearchCorpus(sessionID: "s", documents: [doc("c", "s", 2, note: "new words")]))
        XCTAssertEqual(i.search("words").hits.map(\.postID).sorted(), ["b", "c"])
        i.replace(SessionSearchCorpus(sessionID: "t", documents: []))
        XCTAssertEqual(i.search("words").hits.map(\.postID), ["c"])
        XCTAssertEqual(i.postCount, 1)
    }

    func testTheMatchFinderAgreesWithANaiveScan() {
        // Random haystacks over a small alphabet, so first-byte candidates that fail are common.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let hay = (0..<Int.random(in: 0..<60, using: &rng)).map { _ in "ab".randomElement(using: &rng)! }
            let needle = String((0..<Int.random(in: 1..<5, using: &rng)).map { _ in "ab".randomElement(using: &rng)! })
            let i = index([doc("p", "s", 1, url: "u", note: String(hay))])
            XCTAssertEqual(!i.search(needle).hits.isEmpty, String(hay).contains(needle), "\(String(hay)) / \(needle)")
        }
    }
}
