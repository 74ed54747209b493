import Foundation
import LinkstrApp
import LinkstrDomain
import NostrProtocol
import XCTest

@testable import LinkstrClient
@testable import LinkstrStorage
@testable import LinkstrTUI

/// The idle lock wipes the secret key and the data key from memory: the runner's open account holds them
/// (their bytes are found by a scan of this process's writable memory) until `.lock` closes the account;
/// then no copy is left. The needles are masked (each byte XOR 0xA5), read from the keys in place.
final class LockMemoryTests: XCTestCase {
    func testLockingLeavesNoCopyOfTheSecretKeyInMemory() async throws {
        let harness = try EffectHarness()
        defer { harness.close() }
        try harness.expect(.boot, [.bootStepReached(.loadingAccount), .bootStepReached(.preparingLocalData), .onboarding(.identityMissing)])
        _ = try harness.created(.onboarding(.createIdentity(name: "Ann", passphrase: "correct horse battery staple")))
        let mask = SecretMemoryTests.mask
        weak var store: AccountStore?
        let (masked, maskedDataKey): ([UInt8], [UInt8]) = try await {
            let open = await harness.runner.account
            store = open?.store
            let key = try XCTUnwrap(open?.key)
            let dataKey = try XCTUnwrap(open?.store.cipher.withDataKey { raw in raw.map { $0 ^ mask } })
            return (key.withUnsafeSecretBytes { p in (0..<32).map { p[$0] ^ mask } }, dataKey)
        }()
        XCTAssertNotNil(store)
        XCTAssertGreaterThanOrEqual(maskedDataKey.count, 32)
        XCTAssertGreaterThanOrEqual(try MemoryScan.places(masked: maskedDataKey, mask: mask), 1, "the open store holds the data key")
        XCTAssertGreaterThanOrEqual(try MemoryScan.places(masked: masked, mask: mask), 1, "the open account holds the key")
        harness.runner.perform(.lock(keepsAccountOpen: false))
        // The lock answers nothing: the account is watched until it is gone (the deadline only keeps a
        // broken handler from hanging the suite).
        let deadline = Date().addingTimeInterval(30)
        while await harness.runner.account != nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let closed = await harness.runner.account == nil
        XCTAssertTrue(closed, "the account is closed")
        // The store goes with it, and its data key (SecretBytes, cleansed when freed) with the store.
        let storeDeadline = Date().addingTimeInterval(10)
        while store != nil, Date() < storeDeadline { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertNil(store, "the account's store (and its data key) is freed")
        XCTAssertEqual(try MemoryScan.places(masked: masked, mask: mask), 0, "no copy of the secret key is left once locked")
        XCTAssertEqual(try MemoryScan.places(masked: maskedDataKey, mask: mask), 0, "nor of the data key")
    }
}
