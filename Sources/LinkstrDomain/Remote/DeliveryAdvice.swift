/// What the delivery doctor tells the user to do about one member, in words. Pure: the facts
/// the doctor gathered in, one sentence out.
public enum DeliveryAdvice {
    public struct Facts: Equatable, Sendable {
        /// Where their relays come from: their 10050, their 10002 read relays, or nothing found.
        public var source: DeliveryRelayChoice.Source?
        public var relays: [String]
        /// Of `relays`: the ones we blocked, and the ones that answered a connection.
        public var blocked: [String]
        public var answering: [String]
        /// Relays both of us use.
        public var overlap: [String]
        public var lastDelivery: MemberDelivery?
        public init(source: DeliveryRelayChoice.Source?, relays: [String], blocked: [String], answering: [String], overlap: [String],
                    lastDelivery: MemberDelivery?) {
            self.source = source; self.relays = relays; self.blocked = blocked; self.answering = answering
            self.overlap = overlap; self.lastDelivery = lastDelivery
        }
    }

    public static func words(_ f: Facts) -> String {
        guard f.source != nil, !f.relays.isEmpty else {
            return f.overlap.isEmpty
                ? "They publish no inbox relays (kind 10050 or 10002) we could find: ask them to, or to read one of your relays."
                : "They publish no inbox relays: posts reach them only on the relays you share; ask them to publish a kind 10050."
        }
        if f.relays.allSatisfy(f.blocked.contains) {
            return "Every relay they read is one you blocked: unblock one (linkstr relays unblock URL) or ask them to add another."
        }
        if f.answering.isEmpty {
            return "None of their inbox relays answers now: ask them to check their inbox relays, or try later."
        }
        if case .notDelivered(let why)? = f.lastDelivery {
            return "The last post did not reach them (\(why)); their relays answer now, so the next one should."
        }
        if f.source == .readRelays {
            return "Reached through their NIP-65 read relays: a kind 10050 would say where they read gift wraps."
        }
        return "Nothing to do: their inbox relays answer."
    }
}
