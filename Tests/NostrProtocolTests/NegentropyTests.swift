import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Negentropy v1: the wire format against hand-derived bytes and an independent fingerprint (Python's
/// hashlib), rust-nostr's reconciliation example, random sets reconciled to the exact difference with
/// and without a frame limit, and hostile messages that must throw rather than trap or loop.
final class NegentropyTests: XCTestCase {
    private func id(_ byte: UInt8) -> Bytes32 { Bytes32([UInt8](repeating: byte, count: 32))! }
    private func item(_ t: UInt64, _ byte: UInt8) -> NegentropyItem { NegentropyItem(timestamp: t, id: id(byte)) }

    func testTheFirstMessageOfASmallSetListsItsIDs() {
        let storage = NegentropyStorage([item(1, 0xbb), item(0, 0xaa)])
        let message = Negentropy(storage: storage).initiate()
        // Version 0x61, bound infinity (timestamp 0, no prefix), mode 2 (ids), two ids in order.
        XCTAssertEqual(Hex.encode(message), "6100000202" + String(repeating: "aa", count: 32) + String(repeating: "bb", count: 32))
        XCTAssertEqual(Hex.encode(Negentropy(storage: NegentropyStorage([])).initiate()), "6100000200")
        // Empty, cut by time: an empty id list per range (timestamps delta-coded: 100 + 1, then 100 + 1).
        XCTAssertEqual(Hex.encode(Negentropy(storage: NegentropyStorage([])).initiate(emptyRangesEndingAt: [100, 200])),
                       "61" + "65000200" + "65000200" + "00000200")
    }

    func testFingerprintsMatchAnIndependentImplementation() {
        // hashlib.sha256(((aa.. + bb..) mod 2^256).to_bytes(32, "little") + varint(2)).hexdigest()[:32]
        XCTAssertEqual(Hex.encode(NegentropyStorage([item(0, 0xaa), item(1, 0xbb)]).fingerprint(0, 2)), "2e77f59864f98c80d0cef0915e063b05")
        XCTAssertEqual(Hex.encode(NegentropyStorage([]).fingerprint(0, 0)), "7f9c9e31ac8256ca2f258583df262dbc")
        // A sub-range from the running sums equals the same range stored alone.
        let items = (0..<40).map { (n: Int) -> NegentropyItem in item(UInt64(n / 3), UInt8(n * 5 + 1)) }
        let storage = NegentropyStorage(items)
        XCTAssertEqual(storage.fingerprint(7, 23), NegentropyStorage(storage.items[7..<23]).fingerprint(0, 16))
    }

    /// rust-nostr/negentropy's `test_reconciliation_set`.
    func testRustNostrsReconciliationExample() throws {
        let client = Negentropy(storage: NegentropyStorage([item(0, 0xaa), item(1, 0xbb)]))
        let relay = Negentropy(storage: NegentropyStorage([item(0, 0xaa), item(2, 0xcc), item(3, 0x11), item(5, 0x22), item(10, 0x33)]),
                               role: .responder)
        let answer = try XCTUnwrap(relay.reconcile(client.initiate()).next)
        let step = try client.reconcile(answer)
        XCTAssertNil(step.next)
        XCTAssertEqual(step.have, [id(0xbb)])
        XCTAssertEqual(step.need.map(\.id).sorted(), [id(0x11), id(0x22), id(0x33), id(0xcc)])
    }

    func testRandomSetsReconcileToTheirExactDifference() throws {
        var rng = SplitMix(seed: 0x4e49_5037_37)
        for (round, limit) in [(0, 0), (1, 4096), (2, 0), (3, 4096), (4, 60_000)] {
            let shared = Int.random(in: 0...6000, using: &rng), onlyOurs = Int.random(in: 0...300, using: &rng)
            let onlyTheirs = round == 1 ? 5000 : Int.random(in: 0...3000, using: &rng)
            func random(_ n: Int) -> [NegentropyItem] {
                // Few distinct timestamps, so bounds need id prefixes too.
                (0..<n).map { _ in NegentropyItem(timestamp: UInt64.random(in: 1_700_000_000...1_700_000_400, using: &rng),
                                                   id: Bytes32((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })!) }
            }
            let common = random(shared), ours = random(onlyOurs), theirs = random(onlyTheirs)
            let client = Negentropy(storage: NegentropyStorage(common + ours), frameSizeLimit: limit)
            let relay = Negentropy(storage: NegentropyStorage(common + theirs), role: .responder, frameSizeLimit: limit)
            var message = client.initiate(), have = Set<Bytes32>(), need = Set<Bytes32>(), rounds = 0
            while true {
                rounds += 1
                if rounds > 500 { return XCTFail("no end in sight") }
                // About log16 of the set, plus rounds for the differing ids a frame cannot hold: at 4 096
                // bytes only a few ranges of ids fit in a message.
                let differing = onlyTheirs + onlyOurs
                XCTAssertLessThan(rounds, 8 + (limit == 4096 ? differing / 10 : limit > 0 ? differing / 300 : 0), "limit \(limit)")
                if limit > 0 { XCTAssertLessThanOrEqual(message.count, limit) }
                let answer = try XCTUnwrap(relay.reconcile(message).next)
                if limit > 0 { XCTAssertLessThanOrEqual(answer.count, limit) }
                let step = try client.reconcile(answer)
                have.formUnion(step.have)
                need.formUnion(step.need.map(\.id))
                guard let next = step.next else { break }
                message = next
            }
            XCTAssertEqual(have, Set(ours.map(\.id)), "round \(round)")
            XCTAssertEqual(need, Set(theirs.map(\.id)), "round \(round)")
        }
    }

    func testVarintsAndTimestampsRoundTripThroughABound() throws {
        // A relay's message with bounds at 0, 127, 128, 2^35 and infinity, each a skip.
        var bytes: [UInt8] = [0x61]
        func varint(_ v: UInt64) -> [UInt8] {
            var d = [UInt8(v & 0x7F)], x = v >> 7
            while x > 0 { d.insert(UInt8(x & 0x7F) | 0x80, at: 0); x >>= 7 }
            return d
        }
        var last: UInt64 = 0
        for t in [UInt64(0), 127, 128, 1 << 35] {
            bytes += varint(t - last + 1) + [0, 0]
            last = t
        }
        bytes += [0, 0, 0]
        let step = try Negentropy(storage: NegentropyStorage([item(5, 1)]), role: .responder).reconcile(bytes)
        // All skipped: the responder answers with the version byte alone.
        XCTAssertEqual(step.next, [0x61])
        XCTAssertEqual(varint(128), [0x81, 0x00])
    }

    func testHostileMessagesThrowAndNeverTrap() {
        let client = Negentropy(storage: NegentropyStorage((0..<100).map { item(UInt64($0), UInt8($0)) }))
        let cases: [([UInt8], NegentropyError)] = [
            ([], .truncated),
            ([0x10], .badVersion(0x10)),
            ([0x62], .unsupportedVersion(0x62)),
            ([0x61, 0x00], .truncated),
            ([0x61, 0x00, 0x00, 0x07], .badMode(7)),
            ([0x61, 0x00, 0x21], .prefixTooLong(33)),
            ([0x61, 0x00, 0x00, 0x02, 0x05] + [UInt8](repeating: 1, count: 64), .tooManyIDs(5)),
            ([0x61, 0x00, 0x00, 0x01] + [UInt8](repeating: 1, count: 15), .truncated),
            ([0x61] + [UInt8](repeating: 0xFF, count: 11), .varintTooLong),
        ]
        for (message, error) in cases {
            XCTAssertThrowsError(try client.reconcile(message), "\(message)") { XCTAssertEqual($0 as? NegentropyError, error) }
        }
        var rng = SplitMix(seed: 77)
        for _ in 0..<3000 {
            let message = [0x61] + (0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? client.reconcile(message)
        }
    }
}
