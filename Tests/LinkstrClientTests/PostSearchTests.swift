import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Search over a real store on disk: what it finds, how it follows changes, and that nothing it reads
/// reaches the disk in plaintext.
final class PostSearchTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-search-\(UUID().uuidString)")
    }
    override func tearDownWithError() throws {
        if FileManager.default.fileExists(atPath: tmp.path) { try FileManager.default.removeItem(at: tmp) }
    }

    func testFindsNotesURLsAndTitlesAndFollowsChangesWithoutWritingThemDown() throws {
        let paths = DataPaths.resolve(home: tmp.path)
        let key = SecretKey.generate(), me = key.publicKey.hex, friend = SecretKey.generate().publicKey.hex
        let store = try LocalStore(paths: paths).account(key, now: 1)
        _ = try store.ingest([MessageFactory.create("S", by: me, members: [me, friend], at: 10),
                              MessageFactory.root("S", by: friend, at: 11, url: "https://video.example/zanzibar-harbour", note: "Quokka sighting", id: "p1"),
                              MessageFactory.root("S", by: me, at: 12, url: "https://news.example/a", id: "p2")], now: 12)
        try store.storeLinkMetadata(.init(title: "Marmalade Weekly", fetchedAt: 12), for: "https://news.example/a")
        let search = PostSearch(store: store)
        XCTAssertEqual(try search.build(), 2)
        XCTAssertEqual(try search.search("QUOKKA").result.hits.map(\.postID), ["p1"])
        XCTAssertEqual(try search.search("zanzibar").result.hits.map(\.postID), ["p1"])
        XCTAssertEqual(try search.search("marmalade", in: "S").result.hits.map(\.postID), ["p2"])
        XCTAssertEqual(try search.search("marmalade", in: "other").result.hits, [])

        // A new post and a deletion are seen once the session is marked stale (as the runtime does).
        _ = try store.ingest([MessageFactory.root("S", by: friend, at: 13, url: "https://c.example/", note: "another quokka", id: "p3"),
                              MessageFactory.delete("S", post: "p1", by: friend, at: 14)], now: 14)
        XCTAssertEqual(try search.search("quokka").result.hits.map(\.postID), ["p1"], "not stale yet: the index is as it was read")
        search.invalidate(["S"])
        XCTAssertEqual(try search.search("quokka").result.hits.map(\.postID), ["p3"])
        XCTAssertEqual(try search.search("quokka").indexedPosts, 2)

        // Nothing searchable was written: every file of the data directory is free of the words.
        for word in ["quokka", "zanzibar", "marmalade"] {
            for file in try FileManager.default.subpathsOfDirectory(atPath: tmp.path) {
                let url = tmp.appendingPathComponent(file)
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let data = try Data(contentsOf: url)
                XCTAssertNil(data.range(of: Data(word.utf8)), "\(word) in \(file)")
                XCTAssertNil(data.range(of: Data(word.uppercased().utf8)), "\(word) in \(file)")
            }
        }
    }
}
