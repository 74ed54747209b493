import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrStorage

/// A relay list is replaced only by a newer one in the statement itself, so two processes that each
/// checked "newer than ours" (`doctor` beside the app) cannot put an older list over a newer one.
final class RelayListNewestWinsTests: StorageTestCase {
    func testAnOlderListNeverReplacesANewerOne() throws {
        let local = try LocalStore(paths: paths)
        let store = try local.account(SecretKey.generate(), now: 1)
        let bob = MessageFactory.bob
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://new.example"], stamp: LWWStamp(createdAt: 200, eventID: "b"))
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://old.example"], stamp: LWWStamp(createdAt: 100, eventID: "a"))
        XCTAssertEqual(try store.relayListRecord(bob, kind: 10_050)?.relays, ["wss://new.example"], "older: kept out")
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://tie-higher.example"], stamp: LWWStamp(createdAt: 200, eventID: "c"))
        XCTAssertEqual(try store.relayListRecord(bob, kind: 10_050)?.relays, ["wss://new.example"], "same second, higher id: kept out")
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://tie-lower.example"], stamp: LWWStamp(createdAt: 200, eventID: "a"))
        XCTAssertEqual(try store.relayListRecord(bob, kind: 10_050)?.relays, ["wss://tie-lower.example"], "same second, lower id: taken")
        try store.storeRelayList(bob, kind: 10_050, relays: ["wss://newer.example"], stamp: LWWStamp(createdAt: 300, eventID: "z"))
        XCTAssertEqual(try store.relayListRecord(bob, kind: 10_050)?.relays, ["wss://newer.example"], "newer: taken")
    }
}
