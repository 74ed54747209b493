import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// "Added you" (wire 2026 §7.2): one record per author, the NIP-01 newest; following means that
/// newest list names you.
final class AddedYouRuleTests: XCTestCase {
    typealias F = MessageFactory

    func testTheNewestListOfEachAuthorDecides() {
        func list(_ author: String, _ at: Int64, _ id: String, _ keys: [String]) -> AddedYouRule.FollowList {
            AddedYouRule.FollowList(author: author, stamp: LWWStamp(createdAt: at, eventID: id), tags: keys.map { ["p", $0] } + [["t", "x"]])
        }
        let lists = [
            list(F.alice, 10, "a1", [F.me]),                 // follows
            list(F.bob, 10, "b1", [F.me]), list(F.bob, 20, "b2", [F.carol]),   // unfollowed since
            list(F.carol, 30, "c9", [F.me]), list(F.carol, 30, "c1", [F.bob]), // a tie: the lower id, which does not name me
            list(F.mallory, 5, "m1", [F.me.uppercased()]),   // a key written another way is the same key
            list(F.me, 40, "s1", [F.me]),                    // my own list is not "added you"
        ]
        XCTAssertEqual(AddedYouRule.followers(lists, me: F.me), [F.alice, F.mallory].sorted())
        XCTAssertEqual(AddedYouRule.followers([], me: F.me), [])
    }
}
