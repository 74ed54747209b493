import NostrProtocol

/// NIP-77 on one relay's current connection: the engine opens, continues and closes a negentropy sync;
/// the relay's answers come back as `PoolEvent.negentropy`. Unlike REQs, a sync is not replayed on a
/// reconnect (the engine starts its history again then); answers to a sync we did not open are junk.
extension RelayPool {
    /// Sends NEG-OPEN when the relay is connected; false when it is not.
    public func openNegentropy(_ id: String, filter: Filter, message: String, relay url: String) -> Bool {
        guard let connection = links[url]?.connection else { return false }
        negentropySyncs.insert(NegentropyKey(relay: url, id: id))
        connection.send(ClientMessage.negOpen(subscriptionID: id, filter: filter, message: message).encoded())
        return true
    }

    public func sendNegentropy(_ id: String, message: String, relay url: String) -> Bool {
        guard negentropySyncs.contains(NegentropyKey(relay: url, id: id)), let connection = links[url]?.connection else { return false }
        connection.send(ClientMessage.negMsg(subscriptionID: id, message: message).encoded())
        return true
    }

    public func closeNegentropy(_ id: String, relay url: String) {
        guard negentropySyncs.remove(NegentropyKey(relay: url, id: id)) != nil else { return }
        links[url]?.connection?.send(ClientMessage.negClose(subscriptionID: id).encoded())
    }

    /// What the relay's NIP-11 says: true or false when it lists its NIPs, nil when it lists none.
    public func advertisesNegentropy(relay url: String) -> Bool? {
        guard let nips = machines[url]?.information?.supportedNIPs, !nips.isEmpty else { return nil }
        return nips.contains(77)
    }

    func negentropyAnswered(_ url: String, _ id: String, _ answer: NegentropyAnswer) {
        let key = NegentropyKey(relay: url, id: id)
        guard negentropySyncs.contains(key) else {
            junk(url, 1)
            return
        }
        if case .refused = answer { negentropySyncs.remove(key) }
        sink.yield(.negentropy(relay: url, subscription: id, answer))
    }

    /// A new connection has no syncs open.
    func forgetNegentropy(_ url: String) { negentropySyncs = negentropySyncs.filter { $0.relay != url } }
}

/// A relay's answer to a negentropy sync: its next message (hex, decoded by the engine) or NEG-ERR.
public enum NegentropyAnswer: Sendable, Equatable {
    case message(String)
    case refused(RelayStatusMessage)
}

struct NegentropyKey: Hashable {
    let relay: String
    let id: String
}
