/// Negentropy v1 range-based set reconciliation (NIP-77's appendix), as in the reference
/// implementations (hoytech/negentropy, rust-nostr/negentropy): the initiator's first message, and one
/// step per message received. Pure: no sockets, no clock; a step's work is bounded by the message and
/// the local set (fingerprints are O(1) from `NegentropyStorage`'s running sums).
public struct Negentropy: Sendable {
    public enum Role: Sendable { case initiator, responder }

    /// An id the other side has and we lack, with the upper timestamp of the range it came in (to
    /// fetch the newest first).
    public struct Needed: Equatable, Sendable {
        public let id: Bytes32
        public let before: UInt64
    }

    /// What a message taught and what to answer: `next` is nil once the initiator is done.
    public struct Step: Sendable {
        public var next: [UInt8]?
        /// Ids we hold that the other side lacks (initiator only).
        public var have: [Bytes32] = []
        public var need: [Needed] = []
    }

    public let storage: NegentropyStorage
    public let role: Role
    /// Outgoing messages are kept under this many bytes (before hex); 0 for no limit, else ≥ 4096.
    public let frameSizeLimit: Int

    public init(storage: NegentropyStorage, role: Role = .initiator, frameSizeLimit: Int = 0) {
        precondition(frameSizeLimit == 0 || frameSizeLimit >= 4096, "negentropy frame limit below 4096")
        self.storage = storage
        self.role = role
        self.frameSizeLimit = frameSizeLimit
    }

    /// The initiator's first message: the whole set as fingerprints of 16 buckets (or its ids when small).
    ///
    /// `emptyRangesEndingAt`: with nothing stored, the space cut at these timestamps (ascending) into
    /// empty id lists, which the other side answers range by range: the ids it sends then come with the
    /// time range they are in (the reference sends one range, and its answer says nothing of time).
    public func initiate(emptyRangesEndingAt cuts: [UInt64] = []) -> [UInt8] {
        var w = NegentropyWriter(capacity: 512)
        w.byte(negentropyProtocolVersion)
        if storage.count == 0, !cuts.isEmpty {
            var previous: UInt64 = 0
            for cut in cuts where cut > previous && cut < NegentropyBound.infinityTimestamp {
                w.bound(NegentropyBound(timestamp: cut))
                w.varint(NegentropyMode.idList.rawValue)
                w.varint(0)
                previous = cut
            }
        }
        split(0, storage.count, .infinity, into: &w)
        return w.bytes
    }

    /// One message received; see `Step`.
    public func reconcile(_ message: [UInt8]) throws(NegentropyError) -> Step {
        var r = NegentropyReader(message)
        var out = NegentropyWriter(capacity: 1024)
        out.byte(negentropyProtocolVersion)
        var step = Step(next: nil)
        let version = try r.byte()
        guard version >= 0x60, version <= 0x6F else { throw .badVersion(version) }
        guard version == negentropyProtocolVersion else {
            if role == .initiator { throw .unsupportedVersion(version) }
            step.next = out.bytes
            return step
        }
        let size = storage.count
        var previousBound = NegentropyBound(timestamp: 0), previousIndex = 0
        var skip = false
        while !r.isAtEnd {
            var o = out.part()
            func flushSkip() {
                guard skip else { return }
                skip = false
                o.bound(previousBound)
                o.varint(NegentropyMode.skip.rawValue)
            }
            let bound = try r.bound()
            let rawMode = try r.varint()
            guard let mode = NegentropyMode(rawValue: rawMode) else { throw .badMode(rawMode) }
            let lower = previousIndex
            var upper = storage.lowerBound(previousIndex, size, bound)
            switch mode {
            case .skip:
                skip = true
            case .fingerprint:
                let theirs = Array(try r.take(16))
                if theirs != storage.fingerprint(lower, upper) {
                    flushSkip()
                    split(lower, upper, bound, into: &o)
                } else {
                    skip = true
                }
            case .idList:
                let count = try r.varint()
                guard count <= UInt64(r.remaining / 32) else { throw .tooManyIDs(count) }
                var theirs = Set<Bytes32>(minimumCapacity: Int(count))
                for _ in 0..<count { theirs.insert(try r.id()) }
                if role == .initiator {
                    skip = true
                    for item in storage.items[lower..<upper] where theirs.remove(item.id) == nil { step.have.append(item.id) }
                    // Sorted, so the fetch order does not depend on the set's hashing.
                    step.need += theirs.sorted().map { Needed(id: $0, before: bound.timestamp) }
                } else {
                    flushSkip()
                    var ids = out.part(), listed: UInt64 = 0, end = bound
                    for index in lower..<upper {
                        if exceedsFrame(out.count + ids.count) {
                            end = NegentropyBound(timestamp: storage.items[index].timestamp, id: storage.items[index].id, prefixLength: 32)
                            upper = index
                            break
                        }
                        ids.id(storage.items[index].id)
                        listed += 1
                    }
                    o.bound(end)
                    o.varint(NegentropyMode.idList.rawValue)
                    o.varint(listed)
                    o.append(ids)
                    // The ids go out even when they fill the frame: only the rest is left to a fingerprint.
                    out.adopt(o)
                    o = out.part()
                }
            }
            if exceedsFrame(out.count + o.count) {
                // Over the frame: the rest of the space as one fingerprint, for the other side to split.
                var rest = out.part()
                rest.bound(.infinity)
                rest.varint(NegentropyMode.fingerprint.rawValue)
                for b in storage.fingerprint(upper, size) { rest.byte(b) }
                out.adopt(rest)
                break
            }
            out.adopt(o)
            previousIndex = upper
            previousBound = bound
        }
        step.next = role == .initiator && out.count == 1 ? nil : out.bytes
        return step
    }

    private func exceedsFrame(_ size: Int) -> Bool { frameSizeLimit > 0 && size > frameSizeLimit - 200 }

    /// A range as its ids when small, else as 16 fingerprinted buckets split at the shortest bounds.
    private func split(_ lower: Int, _ upper: Int, _ upperBound: NegentropyBound, into o: inout NegentropyWriter) {
        let count = upper - lower
        let buckets = 16
        if count < buckets * 2 {
            o.bound(upperBound)
            o.varint(NegentropyMode.idList.rawValue)
            o.varint(UInt64(count))
            for item in storage.items[lower..<upper] { o.id(item.id) }
            return
        }
        let perBucket = count / buckets, withExtra = count % buckets
        var current = lower
        for i in 0..<buckets {
            let size = perBucket + (i < withExtra ? 1 : 0)
            let fingerprint = storage.fingerprint(current, current + size)
            current += size
            o.bound(current == upper ? upperBound : .between(storage.items[current - 1], storage.items[current]))
            o.varint(NegentropyMode.fingerprint.rawValue)
            for b in fingerprint { o.byte(b) }
        }
    }
}
