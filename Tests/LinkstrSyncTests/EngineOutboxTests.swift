import LinkstrDomain
import NIOCore
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrRelay
@testable import LinkstrStorage
@testable import LinkstrSync

/// Sending over a fake pool: the gate holds a send until a relay is writable, a refusal applies
/// nothing, and delivery to a recipient's own inbox relays runs beside the send, never in front of it.
final class EngineOutboxTests: XCTestCase {
    func testASendWaitsAtTheGateAndGoesOnWhenItOpens() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.holdGate = true }
        let rumor = t.newSession("Films")
        let sent = Task { try await t.engine.send([rumor]) }
        await eventually("the send at the gate") { t.pool.state.withLock { !$0.gateWaiters.isEmpty } }
        XCTAssertTrue(t.pool.published.isEmpty, "nothing goes out before a relay is writable")
        t.pool.openGate()
        let result = try await sent.value
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(t.pool.published.count, 1)
        XCTAssertEqual(try t.store.sessionSummaries(archived: false).map(\.name), ["Films"], "applied once accepted")
    }

    func testARefusedBatchAppliesNothingAndAClosedGateSaysWhy() async throws {
        let t = try EngineUnderTest()
        t.pool.state.withLock { $0.answer = { _ in .failure(.rejected("blocked: not here")) } }
        do {
            _ = try await t.engine.send([t.newSession("Films")])
            XCTFail("a refused send must throw")
        } catch let error as PublishError {
            XCTAssertEqual(error, .rejected("blocked: not here"))
        }
        XCTAssertEqual(try t.store.sessionSummaries(archived: false).count, 0, "nothing applied")
        t.pool.state.withLock { $0.gate = .onlyReadOnly }
        do {
            _ = try await t.engine.send([t.newSession("Films")])
            XCTFail("a closed gate must throw")
        } catch let error as PublishError {
            XCTAssertEqual(error, .onlyReadOnly)
        }
        XCTAssertEqual(t.pool.published.count, 1, "nothing published past a closed gate")
    }

    /// Issue 28: an inbox relay whose name never resolves does not delay "sent"; its delivery reports
    /// on its own, at its deadline.
    func testAnInboxRelayWhoseNameNeverResolvesDoesNotDelayTheSend() async throws {
        let asked = Mutex(0)
        let never: InboxDelivery.Resolve = { _, _, _ in
            asked.withLock { $0 += 1 }
            // A resolver that never answers (it is cancelled at the deadline).
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return .unresolvable
        }
        let bob = SecretKey.generate()
        let slow = try EngineUnderTest(delivery: InboxDelivery(allowPrivateAddresses: true, timeout: .seconds(3600), resolve: never))
        try slow.store.storeRelayList(bob.publicKey.hex, kind: InboxRelayRule.inboxKind, relays: ["wss://inbox.bob.test"],
                                      stamp: LWWStamp(createdAt: 5, eventID: String(repeating: "e", count: 64)))
        let sent = try await slow.engine.send([slow.newSession("Films", members: [bob.publicKey.hex])])
        XCTAssertEqual(sent.count, 1, "sent, while the delivery waits for a name")
        await eventually("the lookup asked") { asked.withLock { $0 } == 1 }
        let value1 = await slow.engine.deliveriesUnderWay
        XCTAssertEqual(value1, 1)
        await slow.engine.stop()
        let value2 = await slow.engine.deliveriesUnderWay
        XCTAssertEqual(value2, 0, "stopping drops a delivery still waiting")

        // With a short deadline the delivery ends by itself and says why.
        let quick = try EngineUnderTest(delivery: InboxDelivery(allowPrivateAddresses: true, timeout: .milliseconds(200), resolve: never))
        try quick.store.storeRelayList(bob.publicKey.hex, kind: InboxRelayRule.inboxKind, relays: ["wss://inbox.bob.test"],
                                       stamp: LWWStamp(createdAt: 5, eventID: String(repeating: "e", count: 64)))
        var updates = quick.engine.updates.makeAsyncIterator()
        _ = try await quick.engine.send([quick.newSession("Films", members: [bob.publicKey.hex])])
        var reports: [InboxDelivery.Report] = []
        while reports.isEmpty, let update = await updates.next() { if case .inboxDelivery(let r) = update { reports = r } }
        XCTAssertEqual(reports, [InboxDelivery.Report(relay: "wss://inbox.bob.test", accepted: 0, error: "inbox.bob.test did not resolve in 200 ms")])
        let value3 = await quick.engine.stats.inboxUndelivered
        XCTAssertEqual(value3, 1)
        await quick.engine.finishDeliveries()
        let value4 = await quick.engine.deliveriesUnderWay
        XCTAssertEqual(value4, 0)
    }
}
