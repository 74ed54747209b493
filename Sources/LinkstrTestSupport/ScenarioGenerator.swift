import LinkstrDomain

/// Random message sets for property tests and benchmarks.
public enum ScenarioGenerator {
    /// Random sessions, snapshots (some from non-creators), roots (some duplicated through other wraps,
    /// some with mismatched root_id), reactions (some to missing roots), deletes (some by others) and
    /// the odd session delete, live or backfilled.
    public static func scenario(_ rng: inout SplitMix) -> [InboundMessage] {
        typealias F = MessageFactory
        let people = [F.me, F.alice, F.bob, F.carol, F.mallory]
        var out = [InboundMessage]()
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        func time() -> Int64 { Int64(10 + rng.next() % 90) }
        func source(_ t: Int64) -> (MessageSource, Int64) {
            chance(25) ? (.live, t + Int64(rng.next() % 40)) : (.historical, t)
        }
        func subset(_ must: [String]) -> [String] {
            var members = must
            for p in people where !members.contains(p) && chance(50) { members.append(p) }
            return members
        }
        let sessions = (0..<(1 + Int(rng.next() % 2))).map { "S\($0)-\(rng.next() % 1000)" }
        var roots = [(session: String, id: String, author: String)]()
        for sid in sessions {
            let creator = pick([F.me, F.alice, F.bob])
            let t0 = Int64(5 + rng.next() % 20)
            out.append(F.create(sid, by: creator, members: subset([creator, F.me]), at: t0))
            for _ in 0..<Int(rng.next() % 4) {
                let t = time()
                let (src, at) = source(t)
                out.append(F.members(sid, by: creator, members: subset([creator]), at: t, name: chance(30) ? "renamed \(t)" : nil, source: src, receivedAt: at))
            }
            if chance(15) { // someone else's snapshot or create
                let other = pick(people)
                out.append(chance(50) ? F.members(sid, by: other, members: subset([other]), at: time())
                                      : F.create(sid, by: other, members: subset([other, F.me]), at: time(), name: "hijack"))
            }
            for _ in 0..<Int(rng.next() % 7) {
                let author = pick(people), t = time()
                let (src, at) = source(t)
                let id = F.id("root-\(sid)-\(rng.next())")
                let mismatched = chance(5)
                out.append(F.root(sid, by: author, at: t, url: "https://example.com/\(rng.next() % 9)", note: chance(50) ? "note" : nil,
                                  id: id, rootID: mismatched ? F.id("other") : (chance(50) ? id : ""), wrap: "w\(rng.next())", source: src, receivedAt: at))
                if chance(30) { // the same rumor through another wrap
                    out.append(F.root(sid, by: author, at: t, url: out.last!.payload.url!, note: out.last!.payload.note, id: id,
                                      rootID: out.last!.payload.rootID, wrap: "w\(rng.next())", source: src, receivedAt: at))
                }
                roots.append((sid, id, author))
            }
            if chance(5) { out.append(F.sessionDelete(sid, by: chance(50) ? creator : pick(people), at: time())) }
        }
        for _ in 0..<Int(rng.next() % 9) {
            let target = roots.isEmpty || chance(10) ? (sessions[0], F.id("missing-\(rng.next())"), F.alice) : pick(roots)
            let t = time()
            let (src, at) = source(t)
            out.append(F.reaction(target.0, post: target.1, by: pick(people), emoji: pick(["👍", "👀"]), active: chance(70), at: t,
                                  id: F.id("r\(rng.next())"), source: src, receivedAt: at))
        }
        for _ in 0..<Int(rng.next() % 3) where !roots.isEmpty {
            let target = pick(roots)
            out.append(F.delete(target.session, post: target.id, by: chance(70) ? target.author : pick(people), at: time(), id: F.id("d\(rng.next())")))
        }
        return out
    }
}

extension ScenarioGenerator {
    /// At least `count` messages from independent scenarios (session ids made unique per scenario),
    /// spoken to `me` instead of `MessageFactory.me`.
    public static func stream(count: Int, seed: UInt64, me: Pubkey = MessageFactory.me) -> [InboundMessage] {
        var rng = SplitMix(seed: seed)
        var out = [InboundMessage]()
        var j = 0
        while out.count < count {
            // Ids are hashes over content that includes the session id, so each scenario gets its own
            // (remapped consistently, keeping references between its messages intact).
            func remap(_ id: String) -> String { id.isEmpty || id == "op" ? id : MessageFactory.id("\(j)/\(id)") }
            for var m in scenario(&rng) {
                m.payload.conversationID = "\(j)/" + m.payload.conversationID
                m.rumorID = remap(m.rumorID)
                m.payload.rootID = remap(m.payload.rootID)
                m.wrapIDs = m.wrapIDs.map(remap)
                out.append(me == MessageFactory.me ? m : m.replacingKey(MessageFactory.me, with: me))
            }
            j += 1
        }
        return Array(out.prefix(count))
    }
}

extension InboundMessage {
    /// The same message with one public key replaced everywhere (sender and member lists).
    public func replacingKey(_ old: Pubkey, with new: Pubkey) -> InboundMessage {
        var m = self
        if m.sender == old { m.sender = new }
        m.payload.memberPubkeys = m.payload.memberPubkeys?.map { $0 == old ? new : $0 }
        return m
    }
}

/// SplitMix64: a small, fast, seedable generator for reproducible randomness in tests.
public struct SplitMix: Sendable, RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
