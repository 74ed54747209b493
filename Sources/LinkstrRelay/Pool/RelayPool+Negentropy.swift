import NostrProtocol

/// NIP-77 on one relay's current connection: the engine opens, continues and closes a negentropy sync;
/// the relay's answers come back as `PoolEvent.negentropy`. Unlike REQs, a sync is not replayed on a
/// reconnect (the engine starts its history again then); answers to a sync we did not open are junk.
///
/// An inbox relay that lets only the addressee read gift wraps answers a NEG-OPEN sent before our AUTH
/// with NEG-ERR "auth-required:" (its challenge comes on connect or with the first refusal, and our
/// NEG-OPEN goes on `ready`, before any answer to it). Like a REQ refused so, the NEG-OPEN is sent again
/// once after AUTH succeeds, on that connection; only a refusal that stands reaches the engine (which
/// then pages that relay this time).
extension RelayPool {
    /// Sends NEG-OPEN when the relay is connected; false when it is not.
    public func openNegentropy(_ id: String, filter: Filter, message: String, relay url: String) -> Bool {
        guard let connection = links[url]?.connection else { return false }
        let text = ClientMessage.negOpen(subscriptionID: id, filter: filter, message: message).encoded()
        negentropySyncs[NegentropyKey(relay: url, id: id)] = text
        connection.send(text)
        return true
    }

    public func sendNegentropy(_ id: String, message: String, relay url: String) -> Bool {
        guard negentropySyncs[NegentropyKey(relay: url, id: id)] != nil, let connection = links[url]?.connection else { return false }
        connection.send(ClientMessage.negMsg(subscriptionID: id, message: message).encoded())
        return true
    }

    public func closeNegentropy(_ id: String, relay url: String) {
        guard negentropySyncs.removeValue(forKey: NegentropyKey(relay: url, id: id)) != nil else { return }
        links[url]?.connection?.send(ClientMessage.negClose(subscriptionID: id).encoded())
    }

    /// NEG-ERR: an `auth-required:` one is answered by authenticating and opening again (once per sync and
    /// connection) when we can sign; any other, or one that stands, goes to the engine.
    func negentropyRefused(_ url: String, _ id: String, _ reason: RelayStatusMessage) {
        let key = NegentropyKey(relay: url, id: id)
        if reason.prefix == .authRequired, let text = negentropySyncs[key], var machine = machines[url],
           let actions = machine.refusedForAuth(key: "NEG-OPEN " + id, resend: text, canSign: authSigner != nil,
                                                now: now, unit: unit) {
            machines[url] = machine
            perform(actions, url)
            return
        }
        negentropyAnswered(url, id, .refused(reason))
    }

    /// What the relay's NIP-11 says: true or false when it lists its NIPs, nil when it lists none.
    public func advertisesNegentropy(relay url: String) -> Bool? {
        guard let nips = machines[url]?.information?.supportedNIPs, !nips.isEmpty else { return nil }
        return nips.contains(77)
    }

    func negentropyAnswered(_ url: String, _ id: String, _ answer: NegentropyAnswer) {
        let key = NegentropyKey(relay: url, id: id)
        guard negentropySyncs[key] != nil else {
            junk(url, 1)
            return
        }
        if case .refused = answer { negentropySyncs.removeValue(forKey: key) }
        sink.yield(.negentropy(relay: url, subscription: id, answer))
    }

    /// A new connection has no syncs open.
    func forgetNegentropy(_ url: String) { negentropySyncs = negentropySyncs.filter { $0.key.relay != url } }
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
