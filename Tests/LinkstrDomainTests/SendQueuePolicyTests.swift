import LinkstrDomain
import XCTest

/// The send queue's rules (issue 49): backoff, which refusals end an item, order per session, the hold
/// on old items, and what the front ends are told.
final class SendQueuePolicyTests: XCTestCase {
    private func item(_ id: Int64, _ session: String, _ state: SendQueuePolicy.ItemState = .queued, attempts: Int = 0, nextAt: Int64 = 0,
                      createdAt: Int64 = 1_000_000, approved: Bool = false, post: String? = nil) -> SendQueuePolicy.Item {
        SendQueuePolicy.Item(id: id, sessionID: session, postID: post, state: state, attempts: attempts, nextAt: nextAt, createdAt: createdAt,
                             approved: approved)
    }

    func testTheBackoffIsOneTwoFiveFifteenSecondsAMinuteThenEveryFiveMinutes() {
        XCTAssertEqual((0...8).map { SendQueuePolicy.delay(afterAttempts: $0) }, [0, 1, 2, 5, 15, 60, 300, 300, 300])
    }

    func testOnlyRefusalsARetryCannotChangeArePermanent() {
        XCTAssertTrue(SendQueuePolicy.isPermanent("ws://r refused it: invalid: event too large"))
        XCTAssertTrue(SendQueuePolicy.isPermanent("wss://r refused it: blocked: you are banned"))
        XCTAssertTrue(SendQueuePolicy.isPermanent("pow: difficulty 30 required"))
        XCTAssertTrue(SendQueuePolicy.isPermanent("ws://r refused it:   INVALID: shouting"))
        XCTAssertFalse(SendQueuePolicy.isPermanent("ws://r refused it: rate-limited: slow down"))
        XCTAssertFalse(SendQueuePolicy.isPermanent("ws://r refused it: error: database locked"))
        XCTAssertFalse(SendQueuePolicy.isPermanent("ws://r refused it: auth-required: who are you"))
        XCTAssertFalse(SendQueuePolicy.isPermanent("relay connection dropped."))
        XCTAssertFalse(SendQueuePolicy.isPermanent("ws://invalid:8080 refused it: no reason given"), "the relay's address is not its words")
    }

    func testPerSessionItemsGoInOrderAndOnlyOnceTheirWaitIsOver() {
        let now: Int64 = 2_000_000
        let items = [item(1, "S"), item(2, "S"), item(3, "T", nextAt: now + 5), item(4, "T"), item(5, ""), item(6, ""),
                     item(7, "U", .failed), item(8, "U")]
        XCTAssertEqual(SendQueuePolicy.chains(items, now: now, holdAfterDays: 30).map { $0[0].id }, [1, 5, 6, 8],
                       "S's second waits for its first; T's first waits 5 s and holds T's second; items of no session go alone; a failed item holds nothing")
        XCTAssertEqual(SendQueuePolicy.nextWake(items, now: now, holdAfterDays: 30), now + 5)
        XCTAssertEqual(SendQueuePolicy.chains(items.reversed(), now: now, holdAfterDays: 30).map { $0[0].id }, [1, 5, 6, 8], "by id, whatever the order read")
        // Chains: each session's due items in order, up to the first that must wait.
        let more = items + [item(9, "S"), item(10, "T"), item(11, "U", nextAt: now + 1), item(12, "U")]
        XCTAssertEqual(SendQueuePolicy.chains(more, now: now, holdAfterDays: 30).map { $0.map(\.id) }, [[1, 2, 9], [5], [6], [8]],
                       "T waits behind its 3; U's 11 waits, and 12 behind it")
    }

    func testAnItemOlderThanTheHoldWaitsForAYesAndHoldsItsSession() {
        let now: Int64 = 10_000_000
        let old = item(1, "S", createdAt: now - 31 * 86_400), after = item(2, "S", createdAt: now)
        XCTAssertTrue(SendQueuePolicy.isHeld(old, now: now, holdAfterDays: 30))
        XCTAssertEqual(SendQueuePolicy.chains([old, after], now: now, holdAfterDays: 30).flatMap { $0.map(\.id) }, [])
        XCTAssertNil(SendQueuePolicy.nextWake([old, after], now: now, holdAfterDays: 30))
        XCTAssertEqual(SendQueuePolicy.counts([old, after], now: now, holdAfterDays: 30), SendQueuePolicy.Counts(waiting: 2, failed: 0, held: 1))
        let approved = item(1, "S", createdAt: now - 31 * 86_400, approved: true)
        XCTAssertEqual(SendQueuePolicy.chains([approved, after], now: now, holdAfterDays: 30).flatMap { $0.map(\.id) }, [1, 2])
        XCTAssertEqual(SendQueuePolicy.chains([old, after], now: now, holdAfterDays: 0).flatMap { $0.map(\.id) }, [1, 2], "0: never hold")
    }

    func testTheNewsMarksEachPostByItsFirstItemUnlessALaterOneFailed() {
        let items = [item(1, "S", post: "P"), item(2, "S", post: "P"), item(3, "S", post: "Q"), item(4, "S", .failed, post: "Q"),
                     item(5, "T", .failed, post: "R"), item(6, "", post: nil)]
        let news = SendQueueNews.make(items, reasons: [4: "ws://r refused it: invalid: no", 5: "blocked: x"],
                                      actions: [1: .post, 2: .reaction, 3: .post, 4: .reaction, 5: .postDelete], sending: 1,
                                      now: 1_000_000, holdAfterDays: 30, sent: 2)
        XCTAssertEqual(news.posts["P"], PostSendMark(item: 1, action: .post, state: .sending))
        XCTAssertEqual(news.posts["Q"], PostSendMark(item: 4, action: .reaction, state: .failed("ws://r refused it: invalid: no")))
        XCTAssertEqual(news.posts["R"], PostSendMark(item: 5, action: .postDelete, state: .failed("blocked: x")))
        XCTAssertEqual(news.sessions, ["S", "T"])
        XCTAssertEqual(news.counts, SendQueuePolicy.Counts(waiting: 4, failed: 2, held: 0))
        XCTAssertEqual(news.sent, 2)
    }

    func testTheDoctorMentionsWhatWaitedOverAnHourAndWhatFailed() {
        let now: Int64 = 1_000_000
        XCTAssertNil(SendQueuePolicy.doctorWords([item(1, "S", createdAt: now - 3_000)], now: now), "under an hour: not worth a word")
        XCTAssertEqual(SendQueuePolicy.doctorWords([item(1, "S", createdAt: now - 7_300), item(2, "S", createdAt: now - 3_700), item(3, "T", .failed)], now: now),
                       "send queue: 2 items have waited to be sent for over an hour (the oldest 2 h): no relay of yours took them; 1 item was refused for good (`linkstr queue list`, `linkstr queue retry --now`).")
        XCTAssertEqual(SendQueuePolicy.doctorWords([item(1, "S", createdAt: now - 3 * 86_400)], now: now),
                       "send queue: 1 item has waited to be sent for over an hour (the oldest 3 days): no relay of yours took it (`linkstr queue list`, `linkstr queue retry --now`).")
    }
}
