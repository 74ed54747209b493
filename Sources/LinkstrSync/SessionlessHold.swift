import LinkstrDomain
import LinkstrStorage

/// Posts, reactions and delete notices whose session nobody has told us of yet, held in memory while a
/// history is being read instead of staged in the store.
///
/// NIP-59 dates every wrap at random within two days, so a history read by the wraps' dates meets a
/// session's posts before or after the message that creates it, in no useful order: about half of a
/// cold sync's posts came before their session, were staged (sealed, written with three indexes),
/// then read back, unsealed, deleted and written again as posts when the create came: a cold sync in
/// that order cost the store 34 µs a message against 18 in order (`linkstr-bench ingest`). Held here,
/// they go to the store with their session's first snapshot, once.
///
/// The ingest rules are order-independent, so when a message is ingested changes nothing of what the
/// store ends up with. Nothing is lost either: a held message's wrap is not recorded as processed
/// until the message is written, so after a crash it is fetched and opened again. The engine holds
/// only while the history is unsettled and writes everything held when it settles, on `flush()` and
/// on stop; past `capacity` messages are staged in the store as before, which bounds the memory.
/// Pure: the engine says which sessions the store has (`storeHas`).
struct SessionlessHold {
    struct Held: Sendable {
        let message: InboundMessage
        let wraps: [ProcessedWrap]
    }

    let capacity: Int
    private(set) var count = 0
    private var held: [String: [Held]] = [:]
    private var heldWraps = Set<String>()
    /// Sessions with a snapshot or deletion in the store or in a batch passed on before. Only a cache of
    /// `storeHas`: emptied past `knownLimit`, since anyone can wrap snapshots of made-up sessions to us.
    private var known = Set<String>()
    static let knownLimit = 50_000

    init(capacity: Int = 8_192) { self.capacity = capacity }

    var isEmpty: Bool { count == 0 }

    /// Whether this wrap's message is held: it came before and needs no second opening (its wrap is not
    /// recorded as processed yet, so the persisted set would not say so).
    func isHolding(wrap id: String) -> Bool { heldWraps.contains(id) }

    /// What of a batch to write now: its session messages, then what was held for their sessions, then
    /// whatever of the rest has a known session (or finds the hold full). `holding`: false once the
    /// history is settled, when everything passes. `wraps` are the batch's processed wraps; those of held
    /// messages are kept back with them.
    mutating func route(_ messages: [InboundMessage], wraps: [ProcessedWrap], holding: Bool,
                        storeHas: (String) -> Bool) -> (messages: [InboundMessage], wraps: [ProcessedWrap]) {
        if known.count > Self.knownLimit { known = [] }
        var out = [InboundMessage]()
        out.reserveCapacity(messages.count)
        var keptBack = Set<String>()
        var released = [ProcessedWrap]()
        // Sessions first, then what waited for them, then the rest: a post written after its session in
        // the same transaction is written once, where before it a post would be staged and moved again.
        var releasing = [Held]()
        for m in messages where Self.definesSession(m) {
            out.append(m)
            known.insert(m.payload.conversationID)
            if let waiting = held.removeValue(forKey: m.payload.conversationID) { releasing += waiting }
        }
        release(releasing, into: &out, &released)
        var wrapsByID = [String: ProcessedWrap]()
        var lacking = Set<String>()
        for m in messages where !Self.definesSession(m) {
            let sid = m.payload.conversationID
            guard holding, count < capacity, !known.contains(sid) else { out.append(m); continue }
            if !lacking.contains(sid) {
                if storeHas(sid) {
                    known.insert(sid)
                    out.append(m)
                    continue
                }
                lacking.insert(sid)
            }
            // The same wrap again (from a second relay) is a duplicate of what is held: written once.
            if !m.wrapIDs.isEmpty, m.wrapIDs.allSatisfy(heldWraps.contains) { keptBack.formUnion(m.wrapIDs); continue }
            if wrapsByID.isEmpty { wrapsByID = Dictionary(wraps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
            held[sid, default: []].append(Held(message: m, wraps: m.wrapIDs.compactMap { wrapsByID[$0] }))
            heldWraps.formUnion(m.wrapIDs)
            keptBack.formUnion(m.wrapIDs)
            count += 1
        }
        let passed = keptBack.isEmpty ? wraps : wraps.filter { !keptBack.contains($0.id) }
        return (out, passed + released)
    }

    /// Everything held, with its wraps, to be written now.
    mutating func releaseAll() -> (messages: [InboundMessage], wraps: [ProcessedWrap]) {
        var out = [InboundMessage](), wraps = [ProcessedWrap]()
        for sid in held.keys.sorted() { release(held[sid] ?? [], into: &out, &wraps) }
        held = [:]
        return (out, wraps)
    }

    private mutating func release(_ waiting: [Held], into out: inout [InboundMessage], _ wraps: inout [ProcessedWrap]) {
        for h in waiting {
            out.append(h.message)
            wraps += h.wraps
            heldWraps.subtract(h.message.wrapIDs)
        }
        count -= waiting.count
    }

    static func definesSession(_ m: InboundMessage) -> Bool {
        switch m.payload.kind {
        case .sessionCreate, .sessionMembers, .sessionDelete: return true
        case .root, .reaction, .rootDelete: return false
        }
    }
}
